package porttest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/ports"
)

func newKey(accountID string, at time.Time) apikey.Key {
	return apikey.Key{
		ID: id("key"), AccountID: accountID, Name: "default", Prefix: "qk_abcdefghi",
		Hash: id("digest"), Scopes: []string{"us:read", "china:read"}, CreatedAt: at,
	}
}

// RunKeys is the contract of KeyStore.
func RunKeys(t *testing.T, newPlatform NewPlatform) {
	ctx := context.Background()
	t.Run("create, list oldest first, find by hash", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		k1, k2 := newKey(a.ID, t0), newKey(a.ID, t0.Add(time.Second))
		k2.Name = "ci"
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k2, 10))
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k1, 10))
		wantErr(t, "CreateKey duplicate", p.Keys.CreateKey(ctx, k1, 10), ports.ErrConflict)
		keys, err := p.Keys.KeysByAccount(ctx, a.ID, ports.KeyFilter{Kind: apikey.Standing})
		must(t, "KeysByAccount", err)
		if len(keys) != 2 || keys[0].ID != k1.ID || keys[1].ID != k2.ID || keys[1].Name != "ci" {
			t.Fatalf("KeysByAccount = %+v", keys)
		}
		got, err := p.Keys.KeyByHash(ctx, k1.Hash)
		must(t, "KeyByHash", err)
		if got.ID != k1.ID || got.AccountID != a.ID || !slices.Equal(got.Scopes, k1.Scopes) ||
			got.Prefix != k1.Prefix || got.LastUsedAt != nil || got.RevokedAt != nil || !got.CreatedAt.Equal(t0) {
			t.Fatalf("KeyByHash = %+v, want %+v", got, k1)
		}
		_, err = p.Keys.KeyByHash(ctx, "nope")
		wantErr(t, "KeyByHash unknown", err, ports.ErrNotFound)
		other, err := p.Keys.KeysByAccount(ctx, "acc_other", ports.KeyFilter{Kind: apikey.Standing})
		must(t, "KeysByAccount other", err)
		if len(other) != 0 {
			t.Fatalf("another account sees %d keys", len(other))
		}
	})
	t.Run("revoke is scoped to the account and keeps the first time", func(t *testing.T) {
		p := newPlatform(t)
		a, b := provision(t, p, 1), provision(t, p, 1)
		k := newKey(a.ID, t0)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k, 10))
		_, err := p.Keys.RevokeKey(ctx, b.ID, k.ID, apikey.Standing, t0)
		wantErr(t, "RevokeKey by another account", err, ports.ErrNotFound)
		_, err = p.Keys.RevokeKey(ctx, a.ID, "key_unknown", apikey.Standing, t0)
		wantErr(t, "RevokeKey unknown", err, ports.ErrNotFound)
		at := t0.Add(time.Minute)
		got, err := p.Keys.RevokeKey(ctx, a.ID, k.ID, apikey.Standing, at)
		must(t, "RevokeKey", err)
		if got.RevokedAt == nil || !got.RevokedAt.Equal(at) {
			t.Fatalf("RevokedAt = %v, want %v", got.RevokedAt, at)
		}
		again, err := p.Keys.RevokeKey(ctx, a.ID, k.ID, apikey.Standing, at.Add(time.Hour))
		must(t, "RevokeKey again", err)
		if !again.RevokedAt.Equal(at) {
			t.Fatalf("second revoke moved RevokedAt to %v", again.RevokedAt)
		}
		byHash, err := p.Keys.KeyByHash(ctx, k.Hash)
		must(t, "KeyByHash", err)
		if byHash.RevokedAt == nil {
			t.Fatal("revocation not visible through KeyByHash")
		}
	})
	t.Run("keys and sessions need an existing account", func(t *testing.T) {
		p := newPlatform(t)
		wantErr(t, "CreateKey for unknown account", p.Keys.CreateKey(ctx, newKey("acc_missing", t0), 10), ports.ErrNotFound)
		s := account.Session{TokenHash: id("hash"), AccountID: "acc_missing", CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
		wantErr(t, "CreateSession for unknown account", p.Sessions.CreateSession(ctx, s), ports.ErrNotFound)
	})
	t.Run("touch records last use", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		k := newKey(a.ID, t0)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k, 10))
		used := t0.Add(2 * time.Hour)
		must(t, "TouchKey", p.Keys.TouchKey(ctx, k.ID, used))
		got, err := p.Keys.KeyByHash(ctx, k.Hash)
		must(t, "KeyByHash", err)
		if got.LastUsedAt == nil || !got.LastUsedAt.Equal(used) {
			t.Fatalf("LastUsedAt = %v, want %v", got.LastUsedAt, used)
		}
	})
	t.Run("live keys are capped at any concurrency", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		got := concurrently(t, 30, func() error {
			return p.Keys.CreateKey(ctx, newKey(a.ID, t0), 10)
		}, ports.ErrLimitReached)
		if got[nil] != 10 || got[ports.ErrLimitReached] != 20 {
			t.Fatalf("created %d, refused %d of 30; want 10 and 20", got[nil], got[ports.ErrLimitReached])
		}
		keys, err := p.Keys.KeysByAccount(ctx, a.ID, ports.KeyFilter{Kind: apikey.Standing})
		must(t, "KeysByAccount", err)
		_, err = p.Keys.RevokeKey(ctx, a.ID, keys[0].ID, apikey.Standing, t0)
		must(t, "RevokeKey", err)
		must(t, "CreateKey after a revocation", p.Keys.CreateKey(ctx, newKey(a.ID, t0), 10))
		wantErr(t, "CreateKey for an unknown account", p.Keys.CreateKey(ctx, newKey("acc_missing", t0), 10), ports.ErrNotFound)
	})
	t.Run("a scope is granted and revoked once", func(t *testing.T) {
		p := newPlatform(t)
		a := provision(t, p, 1)
		k := newKey(a.ID, t0)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k, 10))
		for range 2 {
			got, err := p.Keys.SetKeyScope(ctx, k.ID, "resale:read", true)
			must(t, "SetKeyScope grant", err)
			if !slices.Equal(got.Scopes, []string{"us:read", "china:read", "resale:read"}) {
				t.Fatalf("scopes after grant = %v", got.Scopes)
			}
		}
		got, err := p.Keys.KeyByHash(ctx, k.Hash)
		must(t, "KeyByHash", err)
		if !slices.Contains(got.Scopes, "resale:read") {
			t.Fatalf("granted scope not stored: %v", got.Scopes)
		}
		for range 2 {
			got, err = p.Keys.SetKeyScope(ctx, k.ID, "resale:read", false)
			must(t, "SetKeyScope revoke", err)
			if !slices.Equal(got.Scopes, k.Scopes) {
				t.Fatalf("scopes after revoke = %v", got.Scopes)
			}
		}
		_, err = p.Keys.SetKeyScope(ctx, "key_unknown", "resale:read", true)
		wantErr(t, "SetKeyScope unknown key", err, ports.ErrNotFound)
	})
}
