package sqlite_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/sqlite"
)

// Environment of the child process TestKilledMidLoad starts.
const (
	envCrashDB      = "QUARRY_SQLITE_CRASH_DB"
	envCrashAccount = "QUARRY_SQLITE_CRASH_ACCOUNT"
	envCrashKey     = "QUARRY_SQLITE_CRASH_KEY"
)

// debitedPrefix starts the line the child prints once a debit returned.
const debitedPrefix = "debited "

// TestKilledMidLoad kills a process with SIGKILL while it debits, then
// opens its file again: the ledger verifies, and every debit the process
// was told had been applied is there.
func TestKilledMidLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "platform.db")
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	accountID, keyID := funded(t, s, 1_000_000)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	child := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	child.Env = append(os.Environ(), envCrashDB+"="+path, envCrashAccount+"="+accountID, envCrashKey+"="+keyID)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatalf("pipe: %v", err)
	}
	if err := child.Start(); err != nil {
		t.Fatalf("start the child: %v", err)
	}
	told := map[string]bool{}
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if id, ok := strings.CutPrefix(lines.Text(), debitedPrefix); ok {
			told[id] = true
			if len(told) == 2000 {
				_ = child.Process.Kill() // SIGKILL: no deferred call, no Close
			}
		}
	}
	_ = child.Wait()
	if len(told) < 2000 {
		t.Fatalf("the child reported %d debits before it ended, want at least 2000", len(told))
	}

	again := open(t, path)
	n := checkBalanced(t, again, accountID)
	st, err := again.Statement(context.Background(), accountID, n, 0)
	if err != nil {
		t.Fatalf("Statement: %v", err)
	}
	reported := len(told)
	for _, e := range st.Entries {
		delete(told, e.ID)
	}
	if len(told) != 0 {
		t.Fatalf("%d debits told applied are missing after the kill", len(told))
	}
	t.Logf("%d debits reported applied, %d debits in the file on reopening", reported, n-1)
}

// TestCrashChild is the process TestKilledMidLoad kills: it debits from 8
// goroutines, printing each debit's id once Debit has returned, until it is
// killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(envCrashDB)
	if path == "" {
		t.Skip("run by TestKilledMidLoad")
	}
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	accountID, keyID := os.Getenv(envCrashAccount), os.Getenv(envCrashKey)
	var mu sync.Mutex
	deadline := time.Now().Add(time.Minute) // should the parent never kill it
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				d := debitOf(accountID, keyID)
				if _, err := s.Debit(context.Background(), d); err != nil {
					t.Errorf("Debit: %v", err)
					return
				}
				mu.Lock()
				fmt.Println(debitedPrefix + d.ID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
