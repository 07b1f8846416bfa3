package porttest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// debit is a debit of the account made with its key (see funded).
func debit(accountID string, amount int64) ledger.Entry {
	return ledger.Entry{
		ID: id("led"), AccountID: accountID, Kind: ledger.Debit, Amount: -amount,
		Route: "GET /china/securities/{code}", KeyID: keyOf(accountID), RequestID: id("req"), CreatedAt: t0,
	}
}

// keyOf is the id of the key funded gives an account.
func keyOf(accountID string) string { return "key_of_" + accountID }

// funded provisions an account with credits and one live API key, whose id
// is keyOf the account's: a debit needs a live key of its account.
func funded(t *testing.T, p Platform, credits int64) account.Account {
	t.Helper()
	a := provision(t, p, credits)
	k := newKey(a.ID, t0)
	k.ID = keyOf(a.ID)
	if err := p.Keys.CreateKey(context.Background(), k, 10); err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	return a
}

// RunLedger is the contract of Ledger, including the bank test: concurrent
// debits never overdraw and the balance always equals the sum of entries.
func RunLedger(t *testing.T, newPlatform NewPlatform) {
	ctx := context.Background()
	t.Run("debit, refund, entries newest first", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 10)
		d := debit(a.ID, 3)
		d.CreatedAt = t0.Add(time.Second)
		bal, err := p.Ledger.Debit(ctx, d)
		must(t, "Debit", err)
		if bal != 7 {
			t.Fatalf("balance after debit = %d, want 7", bal)
		}
		r := ledger.NewRefund(d, id("led"), t0.Add(2*time.Second))
		bal, err = p.Ledger.Refund(ctx, r)
		must(t, "Refund", err)
		if bal != 10 {
			t.Fatalf("balance after refund = %d, want 10", bal)
		}
		r2 := ledger.NewRefund(d, id("led"), t0.Add(3*time.Second))
		_, err = p.Ledger.Refund(ctx, r2)
		wantErr(t, "second Refund", err, ports.ErrConflict)
		_, err = p.Ledger.Refund(ctx, ledger.NewRefund(debit(a.ID, 1), id("led"), t0))
		wantErr(t, "Refund of unknown debit", err, ports.ErrNotFound)

		st, err := p.Ledger.Statement(ctx, a.ID, 10, 0)
		must(t, "Statement", err)
		entries := st.Entries
		if st.Total != 3 || len(entries) != 3 || st.Balance != 10 {
			t.Fatalf("Statement = %d of %d entries, balance %d; want 3 of 3, 10", len(entries), st.Total, st.Balance)
		}
		kinds := []ledger.Kind{entries[0].Kind, entries[1].Kind, entries[2].Kind}
		if kinds[0] != ledger.Refund || kinds[1] != ledger.Debit || kinds[2] != ledger.Grant {
			t.Fatalf("kinds newest first = %v", kinds)
		}
		got := entries[1]
		if got.ID != d.ID || got.Amount != -3 || got.Route != d.Route || got.KeyID != d.KeyID ||
			got.RequestID != d.RequestID || !got.CreatedAt.Equal(d.CreatedAt) {
			t.Fatalf("debit read back as %+v, want %+v", got, d)
		}
		if entries[0].RefundOf != d.ID || entries[0].Amount != 3 {
			t.Fatalf("refund read back as %+v", entries[0])
		}
		if ledger.Sum(entries) != 10 {
			t.Fatalf("sum of entries = %d, want 10", ledger.Sum(entries))
		}
		page, err := p.Ledger.Statement(ctx, a.ID, 1, 1)
		must(t, "Statement page", err)
		if page.Total != 3 || len(page.Entries) != 1 || page.Entries[0].ID != d.ID {
			t.Fatalf("page 2 of size 1 = %+v", page)
		}
		_, err = p.Ledger.Statement(ctx, "acc_missing", 10, 0)
		wantErr(t, "Statement of unknown account", err, ports.ErrNotFound)
	})
	t.Run("malformed, duplicate and mismatched entries are refused", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 10)
		positive := debit(a.ID, 1)
		positive.Amount = 1
		_, err := p.Ledger.Debit(ctx, positive)
		wantErr(t, "Debit with a positive amount", err, ledger.ErrInvalidEntry)
		d := debit(a.ID, 2)
		_, err = p.Ledger.Debit(ctx, d)
		must(t, "Debit", err)
		other := debit(a.ID, 1)
		other.ID = d.ID
		_, err = p.Ledger.Debit(ctx, other)
		wantErr(t, "another Debit under a taken entry id", err, ports.ErrConflict)
		wrong := ledger.NewRefund(d, id("led"), t0)
		wrong.Amount = 1
		_, err = p.Ledger.Refund(ctx, wrong)
		wantErr(t, "Refund of another amount", err, ports.ErrNotFound)
		bal, err := p.Ledger.Balance(ctx, a.ID)
		must(t, "Balance", err)
		if bal != 8 {
			t.Fatalf("balance = %d, want 8", bal)
		}
	})
	t.Run("an entry written again is already applied", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 5)
		d := debit(a.ID, 5)
		_, err := p.Ledger.Debit(ctx, d)
		must(t, "Debit", err)
		// The balance no longer covers it, yet the same debit is applied.
		bal, err := p.Ledger.Debit(ctx, d)
		must(t, "Debit written again", err)
		if bal != 0 {
			t.Fatalf("balance after the debit written again = %d, want 0", bal)
		}
		r := ledger.NewRefund(d, id("led"), t0)
		_, err = p.Ledger.Refund(ctx, r)
		must(t, "Refund", err)
		bal, err = p.Ledger.Refund(ctx, r)
		must(t, "Refund written again", err)
		if bal != 5 {
			t.Fatalf("balance after the refund written again = %d, want 5", bal)
		}
		g := ledger.Entry{ID: id("led"), AccountID: a.ID, Kind: ledger.Grant, Amount: 7, Reason: "support ticket 42", CreatedAt: t0}
		_, err = p.Ledger.Grant(ctx, g)
		must(t, "Grant", err)
		bal, err = p.Ledger.Grant(ctx, g)
		must(t, "Grant written again", err)
		if bal != 12 {
			t.Fatalf("balance after the grant written again = %d, want 12", bal)
		}
		changed := g
		changed.Reason = "another reason"
		_, err = p.Ledger.Grant(ctx, changed)
		wantErr(t, "another Grant under a taken id", err, ports.ErrConflict)
		missing := g
		missing.ID, missing.AccountID = id("led"), "acc_missing"
		_, err = p.Ledger.Grant(ctx, missing)
		wantErr(t, "Grant to an unknown account", err, ports.ErrNotFound)
		st, err := p.Ledger.Statement(ctx, a.ID, 10, 0)
		must(t, "Statement", err)
		if st.Total != 4 || st.Balance != 12 || ledger.Sum(st.Entries) != 12 {
			t.Fatalf("Statement = %d entries, balance %d; want 4 entries, 12", st.Total, st.Balance)
		}
		if st.Entries[0].Reason != g.Reason && st.Entries[1].Reason != g.Reason {
			t.Fatalf("grant reason not read back: %+v", st.Entries)
		}
	})
	t.Run("settle tells a held entry from one never written", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 5)
		d := debit(a.ID, 2)
		held, err := p.Ledger.Settle(ctx, d)
		must(t, "Settle before the debit", err)
		if held {
			t.Fatal("Settle before the debit = held")
		}
		_, err = p.Ledger.Debit(ctx, d)
		must(t, "Debit", err)
		held, err = p.Ledger.Settle(ctx, d)
		must(t, "Settle after the debit", err)
		if !held {
			t.Fatal("Settle after the debit = not held")
		}
		r := ledger.NewRefund(d, id("led"), t0)
		_, err = p.Ledger.Refund(ctx, r)
		must(t, "Refund", err)
		if held, err = p.Ledger.Settle(ctx, r); err != nil || !held {
			t.Fatalf("Settle of the refund = %v, %v; want held", held, err)
		}
		other := d
		other.Amount = -3
		_, err = p.Ledger.Settle(ctx, other)
		wantErr(t, "Settle of another entry under a held id", err, ports.ErrConflict)
		bal, err := p.Ledger.Balance(ctx, a.ID)
		must(t, "Balance", err)
		if bal != 5 {
			t.Fatalf("balance after settling = %d, want 5: Settle must write nothing", bal)
		}
	})
	t.Run("overdraft is refused and writes nothing", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 2)
		_, err := p.Ledger.Debit(ctx, debit(a.ID, 3))
		wantErr(t, "Debit over balance", err, ports.ErrInsufficientCredits)
		bal, err := p.Ledger.Balance(ctx, a.ID)
		must(t, "Balance", err)
		st, err := p.Ledger.Statement(ctx, a.ID, 10, 0)
		must(t, "Statement", err)
		if bal != 2 || st.Total != 1 {
			t.Fatalf("after refused debit: balance %d, entries %d; want 2 and 1", bal, st.Total)
		}
		_, err = p.Ledger.Debit(ctx, debit("acc_missing", 1))
		wantErr(t, "Debit unknown account", err, ports.ErrNotFound)
	})
	t.Run("bank: 200 concurrent debits against 50 credits", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 50)
		got := concurrently(t, 200, func() error {
			_, err := p.Ledger.Debit(ctx, debit(a.ID, 1))
			return err
		}, ports.ErrInsufficientCredits)
		ok, refused := got[nil], got[ports.ErrInsufficientCredits]
		bal, err := p.Ledger.Balance(ctx, a.ID)
		must(t, "Balance", err)
		if ok != 50 || refused != 150 || bal != 0 {
			t.Fatalf("ok %d, refused %d, balance %d; want 50, 150, 0", ok, refused, bal)
		}
		mismatches, err := p.Ledger.Verify(ctx)
		must(t, "Verify", err)
		if len(mismatches) != 0 {
			t.Fatalf("Verify = %+v", mismatches)
		}
	})
	t.Run("statements read during debits always balance", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 1000)
		concurrently(t, 120, func() error {
			if n := seq.Add(1); n%3 == 0 {
				st, err := p.Ledger.Statement(ctx, a.ID, 500, 0)
				if err == nil && (ledger.Sum(st.Entries) != st.Balance || len(st.Entries) != st.Total) {
					return fmt.Errorf("statement out of step: balance %d, sum %d, %d of %d entries",
						st.Balance, ledger.Sum(st.Entries), len(st.Entries), st.Total)
				}
				return err
			}
			_, err := p.Ledger.Debit(ctx, debit(a.ID, 1))
			return err
		})
	})
	t.Run("cancelled callers are told the truth", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 1000)
		told := debitConcurrently(t, p, a.ID, 300, func(i int) (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, time.Duration(i%7)*300*time.Microsecond)
		}, nil)
		checkTold(t, p, a.ID, 1000, told)
	})
	t.Run("debits while the store is closed are applied", func(t *testing.T) {
		if p := newPlatform(t); p.Close == nil {
			t.Skip("the store runs nothing in the background")
		}
		p := newPlatform(t)
		a := funded(t, p, 1000)
		told := debitConcurrently(t, p, a.ID, 400, nil, func(i int) {
			if i == 200 {
				p.Close()
			}
		})
		if n := checkTold(t, p, a.ID, 1000, told); n != 400 {
			t.Fatalf("%d of 400 debits applied around Close, want all", n)
		}
	})
	t.Run("debits under faults are charged exactly when told", func(t *testing.T) {
		runs := 20
		if newPlatform(t).Disrupt == nil {
			runs = 1 // nothing to break: the case still checks the answers
		}
		var debits, applied, breaks int
		for range runs {
			p := newPlatform(t)
			a := funded(t, p, 100_000)
			told := debitConcurrently(t, p, a.ID, 500, nil, func(i int) {
				if p.Disrupt != nil && i%20 == 10 {
					breaks += p.Disrupt(t)
				}
			})
			debits += len(told)
			applied += checkTold(t, p, a.ID, 100_000, told)
		}
		t.Logf("%d runs: %d debits, %d applied, %d sessions broken, 0 told wrong", runs, debits, applied, breaks)
	})
	t.Run("a debit needs a live key of its account", func(t *testing.T) {
		p := newPlatform(t)
		a, b := funded(t, p, 10), funded(t, p, 10)
		d := debit(a.ID, 2)
		_, err := p.Ledger.Debit(ctx, d)
		must(t, "Debit", err)
		other := debit(a.ID, 1)
		other.KeyID = keyOf(b.ID)
		_, err = p.Ledger.Debit(ctx, other)
		wantErr(t, "Debit with another account's key", err, ports.ErrKeyRevoked)
		unknown := debit(a.ID, 1)
		unknown.KeyID = "key_unknown"
		_, err = p.Ledger.Debit(ctx, unknown)
		wantErr(t, "Debit with an unknown key", err, ports.ErrKeyRevoked)
		_, err = p.Keys.RevokeKey(ctx, a.ID, keyOf(a.ID), apikey.Standing, t0)
		must(t, "RevokeKey", err)
		_, err = p.Ledger.Debit(ctx, debit(a.ID, 1))
		wantErr(t, "Debit with a revoked key", err, ports.ErrKeyRevoked)
		// A debit applied before the revocation, written again after it,
		// is still the truth: already applied.
		bal, err := p.Ledger.Debit(ctx, d)
		must(t, "Debit applied before the revocation, written again", err)
		st, err := p.Ledger.Statement(ctx, a.ID, 10, 0)
		must(t, "Statement", err)
		if bal != 8 || st.Balance != 8 || st.Total != 2 {
			t.Fatalf("balance %d (told %d), %d entries; want 8 and 2", st.Balance, bal, st.Total)
		}
		// Refunds are not debits: a revoked key's charge is still refunded.
		bal, err = p.Ledger.Refund(ctx, ledger.NewRefund(d, id("led"), t0))
		must(t, "Refund after the revocation", err)
		if bal != 10 {
			t.Fatalf("balance after refund = %d, want 10", bal)
		}
	})
	t.Run("debits written again among new ones are already applied", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 10)
		var applied []ledger.Entry
		for range 10 {
			d := debit(a.ID, 1)
			_, err := p.Ledger.Debit(ctx, d)
			must(t, "Debit", err)
			applied = append(applied, d)
		}
		// Concurrently, so that a store that groups debits sees the ones
		// written again beside new ones it must refuse: first for want of
		// credits, then for want of a live key.
		for _, refusal := range []error{ports.ErrInsufficientCredits, ports.ErrKeyRevoked} {
			if refusal == ports.ErrKeyRevoked {
				_, err := p.Ledger.Grant(ctx, ledger.Entry{ID: id("led"), AccountID: a.ID, Kind: ledger.Grant, Amount: 100, Reason: "test", CreatedAt: t0})
				must(t, "Grant", err)
				_, err = p.Keys.RevokeKey(ctx, a.ID, keyOf(a.ID), apikey.Standing, t0)
				must(t, "RevokeKey", err)
			}
			var mu sync.Mutex
			told := map[string]error{}
			var wg sync.WaitGroup
			for i := range 20 {
				d := debit(a.ID, 1)
				if i%2 == 0 {
					d = applied[i/2]
				}
				wg.Go(func() {
					_, err := p.Ledger.Debit(ctx, d)
					mu.Lock()
					defer mu.Unlock()
					told[d.ID] = err
				})
			}
			wg.Wait()
			for _, d := range applied {
				if err := told[d.ID]; err != nil {
					t.Fatalf("applied debit written again beside refused ones: %v, want already applied", err)
				}
				delete(told, d.ID)
			}
			for entryID, err := range told {
				if !errors.Is(err, refusal) {
					t.Fatalf("new debit %s: %v, want %v", entryID, err, refusal)
				}
			}
		}
		st, err := p.Ledger.Statement(ctx, a.ID, 50, 0)
		must(t, "Statement", err)
		if st.Balance != 100 || st.Total != 12 {
			t.Fatalf("balance %d, %d entries; want 100 and 12", st.Balance, st.Total)
		}
	})
	t.Run("no debit is applied once its key's revocation returned", func(t *testing.T) {
		for range 5 {
			p := newPlatform(t)
			a := funded(t, p, 100_000)
			var revoked atomic.Bool // set once RevokeKey has returned
			var mu sync.Mutex
			after := map[error]int{}
			var wg sync.WaitGroup
			for range 16 {
				wg.Go(func() {
					for i := 0; i < 400; i++ {
						started := revoked.Load()
						_, err := p.Ledger.Debit(ctx, debit(a.ID, 1))
						if err != nil && !errors.Is(err, ports.ErrKeyRevoked) {
							t.Errorf("Debit: %v", err)
							return
						}
						if started {
							mu.Lock()
							after[err]++
							mu.Unlock()
						}
						if errors.Is(err, ports.ErrKeyRevoked) && i > 20 {
							return
						}
					}
				})
			}
			time.Sleep(20 * time.Millisecond)
			_, err := p.Keys.RevokeKey(ctx, a.ID, keyOf(a.ID), apikey.Standing, t0)
			must(t, "RevokeKey", err)
			revoked.Store(true)
			wg.Wait()
			if after[nil] != 0 {
				t.Fatalf("%d debits started after the revocation returned were applied (%d refused)", after[nil], after[ports.ErrKeyRevoked])
			}
			st, err := p.Ledger.Statement(ctx, a.ID, 1, 0)
			must(t, "Statement", err)
			mismatches, err := p.Ledger.Verify(ctx)
			must(t, "Verify", err)
			if len(mismatches) != 0 || st.Balance < 0 {
				t.Fatalf("Verify = %+v, balance %d", mismatches, st.Balance)
			}
		}
	})
	t.Run("concurrent refunds of one debit apply once", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 5)
		d := debit(a.ID, 5)
		_, err := p.Ledger.Debit(ctx, d)
		must(t, "Debit", err)
		concurrently(t, 10, func() error {
			_, err := p.Ledger.Refund(ctx, ledger.NewRefund(d, id("led"), t0))
			return err
		}, ports.ErrConflict)
		bal, err := p.Ledger.Balance(ctx, a.ID)
		must(t, "Balance", err)
		if bal != 5 {
			t.Fatalf("balance after racing refunds = %d, want 5", bal)
		}
	})
}

// debitConcurrently sends n debits of 1 at once, each on the context newCtx
// gives it (ctx when nil), calling between(i) as the i-th is started, and
// returns what each debit's caller was told, by entry id.
func debitConcurrently(t *testing.T, p Platform, accountID string, n int,
	newCtx func(i int) (context.Context, context.CancelFunc), between func(i int)) map[string]error {
	t.Helper()
	told := make(map[string]error, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range n {
		d := debit(accountID, 1)
		wg.Go(func() {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if newCtx != nil {
				ctx, cancel = newCtx(i)
			}
			defer cancel()
			_, err := p.Ledger.Debit(ctx, d)
			mu.Lock()
			defer mu.Unlock()
			told[d.ID] = err
		})
		if between != nil {
			between(i)
		}
	}
	wg.Wait()
	return told
}

// checkTold holds the ledger to what its callers were told: every debit told
// success is kept exactly once, every one told failure is not kept, and the
// balance is the opening credits less what was kept. It returns how many
// were applied.
func checkTold(t *testing.T, p Platform, accountID string, opening int64, told map[string]error) int {
	t.Helper()
	st, err := p.Ledger.Statement(context.Background(), accountID, len(told)+10, 0)
	must(t, "Statement", err)
	kept := map[string]int{}
	for _, e := range st.Entries {
		kept[e.ID]++
	}
	applied, wrong := 0, 0
	var firstWrong string
	for entryID, err := range told {
		switch {
		case errors.Is(err, ports.ErrOutcomeUnknown):
			wrong++
			firstWrong = cmp.Or(firstWrong, fmt.Sprintf("%s: %v", entryID, err))
		case err == nil && kept[entryID] == 1:
			applied++
		case err != nil && kept[entryID] == 0:
		default:
			wrong++
			firstWrong = cmp.Or(firstWrong, fmt.Sprintf("%s told %v, kept %d times", entryID, err, kept[entryID]))
		}
	}
	if wrong > 0 {
		t.Fatalf("%d of %d debits told wrong; the first: %s", wrong, len(told), firstWrong)
	}
	if want := opening - int64(applied); st.Balance != want || ledger.Sum(st.Entries) != want {
		t.Fatalf("balance %d, sum %d; want %d after %d debits", st.Balance, ledger.Sum(st.Entries), want, applied)
	}
	mismatches, err := p.Ledger.Verify(context.Background())
	must(t, "Verify", err)
	if len(mismatches) != 0 {
		t.Fatalf("Verify = %+v", mismatches)
	}
	return applied
}
