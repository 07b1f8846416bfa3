package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// RunAccounts is the contract of AccountStore and SessionStore.
func RunAccounts(t *testing.T, newPlatform NewPlatform) {
	ctx := context.Background()
	t.Run("expired sessions are swept", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		live := account.Session{TokenHash: id("tok"), AccountID: a.ID, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
		dead := account.Session{TokenHash: id("tok"), AccountID: a.ID, CreatedAt: t0, ExpiresAt: t0}
		must(t, "CreateSession", p.Sessions.CreateSession(ctx, live))
		must(t, "CreateSession", p.Sessions.CreateSession(ctx, dead))
		n, err := p.Sessions.DeleteExpiredSessions(ctx, t0)
		must(t, "DeleteExpiredSessions", err)
		if n < 1 {
			t.Fatalf("DeleteExpiredSessions removed %d, want the expired one", n)
		}
		_, err = p.Sessions.SessionByHash(ctx, dead.TokenHash)
		wantErr(t, "expired session", err, ports.ErrNotFound)
		_, err = p.Sessions.SessionByHash(ctx, live.TokenHash)
		must(t, "live session", err)
	})
	t.Run("provision then read back", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 100000)
		got, err := p.Accounts.AccountByEmail(ctx, a.Email)
		must(t, "AccountByEmail", err)
		if got.ID != a.ID || got.PasswordHash != a.PasswordHash || !got.CreatedAt.Equal(a.CreatedAt) {
			t.Fatalf("AccountByEmail = %+v, want %+v", got, a)
		}
		byID, err := p.Accounts.AccountByID(ctx, a.ID)
		must(t, "AccountByID", err)
		if byID.Email != a.Email {
			t.Fatalf("AccountByID email = %q", byID.Email)
		}
		bal, err := p.Ledger.Balance(ctx, a.ID)
		must(t, "Balance", err)
		if bal != 100000 {
			t.Fatalf("balance after provision = %d, want 100000", bal)
		}
	})
	t.Run("unknown account is not found", func(t *testing.T) {
		p := newPlatform(t)
		_, err := p.Accounts.AccountByEmail(ctx, "nobody@example.com")
		wantErr(t, "AccountByEmail", err, ports.ErrNotFound)
		_, err = p.Accounts.AccountByID(ctx, "acc_missing")
		wantErr(t, "AccountByID", err, ports.ErrNotFound)
		_, err = p.Ledger.Balance(ctx, "acc_missing")
		wantErr(t, "Balance", err, ports.ErrNotFound)
	})
	t.Run("concurrent provisioning of one email creates one account", func(t *testing.T) {
		p := newPlatform(t)
		email := id("race") + "@example.com"
		got := concurrently(t, 20, func() error {
			a := account.Account{ID: id("acc"), Email: email, PasswordHash: "h", CreatedAt: t0}
			return p.Accounts.Provision(ctx, a, ledger.Entry{ID: id("led"), AccountID: a.ID, Kind: ledger.Grant, Amount: 10, CreatedAt: t0})
		}, ports.ErrConflict)
		if got[nil] != 1 || got[ports.ErrConflict] != 19 {
			t.Fatalf("created %d, conflicts %d; want 1 and 19", got[nil], got[ports.ErrConflict])
		}
		mismatches, err := p.Ledger.Verify(ctx)
		must(t, "Verify", err)
		if len(mismatches) != 0 {
			t.Fatalf("Verify after race = %+v", mismatches)
		}
	})
	t.Run("sessions", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		s := account.Session{TokenHash: id("hash"), AccountID: a.ID, CreatedAt: t0, ExpiresAt: t0.Add(8 * time.Hour)}
		must(t, "CreateSession", p.Sessions.CreateSession(ctx, s))
		wantErr(t, "CreateSession twice", p.Sessions.CreateSession(ctx, s), ports.ErrConflict)
		got, err := p.Sessions.SessionByHash(ctx, s.TokenHash)
		must(t, "SessionByHash", err)
		if got.AccountID != a.ID || !got.ExpiresAt.Equal(s.ExpiresAt) || !got.CreatedAt.Equal(s.CreatedAt) {
			t.Fatalf("SessionByHash = %+v, want %+v", got, s)
		}
		_, err = p.Sessions.SessionByHash(ctx, "unknown")
		wantErr(t, "SessionByHash unknown", err, ports.ErrNotFound)
	})
	t.Run("a session is deleted at sign-out", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		s := account.Session{TokenHash: id("hash"), AccountID: a.ID, CreatedAt: t0, ExpiresAt: t0.Add(8 * time.Hour)}
		must(t, "CreateSession", p.Sessions.CreateSession(ctx, s))
		must(t, "DeleteSession", p.Sessions.DeleteSession(ctx, s.TokenHash))
		_, err := p.Sessions.SessionByHash(ctx, s.TokenHash)
		wantErr(t, "SessionByHash after DeleteSession", err, ports.ErrNotFound)
		must(t, "DeleteSession again", p.Sessions.DeleteSession(ctx, s.TokenHash))
	})
}
