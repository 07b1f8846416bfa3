package platform_test

import (
	"context"
	"crypto/rand"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// lookups counts KeyByHash calls that reach the store, and can hold one
// in flight to stage a race.
type lookups struct {
	ports.KeyStore
	n     atomic.Int64
	hold  chan struct{} // when set, a lookup waits for it after reading
	reads chan struct{} // when set, told once a held lookup has read
}

func (l *lookups) KeyByHash(ctx context.Context, hash string) (apikey.Key, error) {
	l.n.Add(1)
	k, err := l.KeyStore.KeyByHash(ctx, hash)
	if l.hold != nil {
		l.reads <- struct{}{}
		<-l.hold
	}
	return k, err
}

func newCachedKey(t *testing.T) (*platform.KeyCache, *lookups, *memory.Platform, apikey.Key, string) {
	t.Helper()
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC) }
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "h", CreatedAt: now()}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_1", AccountID: acc.ID, Kind: ledger.Grant, Amount: 5, CreatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k := apikey.Key{ID: "key_1", AccountID: acc.ID, Name: "k", Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret), Scopes: []string{"china:read"}, CreatedAt: now()}
	if err := p.CreateKey(ctx, k, 10); err != nil {
		t.Fatal(err)
	}
	l := &lookups{KeyStore: p}
	c, err := platform.NewKeyCache(l, now)
	if err != nil {
		t.Fatal(err)
	}
	return c, l, p, k, secret
}

func TestKeyCacheServesFromMemoryOnlyWhileWatching(t *testing.T) {
	ctx := context.Background()
	c, l, p, k, _ := newCachedKey(t)
	for range 3 {
		if _, err := c.KeyByHash(ctx, k.Hash); err != nil {
			t.Fatal(err)
		}
	}
	if l.n.Load() != 3 {
		t.Fatalf("not watching: %d lookups reached the store, want 3", l.n.Load())
	}
	c.Watching(true)
	for range 3 {
		if _, err := c.KeyByHash(ctx, k.Hash); err != nil {
			t.Fatal(err)
		}
		if _, err := c.KeyByHash(ctx, "unknown"); !errors.Is(err, ports.ErrNotFound) {
			t.Fatalf("unknown digest: %v", err)
		}
	}
	if l.n.Load() != 5 {
		t.Fatalf("watching: %d lookups reached the store, want 5 (one per digest)", l.n.Load())
	}
	// A change made elsewhere is seen once the watch reports it.
	if _, err := p.RevokeKey(ctx, k.AccountID, k.ID, apikey.Standing, time.Now()); err != nil {
		t.Fatal(err)
	}
	c.KeyChanged(k.Hash)
	got, err := c.KeyByHash(ctx, k.Hash)
	if err != nil || got.RevokedAt == nil {
		t.Fatalf("after KeyChanged: %+v, %v; want the revoked key", got, err)
	}
	// A watch that stops drops everything and serves nothing from memory.
	c.Watching(false)
	before := l.n.Load()
	_, _ = c.KeyByHash(ctx, k.Hash)
	if l.n.Load() != before+1 {
		t.Fatal("a cache that is not watching answered from memory")
	}
}

// TestKeyCacheDropsAReadOvertakenByAChange stages the race a cache must not
// lose: a lookup reads the key, the key is revoked and the change reported,
// and only then does the lookup store what it read.
func TestKeyCacheDropsAReadOvertakenByAChange(t *testing.T) {
	ctx := context.Background()
	c, l, _, k, _ := newCachedKey(t)
	c.Watching(true)
	l.hold, l.reads = make(chan struct{}), make(chan struct{})
	done := make(chan apikey.Key)
	go func() {
		got, _ := c.KeyByHash(ctx, k.Hash)
		done <- got
	}()
	<-l.reads // the lookup has read the live key
	if _, err := c.RevokeKey(ctx, k.AccountID, k.ID, apikey.Standing, time.Now()); err != nil {
		t.Fatal(err)
	}
	close(l.hold)
	if stale := <-done; stale.RevokedAt != nil {
		t.Fatal("the staged lookup read after the revocation")
	}
	l.hold = nil
	got, err := c.KeyByHash(ctx, k.Hash)
	if err != nil || got.RevokedAt == nil {
		t.Fatalf("after the race: %+v, %v; want the revoked key", got, err)
	}
}
