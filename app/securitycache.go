package app

import (
	"context"

	"unsafe"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// SecurityCache is a read-through cache in front of a SecurityStore.
// Listings are reference data that change only when a file is ingested, so
// serving one for up to the TTL after it changed is an acceptable price for
// taking the document store off the hot path.
type SecurityCache struct {
	ports.SecurityStore
	listings *cacheSpace[ashare.Security]
}

// NewSecurityCache wraps store, keeping listings in shared.
func NewSecurityCache(store ports.SecurityStore, shared *ReadCache) *SecurityCache {
	return &SecurityCache{SecurityStore: store, listings: newCacheSpace(shared, securityWeight)}
}

// Security returns the listing, from the cache while it is fresh.
func (c *SecurityCache) Security(ctx context.Context, code string) (ashare.Security, error) {
	return c.listings.get(ctx, code, c.SecurityStore.Security)
}

// UpsertSecurities writes through, then forgets what this instance cached
// of the listings written.
func (c *SecurityCache) UpsertSecurities(ctx context.Context, secs []ashare.Security) error {
	err := c.SecurityStore.UpsertSecurities(ctx, secs)
	// Forgotten even when the write failed: it may have applied in part.
	for _, s := range secs {
		c.listings.forget(s.Code)
	}
	return err
}

func securityWeight(s ashare.Security) int {
	return int(unsafe.Sizeof(s)) + stringBytes(s.Code, s.Exchange, s.Board, s.CompanyName, s.ListingDate, s.DelistingDate)
}
