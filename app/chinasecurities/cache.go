package chinasecurities

import (
	"context"
	"math"

	"github.com/quarrydata/quarry/app/readcache"

	"unsafe"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// SecurityCache is a read-through cache in front of a SecurityStore.
// Listings are reference data that change only when a file is ingested, so
// serving one for up to the TTL after it changed is an acceptable price for
// taking the document store off the hot path.
type Cache struct {
	ports.SecurityStore
	listings *readcache.Space[ashare.Security]
	// every holds every listing, by code, under one key, for searches.
	every *readcache.Slices[ashare.Security]
}

// NewSecurityCache wraps store, keeping listings in shared.
func NewCache(store ports.SecurityStore, shared *readcache.Cache) *Cache {
	return &Cache{
		SecurityStore: store, listings: readcache.NewSpace(shared, securityWeight),
		every: readcache.NewSlices(shared, func(s ashare.Security) int { return securityWeight(s) - int(unsafe.Sizeof(s)) }),
	}
}

// Security returns the listing, from the cache while it is fresh.
func (c *Cache) Security(ctx context.Context, code string) (ashare.Security, error) {
	return c.listings.Get(ctx, code, c.SecurityStore.Security)
}

// SearchSecurities searches every listing, read from the store once per
// TTL: a few thousand listings weigh about a megabyte, and the store's own
// search reads every one for a search by name (FerretDB filters nothing
// else in SQL either).
func (c *Cache) SearchSecurities(ctx context.Context, q ashare.Search, offset, limit int) ([]ashare.Security, bool, error) {
	every, err := c.every.Get(ctx, "", func(ctx context.Context) ([]ashare.Security, error) {
		secs, _, err := c.SecurityStore.SearchSecurities(ctx, ashare.Search{}, 0, math.MaxInt32)
		return secs, err
	})
	if err != nil {
		return nil, false, err
	}
	page, more := q.Page(every, offset, limit)
	return page, more, nil
}

// UpsertSecurities writes through, then forgets what this instance cached
// of the listings written.
func (c *Cache) UpsertSecurities(ctx context.Context, secs []ashare.Security) error {
	err := c.SecurityStore.UpsertSecurities(ctx, secs)
	// Forgotten even when the write failed: it may have applied in part.
	for _, s := range secs {
		c.listings.Forget(s.Code)
	}
	c.every.Forget("")
	return err
}

func securityWeight(s ashare.Security) int {
	return int(unsafe.Sizeof(s)) + readcache.StringBytes(s.Code, s.Exchange, s.Board, s.CompanyName, s.EnglishName, s.ListingDate, s.DelistingDate)
}
