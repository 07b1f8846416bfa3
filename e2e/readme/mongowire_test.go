package readme_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// trailingComment is a comment after a command, as the README's lines end.
var trailingComment = regexp.MustCompile(`\s+#\s.*$`)

// printedMongoAddr is the address the README's FerretDB listens on; the
// test uses a free port instead.
const printedMongoAddr = "127.0.0.1:27017"

// TestReadmeMongoDBWire runs the README's MongoDB-wire block as printed, in
// a fresh directory: the FerretDB command is built from the clone, started
// in the background, loaded by `quarry ingest all` and served from, and a
// first request reads a security from it.
func TestReadmeMongoDBWire(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("the README's commands need curl (apt-get install curl)")
	}
	r := &run{t: t, dir: t.TempDir(), addr: freeAddr(t)}
	r.env = append(withoutSettings(os.Environ()), "QUARRY_HTTP_ADDR="+r.addr, "QUARRY_METRICS_ADDR=127.0.0.1:0", "QUARRY_LOG_LEVEL=warn")
	mongoAddr := freeAddr(t)
	clone, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range commandLines(block(t, r.readme(), "mongodb-wire")) {
		line = trailingComment.ReplaceAllString(strings.ReplaceAll(line, printedMongoAddr, mongoAddr), "")
		switch {
		case line == "go tool task build":
			r.build()
		case strings.HasPrefix(line, "go build -C "):
			// From the clone, as printed: its module is in the clone.
			r.output = append(r.output, r.sh(strings.Replace(line, "-C ", "-C "+clone+"/", 1)))
		case strings.HasSuffix(line, "&"):
			background(t, r, strings.TrimSuffix(line, "&"), "Listening on TCP "+mongoAddr)
		case strings.HasPrefix(line, "export "):
			r.env = append(r.env, exported(t, r, line)...)
		case strings.Contains(line, "bin/quarry serve"):
			r.start(line)
		default:
			r.output = append(r.output, r.sh(line))
		}
	}
	defer r.stop()
	if r.served != 1 {
		t.Fatalf("the block served %d times, want 1", r.served)
	}
	out := strings.Join(r.output, "")
	if !strings.Contains(out, "ingested china_securities into quarry: read 5524 records") {
		t.Errorf("quarry ingest all did not load the samples into the server:\n%s", out)
	}
	ready := r.sh(`curl -s http://` + printedAddr + `/readyz`)
	if !strings.Contains(ready, `"mongodb":"ok"`) || !strings.Contains(ready, `"documents":"mongodb"`) {
		t.Fatalf("/readyz on the README's FerretDB: %s", ready)
	}
	got := r.sh("set -eu\n" + block(t, r.readme(), "first-request"))
	if !strings.Contains(got, `"company_name":"贵州茅台"`) {
		t.Errorf("the first request against MongoDB-wire storage: no security in\n%s", got)
	}
}

// background starts line in its own process group in the run's directory
// and waits until its output says ready; the group is interrupted at
// cleanup.
func background(t *testing.T, r *run, line, ready string) {
	t.Helper()
	var logs syncBuffer
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = r.dir, r.env, &logs, &logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	deadline := time.After(time.Minute)
	for !strings.Contains(logs.String(), ready) {
		select {
		case err := <-exited:
			t.Fatalf("%s exited before it said %q: %v\n%s", line, ready, err, logs.String())
		case <-deadline:
			t.Fatalf("%s: no %q after a minute\n%s", line, ready, logs.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// exported runs an export line and returns the QUARRY_ variables it set,
// for the lines after it, as one shell session would keep them.
func exported(t *testing.T, r *run, line string) []string {
	t.Helper()
	var vars []string
	for kv := range strings.SplitSeq(r.sh(line+"\nenv"), "\n") {
		if strings.HasPrefix(kv, "QUARRY_") && !strings.Contains(strings.Join(r.env, "\n"), kv) {
			vars = append(vars, kv)
		}
	}
	if len(vars) == 0 {
		t.Fatalf("%s set no QUARRY_ variable", line)
	}
	return vars
}

// syncBuffer is a bytes.Buffer a process writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
