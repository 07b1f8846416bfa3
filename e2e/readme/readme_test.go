// Package readme_test runs the README's commands as printed, in an empty
// directory, so the first hour of a new user is tested, not hoped for.
package readme_test

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// printedAddr is the address the README's commands name; the test serves
// on a free port instead and rewrites it.
const printedAddr = "127.0.0.1:8080"

// TestReadmeCommands runs the data-directory sequence of the README line by
// line in a fresh directory, with QUARRY_DATA_DIR=./data as printed: each
// `quarry serve` line starts the server (stopping the one before, as the
// README says to), and the first-request walk-through runs against the
// first. It checks what each step says it does: the walk-through's answers
// and charges, the account and credits surviving a restart, the backup,
// ledger verify, and the backup served.
func TestReadmeCommands(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("the README's walk-through needs curl (apt-get install curl)")
	}
	r := &run{t: t, dir: t.TempDir(), addr: freeAddr(t)}
	r.env = append(withoutSettings(os.Environ()), "QUARRY_HTTP_ADDR="+r.addr, "QUARRY_METRICS_ADDR=127.0.0.1:0", "QUARRY_LOG_LEVEL=warn")
	for _, line := range commandLines(block(t, r.readme(), "data-directory")) {
		switch {
		case line == "go tool task build" || strings.HasPrefix(line, "go tool task build "):
			r.build()
		case strings.Contains(line, "bin/quarry serve"):
			r.serve(line)
		default:
			r.output = append(r.output, r.sh(line))
		}
	}
	r.stop()
	if r.served != 3 {
		t.Fatalf("the data-directory block served %d times, want 3 (first start, restart, the backup)", r.served)
	}
	out := strings.Join(r.output, "")
	for _, want := range []string{"backup/platform.db", "backup/documents/", "ledger verify: every balance equals the sum of its entries"} {
		if !strings.Contains(out, want) {
			t.Errorf("backup and ledger verify: no %q in\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(r.dir, "data", "platform.db")); err != nil {
		t.Errorf("./data, as printed, was not the data directory: %v", err)
	}
}

// walkThroughCredits is what the walk-through leaves of the sign-up's
// 100000: 1 for the security, 2 for the searches, 1 for the statements,
// 25 for Ask; the 422 is not charged.
const walkThroughCredits = `"credits":99971`

// run is the state of one run of the README in its directory.
type run struct {
	t      *testing.T
	dir    string
	addr   string
	env    []string
	server *exec.Cmd
	exited chan error // the server's Wait, once started
	logs   bytes.Buffer
	served int
	output []string
}

// build does what `go tool task build` does, into the run's bin/quarry.
func (r *run) build() {
	r.t.Helper()
	cmd := exec.Command("go", "build", "-o", filepath.Join(r.dir, "bin", "quarry"), "./cmd/quarry")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("go build: %v\n%s", err, out)
	}
}

// serve stops the running server, as the README says to between serve
// lines, starts line in the background and checks the step it stands for.
func (r *run) serve(line string) {
	r.t.Helper()
	r.start(line)
	if r.served == 1 {
		r.walkThrough()
		return
	}
	// After a restart, and from the backup: the same account and credits.
	got := r.sh(`curl -s -X POST http://` + printedAddr + `/account/login -d '{"email":"you@example.com","password":"a long passphrase"}'`)
	if !strings.Contains(got, walkThroughCredits) {
		r.t.Errorf("%s: the walk-through's account has not kept its credits (%s): %s", line, walkThroughCredits, got)
	}
}

// start stops the running server, as the README says to between serve
// lines, and starts line in the background, waiting until it is ready.
func (r *run) start(line string) {
	r.t.Helper()
	r.stop()
	r.logs.Reset()
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = r.dir, r.env, &r.logs, &r.logs
	// Its own process group, so the interrupt reaches quarry whether or
	// not bash forked it, as Ctrl-C reaches the foreground job.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.server, r.exited = cmd, make(chan error, 1)
	go func() { r.exited <- cmd.Wait() }()
	r.t.Cleanup(r.stop)
	r.waitReady(line)
	r.served++
}

// waitReady waits for /readyz to answer 200, failing if the server exits.
func (r *run) waitReady(line string) {
	r.t.Helper()
	deadline := time.After(3 * time.Minute)
	for {
		if res, err := http.Get("http://" + r.addr + "/readyz"); err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-r.exited:
			r.server = nil
			r.t.Fatalf("%s exited before it was ready: %v\n%s", line, err, r.logs.String())
		case <-deadline:
			r.t.Fatalf("%s: not ready after 3 minutes\n%s", line, r.logs.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop interrupts the server as Ctrl-C would and waits for it to end,
// killing it if it does not within 30 seconds.
func (r *run) stop() {
	if r.server == nil {
		return
	}
	group := -r.server.Process.Pid
	_ = syscall.Kill(group, syscall.SIGINT)
	select {
	case <-r.exited:
	case <-time.After(30 * time.Second):
		_ = syscall.Kill(group, syscall.SIGKILL)
		<-r.exited
		r.t.Errorf("the server did not stop on an interrupt within 30 s\n%s", r.logs.String())
	}
	r.server = nil
}

// walkThrough runs the first-request block as one shell session and checks
// what its comments promise.
func (r *run) walkThrough() {
	r.t.Helper()
	out := r.sh("set -eu\n" + block(r.t, r.readme(), "first-request"))
	for _, want := range []string{
		"X-Credits-Cost: 1", `"company_name":"贵州茅台"`, // the security, charged 1
		`"error":"validation_failed"`, "did you mean SSE.600519?", // the bare code: 422
		`"income_statements":[`, `"as_of":"2025-02-25T23:59:59.999999Z"`, // point in time
		`"answer":"贵州茅台 (SSE.600519) was listed`, `"citations":[{"marker":1`, // Ask
		`"tickers":["NVDA"]`, `"company_name":"浦发银行"`, // the searches
		`"balance":99971`, `"kind":"grant","amount":100000`, // the ledger: 422 not charged
		`"datasets":[`, // the catalog
	} {
		if !strings.Contains(out, want) {
			r.t.Errorf("the first-request walk-through: no %s in\n%s", want, out)
		}
	}
}

// readme is the README's text.
func (r *run) readme() []byte {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// sh runs script with bash in the run's directory, on the port served,
// and returns its output; a failure fails the test.
func (r *run) sh(script string) string {
	r.t.Helper()
	cmd := exec.Command("bash", "-c", strings.ReplaceAll(script, printedAddr, r.addr))
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return string(out)
}

// block returns the sh block that follows the marker <!-- readme-test: name -->.
func block(t *testing.T, readme []byte, name string) string {
	t.Helper()
	m := regexp.MustCompile("(?s)<!-- readme-test: " + regexp.QuoteMeta(name) + " -->\n```sh\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatalf("README.md has no sh block marked <!-- readme-test: %s -->", name)
	}
	return string(m[1])
}

// commandLines splits a block into commands: continued lines joined,
// comment lines and blank lines dropped.
func commandLines(block string) []string {
	var lines []string
	for l := range strings.SplitSeq(strings.ReplaceAll(block, "\\\n", ""), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// freeAddr returns a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String()
}

// withoutSettings drops QUARRY_* variables from env, so a setting of the
// machine running the tests cannot change what the README's commands do.
func withoutSettings(env []string) []string {
	var kept []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "QUARRY_") {
			kept = append(kept, kv)
		}
	}
	return kept
}
