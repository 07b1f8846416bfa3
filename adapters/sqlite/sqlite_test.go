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

// TestContracts runs the account-side port contracts on a fresh database
// file per test.
func TestContracts(t *testing.T) {
	porttest.RunAll(t, porttest.Stores{Platform: func(t *testing.T) porttest.Platform {
		s := open(t, filepath.Join(t.TempDir(), "platform.db"))
		return porttest.Platform{
			Accounts: s, Sessions: s, Keys: s, Ledger: s, Watch: s, Buckets: s, Signins: s, Idempotency: s,
			Close: s.StopWriter,
		}
	}})
}
