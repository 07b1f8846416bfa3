package porttest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// newBrowserCredential is a credential of the account minted at at, living
// ten minutes.
func newBrowserCredential(accountID string, at time.Time) apikey.Key {
	k := newKey(accountID, at)
	k.ID, k.Name, k.Scopes = id("bcr"), "browser", []string{"us:read"}
	expires := at.Add(10 * time.Minute)
	k.ExpiresAt = &expires
	return k
}

// RunBrowserCredentials is the contract of KeyStore and Ledger for browser
// credentials: keys that expire, kept apart from standing keys, listed,
// revoked and refused by the debit once expired or revoked.
func RunBrowserCredentials(t *testing.T, newPlatform NewPlatform) {
	ctx := context.Background()
	t.Run("stored with their expiry and listed apart from keys", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		k, early := newKey(a.ID, t0), newBrowserCredential(a.ID, t0)
		late := newBrowserCredential(a.ID, t0.Add(20*time.Minute))
		for _, c := range []apikey.Key{k, early, late} {
			must(t, "CreateKey", p.Keys.CreateKey(ctx, c, 10))
		}
		got, err := p.Keys.KeyByHash(ctx, early.Hash)
		must(t, "KeyByHash", err)
		if got.ExpiresAt == nil || !got.ExpiresAt.Equal(*early.ExpiresAt) || got.Kind() != apikey.Browser || !slices.Equal(got.Scopes, early.Scopes) {
			t.Fatalf("KeyByHash = %+v, want %+v", got, early)
		}
		keys, err := p.Keys.KeysByAccount(ctx, a.ID, ports.KeyFilter{Kind: apikey.Standing})
		must(t, "KeysByAccount keys", err)
		if len(keys) != 1 || keys[0].ID != k.ID || keys[0].ExpiresAt != nil {
			t.Fatalf("keys = %+v, want only the standing key", keys)
		}
		all, err := p.Keys.KeysByAccount(ctx, a.ID, ports.KeyFilter{Kind: apikey.Browser})
		must(t, "KeysByAccount browser", err)
		if len(all) != 2 || all[0].ID != early.ID || all[1].ID != late.ID {
			t.Fatalf("browser credentials = %+v, want both, oldest first", all)
		}
		live, err := p.Keys.KeysByAccount(ctx, a.ID, ports.KeyFilter{Kind: apikey.Browser, LiveAt: *early.ExpiresAt})
		must(t, "KeysByAccount live browser", err)
		if len(live) != 1 || live[0].ID != late.ID {
			t.Fatalf("browser credentials live at the first's expiry = %+v, want the second", live)
		}
	})
	t.Run("revoked only as their own kind", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		k, c := newKey(a.ID, t0), newBrowserCredential(a.ID, t0)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k, 10))
		must(t, "CreateKey", p.Keys.CreateKey(ctx, c, 10))
		_, err := p.Keys.RevokeKey(ctx, a.ID, c.ID, apikey.Standing, t0)
		wantErr(t, "RevokeKey of a credential as a key", err, ports.ErrNotFound)
		_, err = p.Keys.RevokeKey(ctx, a.ID, k.ID, apikey.Browser, t0)
		wantErr(t, "RevokeKey of a key as a credential", err, ports.ErrNotFound)
		got, err := p.Keys.RevokeKey(ctx, a.ID, c.ID, apikey.Browser, t0.Add(time.Minute))
		must(t, "RevokeKey", err)
		if got.RevokedAt == nil || got.ExpiresAt == nil {
			t.Fatalf("revoked credential = %+v", got)
		}
	})
	t.Run("each kind has its own limit of live ones", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, newKey(a.ID, t0), 1))
		must(t, "CreateKey browser", p.Keys.CreateKey(ctx, newBrowserCredential(a.ID, t0), 1))
		wantErr(t, "a second key", p.Keys.CreateKey(ctx, newKey(a.ID, t0), 1), ports.ErrLimitReached)
		wantErr(t, "a second live credential", p.Keys.CreateKey(ctx, newBrowserCredential(a.ID, t0.Add(time.Minute)), 1), ports.ErrLimitReached)
		// Once the first has expired, it no longer counts.
		must(t, "CreateKey after the first expired", p.Keys.CreateKey(ctx, newBrowserCredential(a.ID, t0.Add(10*time.Minute)), 1))
	})
	t.Run("a debit needs a credential that has not expired", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 10)
		c := newBrowserCredential(a.ID, t0)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, c, 10))
		d := debit(a.ID, 1)
		d.KeyID, d.CreatedAt = c.ID, c.ExpiresAt.Add(-time.Microsecond)
		bal, err := p.Ledger.Debit(ctx, d)
		must(t, "Debit before expiry", err)
		if bal != 9 {
			t.Fatalf("balance = %d, want 9", bal)
		}
		late := debit(a.ID, 1)
		late.KeyID, late.CreatedAt = c.ID, *c.ExpiresAt
		_, err = p.Ledger.Debit(ctx, late)
		wantErr(t, "Debit at expiry", err, ports.ErrKeyRevoked)
		_, err = p.Keys.RevokeKey(ctx, a.ID, c.ID, apikey.Browser, t0)
		must(t, "RevokeKey", err)
		revoked := debit(a.ID, 1)
		revoked.KeyID, revoked.CreatedAt = c.ID, t0.Add(time.Minute)
		_, err = p.Ledger.Debit(ctx, revoked)
		wantErr(t, "Debit after revocation", err, ports.ErrKeyRevoked)
		// Concurrent debits go through the batched path where there is one.
		c2 := newBrowserCredential(a.ID, t0)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, c2, 10))
		got := concurrently(t, 8, func() error {
			e := debit(a.ID, 1)
			e.KeyID, e.CreatedAt = c2.ID, *c2.ExpiresAt
			_, err := p.Ledger.Debit(ctx, e)
			return err
		}, ports.ErrKeyRevoked)
		if got[ports.ErrKeyRevoked] != 8 {
			t.Fatalf("expired debits: %v, want all 8 refused", got)
		}
		if bal, err := p.Ledger.Balance(ctx, a.ID); err != nil || bal != 9 {
			t.Fatalf("balance = %d, %v; want 9", bal, err)
		}
	})
	t.Run("usage sums debits less refunds per day and route", func(t *testing.T) {
		p := newPlatform(t)
		a := funded(t, p, 1000)
		day1, day2 := ledger.Day(t0), ledger.Day(t0).AddDate(0, 0, 1)
		write := func(route string, amount int64, at time.Time) ledger.Entry {
			e := debit(a.ID, amount)
			e.Route, e.CreatedAt = route, at
			_, err := p.Ledger.Debit(ctx, e)
			must(t, "Debit", err)
			return e
		}
		write("GET /a", 1, day1.Add(time.Hour))
		write("GET /a", 1, day1.Add(2*time.Hour))
		write("POST /b", 10, day1.Add(3*time.Hour))
		refunded := write("POST /b", 10, day2.Add(time.Hour))
		_, err := p.Ledger.Refund(ctx, ledger.NewRefund(refunded, id("led"), day2.Add(2*time.Hour)))
		must(t, "Refund", err)
		write("GET /a", 25, day2.Add(3*time.Hour))
		write("GET /a", 7, day1.Add(-time.Hour)) // the day before: not asked for
		got, err := p.Ledger.Usage(ctx, a.ID, day1)
		must(t, "Usage", err)
		want := []ledger.Usage{
			{Day: day1, Route: "GET /a", Credits: 2},
			{Day: day1, Route: "POST /b", Credits: 10},
			{Day: day2, Route: "GET /a", Credits: 25},
		}
		if len(got) != len(want) {
			t.Fatalf("Usage = %+v, want %+v", got, want)
		}
		for i := range want {
			if !got[i].Day.Equal(want[i].Day) || got[i].Route != want[i].Route || got[i].Credits != want[i].Credits {
				t.Fatalf("Usage = %+v, want %+v", got, want)
			}
		}
		none, err := p.Ledger.Usage(ctx, "acc_unknown", day1)
		must(t, "Usage of an unknown account", err)
		if len(none) != 0 {
			t.Fatalf("an unknown account used %+v", none)
		}
	})
}
