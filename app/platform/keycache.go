package platform

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"

	"github.com/maypok86/otter/v2"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/ports"
)

// Bounds of the key cache. Keys are small, so the count bounds memory
// (about 100,000 keys, some tens of MiB at most); the eviction policy keeps
// the keys in use when a flood of unknown keys passes through. A known key
// is dropped when a notification says it changed, so its life only bounds
// the harm of a bug; an unknown digest is remembered for a shorter while.
const (
	keyCacheSize   = 100_000
	keyCacheLife   = 5 * time.Minute
	unknownKeyLife = time.Minute
)

// KeyCache is a read-through cache of API keys by digest in front of a
// KeyStore, so that a request is authenticated without a database round
// trip. It is safe only because it is never the last word on money: the
// ledger refuses the debit of a revoked key in the debit itself
// (ports.Ledger), so a key revoked on another node cannot be charged or
// served data, even from a stale entry. What a stale entry could still do is
// answer a refusal (403, 429, 422) where 401 is due, or honour a permission
// an operator just withdrew; entries are dropped when a ports.KeyWatch says
// their key changed, and none is served while the watch is not watching,
// since changes may then go unseen.
//
// A revoked key is cached as revoked (revocation is final), and an unknown
// digest as unknown: a key's digest cannot be asked for before the key
// exists, because its secret is drawn at random when it is minted.
type KeyCache struct {
	ports.KeyStore
	entries *otter.Cache[string, cachedKey]

	// mu orders fills against invalidations: an entry read from the
	// store before an invalidation must not be stored after it.
	mu       sync.Mutex
	gen      uint64 // moves on with every invalidation; guarded by mu
	watching atomic.Bool
}

// cachedKey is a key as read from the store, or the news that no key has
// that digest.
type cachedKey struct {
	key     apikey.Key
	unknown bool
}

var (
	_ ports.KeyStore   = (*KeyCache)(nil)
	_ ports.KeyWatcher = (*KeyCache)(nil)
)

// NewKeyCache wraps store. It serves nothing from memory until it is told
// Watching(true): run a ports.KeyWatch for it.
func NewKeyCache(store ports.KeyStore, now usecase.Clock) (*KeyCache, error) {
	entries, err := otter.New(&otter.Options[string, cachedKey]{
		MaximumSize: keyCacheSize,
		ExpiryCalculator: otter.ExpiryCreatingFunc(func(e otter.Entry[string, cachedKey]) time.Duration {
			if e.Value.unknown {
				return unknownKeyLife
			}
			return keyCacheLife
		}),
		Clock: readcache.OtterClock{Now: now},
	})
	if err != nil {
		return nil, err
	}
	return &KeyCache{KeyStore: store, entries: entries}, nil
}

// KeyByHash returns the key with that digest, from memory while watching.
func (c *KeyCache) KeyByHash(ctx context.Context, hash string) (apikey.Key, error) {
	if !c.watching.Load() {
		return c.KeyStore.KeyByHash(ctx, hash)
	}
	if e, ok := c.entries.GetIfPresent(hash); ok {
		if e.unknown {
			return apikey.Key{}, ports.ErrNotFound
		}
		return copyKey(e.key), nil
	}
	c.mu.Lock()
	gen := c.gen
	c.mu.Unlock()
	k, err := c.KeyStore.KeyByHash(ctx, hash)
	var e cachedKey
	switch {
	case err == nil:
		e = cachedKey{key: copyKey(k)}
	case errors.Is(err, ports.ErrNotFound):
		e = cachedKey{unknown: true}
	default:
		return k, err
	}
	c.mu.Lock()
	if c.gen == gen && c.watching.Load() {
		c.entries.Set(hash, e)
	}
	c.mu.Unlock()
	return k, err
}

// RevokeKey revokes through the store and forgets the key here at once;
// other nodes forget it when their watch reports the change.
func (c *KeyCache) RevokeKey(ctx context.Context, accountID, keyID string, kind apikey.Kind, at time.Time) (apikey.Key, error) {
	k, err := c.KeyStore.RevokeKey(ctx, accountID, keyID, kind, at)
	if err == nil {
		c.KeyChanged(k.Hash)
	}
	return k, err
}

// SetKeyScope changes the key's scopes through the store and forgets the
// key here at once.
func (c *KeyCache) SetKeyScope(ctx context.Context, keyID, permission string, held bool) (apikey.Key, error) {
	k, err := c.KeyStore.SetKeyScope(ctx, keyID, permission, held)
	if err == nil {
		c.KeyChanged(k.Hash)
	}
	return k, err
}

// KeyChanged forgets the key with this digest, and any read of it still in
// flight.
func (c *KeyCache) KeyChanged(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.entries.Invalidate(hash)
}

// Watching forgets every key, whether the watch starts (changes made before
// may have been missed) or stops (changes made from now on may be); while
// it is stopped, every key is read from the store.
func (c *KeyCache) Watching(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.watching.Store(on)
	c.entries.InvalidateAll()
}

func copyKey(k apikey.Key) apikey.Key {
	k.Scopes = append([]string(nil), k.Scopes...)
	return k
}
