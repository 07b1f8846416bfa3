package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/quarrydata/quarry/adapters/sqlite"
	"github.com/quarrydata/quarry/ports/porttest"
)

// open opens a Store on a fresh file, closed when the test ends.
func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func newPlatform(t *testing.T) porttest.Platform {
	s := open(t, filepath.Join(t.TempDir(), "platform.db"))
	return porttest.Platform{
		Accounts: s, Sessions: s, Keys: s, Ledger: s, Watch: s, Buckets: s, Signins: s, Idempotency: s,
		Close: s.StopWriter,
	}
}

func TestAccounts(t *testing.T)           { porttest.RunAccounts(t, newPlatform) }
func TestKeys(t *testing.T)               { porttest.RunKeys(t, newPlatform) }
func TestLedger(t *testing.T)             { porttest.RunLedger(t, newPlatform) }
func TestBrowserCredentials(t *testing.T) { porttest.RunBrowserCredentials(t, newPlatform) }
func TestKeyWatch(t *testing.T)           { porttest.RunKeyWatch(t, newPlatform) }
func TestRateBuckets(t *testing.T)        { porttest.RunRateBuckets(t, newPlatform) }
func TestIdempotency(t *testing.T)        { porttest.RunIdempotency(t, newPlatform) }
