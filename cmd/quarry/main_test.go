package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
)

// runMain marks the test binary's own re-execution as the quarry binary.
const runMain = "QUARRY_TEST_RUN_MAIN"

// TestMain runs main instead of the tests when re-executed by quarry, so
// a test sees the binary's exit status and output with an environment of
// its choosing.
func TestMain(m *testing.M) {
	if os.Getenv(runMain) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// quarry runs the binary with args and only the variables in env.
func quarry(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append([]string{runMain + "=1"}, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), 0
}

// TestEveryCommandsHelpNeedsNoEnvironment asks each command for its help,
// with no environment (--help) and with settings that would stop it (-h),
// and expects its usage line and exit status 0: help reads no setting and
// opens no database.
func TestEveryCommandsHelpNeedsNoEnvironment(t *testing.T) {
	bad := []string{bootstrap.EnvVaultKey + "=abcd", bootstrap.EnvHTTPAddr + "=8080"}
	for _, c := range commands {
		for flag, env := range map[string][]string{"--help": nil, "-h": bad} {
			args := append(strings.Fields(c.name), flag)
			out, errOut, code := quarry(t, env, args...)
			if code != 0 || !strings.Contains(out, "usage: quarry "+c.name) {
				t.Errorf("quarry %s with env %q: exit %d, stdout:\n%s\nstderr:\n%s", strings.Join(args, " "), env, code, out, errOut)
			}
		}
	}
}

// TestHelpListsEverySetting checks that quarry help names every setting
// (bootstrap.Settings, which a bootstrap test holds to the Env* constants)
// with its default, and says where ingest writes.
func TestHelpListsEverySetting(t *testing.T) {
	out, errOut, code := quarry(t, nil, "help")
	if code != 0 {
		t.Fatalf("quarry help: exit %d\n%s", code, errOut)
	}
	for _, s := range bootstrap.Settings {
		line := lineOf(out, "  "+s.Name+" ")
		if line == "" || (s.Default != "" && !strings.Contains(line, " "+s.Default+" ")) {
			t.Errorf("quarry help: %s with default %q missing; line %q", s.Name, s.Default, line)
		}
	}
	if !strings.Contains(out, "load source files into MongoDB or the data directory") {
		t.Errorf("quarry help does not say that ingest writes the data directory:\n%s", out)
	}
}

// TestHelpOfOneCommand checks quarry help COMMAND and a command group.
func TestHelpOfOneCommand(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"help", "keys"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"usage: quarry keys grant-scope", "usage: quarry keys revoke-scope"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("quarry help keys: no %q in\n%s", want, out.String())
		}
	}
	if _, _, code := quarry(t, nil, "nonsense", "--help"); code != 2 {
		t.Errorf("quarry nonsense --help: exit %d, want 2", code)
	}
}

// lineOf returns the first line of text that starts with prefix.
func lineOf(text, prefix string) string {
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}

// TestIngestHelpNamesCatalogIDsAndAliases checks that quarry help and
// quarry ingest --help list each ingest by its catalog id, the catalog
// datasets it alone fills, and its old name as an alias until the next
// release (B66).
func TestIngestHelpNamesCatalogIDsAndAliases(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"ingest", "--help"}} {
		out, errOut, code := quarry(t, nil, args...)
		if code != 0 {
			t.Fatalf("quarry %v: exit %d\n%s", args, code, errOut)
		}
		for prefix, want := range map[string]string{
			"  us_financials ":     "SEC companyfacts JSON",
			"  us-financials ":     "(alias of us_financials, until the next release)",
			"  india_search ":      "(loads india_judgments)",
			"  us-holdings ":       "(alias of us_security_fund_holders, until the next release)",
			"  us_filing_indexes ": "EDGAR filing folders",
		} {
			if line := lineOf(out, prefix); !strings.Contains(line, want) {
				t.Errorf("quarry %v: line %q, want %q", args, line, want)
			}
		}
	}
}

// TestUsageErrorsAreOneLine: a bare quarry, an unknown command and a
// command with the wrong arguments each print one line on stderr, naming
// what the command takes, and exit 2; nothing goes to stdout.
func TestUsageErrorsAreOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no command given"},
		{[]string{"frobnicate"}, `"frobnicate" is no command`},
		{[]string{"credits", "grant", "a@example.com", "100"}, "usage: quarry credits grant EMAIL AMOUNT --reason TEXT"},
		{[]string{"vault", "reveal"}, "usage: quarry vault reveal TOKEN"},
	} {
		out, errOut, code := quarry(t, nil, c.args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("quarry %q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, out, errOut, c.want)
		}
	}
}

// TestFailedSyncPrintsItsErrorOnce: a sync whose source refuses it says
// why once, on the source's line, and exits 1 with a line naming the
// source, not the error a second and third time.
func TestFailedSyncPrintsItsErrorOnce(t *testing.T) {
	nse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "refused by the test", http.StatusForbidden)
	}))
	defer nse.Close()
	env := []string{bootstrap.EnvDataDir + "=" + t.TempDir(), bootstrap.EnvNSEBaseURL + "=" + nse.URL}
	out, errOut, code := quarry(t, env, "sync", "nse", "--from", "2025-06-23", "--to", "2025-06-23")
	all := out + errOut
	if code != 1 || strings.Count(all, "403") != 1 || !strings.Contains(out, "nse: ") || !strings.Contains(errOut, "nse did not finish") {
		t.Fatalf("a failed sync: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit 1, the error (403) once on nse's line, and a last line naming nse", code, out, errOut)
	}
}
