package porttest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

func debit(accountID string, amount int64) ledger.Entry {
	return ledger.Entry{
		ID: id("led"), AccountID: accountID, Kind: ledger.Debit, Amount: -amount,
		Route: "GET /china/securities/:code", KeyID: "key_1", RequestID: id("req"), CreatedAt: t0,
	}
}

// RunLedger is the contract of Ledger, including the bank test: concurrent
// debits never overdraw and the balance always equals the sum of entries.
func RunLedger(t *testing.T, newPlatform NewPlatform) {
	ctx := context.Background()
	t.Run("debit, refund, entries newest first", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 10)
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
		a := provision(t, p, 10)
		positive := debit(a.ID, 1)
		positive.Amount = 1
		_, err := p.Ledger.Debit(ctx, positive)
		wantErr(t, "Debit with a positive amount", err, ledger.ErrInvalidEntry)
		d := debit(a.ID, 2)
		_, err = p.Ledger.Debit(ctx, d)
		must(t, "Debit", err)
		_, err = p.Ledger.Debit(ctx, d)
		wantErr(t, "Debit reusing an entry id", err, ports.ErrConflict)
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
	t.Run("overdraft is refused and writes nothing", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 2)
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
		a := provision(t, p, 50)
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
		a := provision(t, p, 1000)
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
	t.Run("concurrent refunds of one debit apply once", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 5)
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
