package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/sqlite"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

var (
	t0  = time.Date(2026, 7, 20, 9, 30, 0, 0, time.UTC)
	seq atomic.Int64
)

// funded provisions an account with credits and one live key, and returns
// the account's id and the key's id.
func funded(t testing.TB, s *sqlite.Store, credits int64) (string, string) {
	t.Helper()
	ctx := context.Background()
	n := seq.Add(1)
	a := account.Account{ID: fmt.Sprintf("acc_%d", n), Email: fmt.Sprintf("user%d@example.com", n), PasswordHash: "h", CreatedAt: t0}
	grant := ledger.Entry{ID: fmt.Sprintf("led_grant_%d", n), AccountID: a.ID, Kind: ledger.Grant, Amount: credits, Reason: "sign-up", CreatedAt: t0}
	if err := s.Provision(ctx, a, grant); err != nil {
		t.Fatalf("Provision: %v", err)
	}
	k := apikey.Key{ID: fmt.Sprintf("key_%d", n), AccountID: a.ID, Name: "default", Prefix: "qk_abcdefghi", Hash: fmt.Sprintf("digest_%d", n), CreatedAt: t0}
	if err := s.CreateKey(ctx, k, 10); err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	return a.ID, k.ID
}

// debitOf is a fresh debit of one credit.
func debitOf(accountID, keyID string) ledger.Entry {
	n := seq.Add(1)
	return ledger.Entry{ID: fmt.Sprintf("led_%d", n), AccountID: accountID, Kind: ledger.Debit, Amount: -1,
		Route: "GET /china/securities/{code}", KeyID: keyID, RequestID: fmt.Sprintf("req_%d", n), CreatedAt: t0}
}

// checkBalanced fails unless the ledger verifies and the account's balance
// is the sum of all its entries; it returns the number of entries.
func checkBalanced(t *testing.T, s *sqlite.Store, accountID string) int {
	t.Helper()
	ctx := context.Background()
	mismatches, err := s.Verify(ctx)
	if err != nil || len(mismatches) != 0 {
		t.Fatalf("Verify = %+v, %v", mismatches, err)
	}
	st, err := s.Statement(ctx, accountID, 1_000_000, 0)
	if err != nil {
		t.Fatalf("Statement: %v", err)
	}
	if len(st.Entries) != st.Total || ledger.Sum(st.Entries) != st.Balance {
		t.Fatalf("balance %d, sum %d of %d of %d entries", st.Balance, ledger.Sum(st.Entries), len(st.Entries), st.Total)
	}
	return st.Total
}

// TestBackupWhileDebiting backs up under concurrent debits, then restores
// the copy by opening it as the store: it holds a balanced ledger, some of
// the debits and not all, and it serves.
func TestBackupWhileDebiting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "platform.db"))
	accountID, keyID := funded(t, s, 1_000_000)

	stop := make(chan struct{})
	var applied atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.Debit(ctx, debitOf(accountID, keyID)); err != nil {
					t.Errorf("Debit: %v", err)
					return
				}
				applied.Add(1)
			}
		})
	}
	for applied.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	dst := filepath.Join(dir, "backup.db")
	backupErr := s.Backup(ctx, dst)
	time.Sleep(20 * time.Millisecond) // debits go on after the backup
	close(stop)
	wg.Wait()
	if backupErr != nil {
		t.Fatalf("Backup: %v", backupErr)
	}
	if err := s.Backup(ctx, dst); !errors.Is(err, ports.ErrConflict) {
		t.Fatalf("Backup over an existing file: %v, want ports.ErrConflict", err)
	}

	live := checkBalanced(t, s, accountID)
	restored := open(t, dst)
	copied := checkBalanced(t, restored, accountID)
	if copied < 200 || copied >= live {
		t.Fatalf("the copy holds %d entries, the store %d after the backup; want at least 200 and fewer than the store", copied, live)
	}
	t.Logf("the copy holds %d entries, the store %d once the debits stopped", copied, live)
	before, err := restored.Balance(ctx, accountID)
	if err != nil {
		t.Fatalf("Balance of the restored store: %v", err)
	}
	if bal, err := restored.Debit(ctx, debitOf(accountID, keyID)); err != nil || bal != before-1 {
		t.Fatalf("Debit on the restored store = %d, %v; want %d", bal, err, before-1)
	}
	checkBalanced(t, restored, accountID)
}

// TestReopen closes the store and opens its file again: what was
// committed is there, and the file is migrated once.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "platform.db")
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	accountID, keyID := funded(t, s, 10)
	if _, err := s.Debit(ctx, debitOf(accountID, keyID)); err != nil {
		t.Fatalf("Debit: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close again: %v", err)
	}
	again := open(t, path)
	if bal, err := again.Balance(ctx, accountID); err != nil || bal != 9 {
		t.Fatalf("Balance after reopening = %d, %v; want 9", bal, err)
	}
	if n := checkBalanced(t, again, accountID); n != 2 {
		t.Fatalf("%d entries after reopening, want 2", n)
	}
}
