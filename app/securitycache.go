package app

import (
	"context"
	"sync"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// SecurityCache is a read-through cache in front of a SecurityStore.
// Listings are reference data that change only when a file is ingested, so
// serving one for up to the TTL after it changed is an acceptable price for
// taking the document store off the hot path. Misses are never cached: a
// newly ingested listing is visible on the next request.
type SecurityCache struct {
	ports.SecurityStore
	ttl time.Duration
	max int
	now Clock

	mu      sync.RWMutex
	entries map[string]cachedSecurity
}

type cachedSecurity struct {
	sec     ashare.Security
	expires time.Time
}

// NewSecurityCache wraps store, holding at most max listings for ttl each.
func NewSecurityCache(store ports.SecurityStore, ttl time.Duration, max int, now Clock) *SecurityCache {
	return &SecurityCache{SecurityStore: store, ttl: ttl, max: max, now: now, entries: map[string]cachedSecurity{}}
}

// Security returns the listing, from the cache while it is fresh.
func (c *SecurityCache) Security(ctx context.Context, code string) (ashare.Security, error) {
	now := c.now()
	c.mu.RLock()
	e, ok := c.entries[code]
	c.mu.RUnlock()
	if ok && now.Before(e.expires) {
		return e.sec, nil
	}
	sec, err := c.SecurityStore.Security(ctx, code)
	if err != nil {
		return sec, err
	}
	c.store(code, cachedSecurity{sec: sec, expires: now.Add(c.ttl)})
	return sec, nil
}

// UpsertSecurities writes through and forgets what this instance cached, so
// a change made through it is visible at once.
func (c *SecurityCache) UpsertSecurities(ctx context.Context, secs []ashare.Security) error {
	c.mu.Lock()
	for _, s := range secs {
		delete(c.entries, s.Code)
	}
	c.mu.Unlock()
	return c.SecurityStore.UpsertSecurities(ctx, secs)
}

func (c *SecurityCache) store(code string, e cachedSecurity) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		// Dropping everything is crude but bounded and rare: the number of
		// A-share listings is a few thousand.
		clear(c.entries)
	}
	c.entries[code] = e
}
