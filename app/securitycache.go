package app

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// SecurityCache is a read-through cache in front of a SecurityStore.
// Listings are reference data that change only when a file is ingested, so
// serving one for up to the TTL after it changed is an acceptable price for
// taking the document store off the hot path.
type SecurityCache struct {
	ports.SecurityStore
	cache *readCache[ashare.Security]
}

// NewSecurityCache wraps store, holding at most max listings for ttl each.
func NewSecurityCache(store ports.SecurityStore, ttl time.Duration, max int, now Clock) *SecurityCache {
	return &SecurityCache{SecurityStore: store, cache: newReadCache[ashare.Security](ttl, max, now)}
}

// Security returns the listing, from the cache while it is fresh.
func (c *SecurityCache) Security(ctx context.Context, code string) (ashare.Security, error) {
	return c.cache.get(ctx, code, c.SecurityStore.Security)
}

// UpsertSecurities writes through and forgets what this instance cached.
func (c *SecurityCache) UpsertSecurities(ctx context.Context, secs []ashare.Security) error {
	for _, s := range secs {
		c.cache.forget(s.Code)
	}
	return c.SecurityStore.UpsertSecurities(ctx, secs)
}
