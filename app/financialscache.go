package app

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// FinancialsCache is a read-through cache in front of a FinancialsStore.
// Facts only change when a companyfacts file is ingested; a company's
// document is large, so reading it once per TTL rather than once per request
// takes the document store off the hot path.
type FinancialsCache struct {
	ports.FinancialsStore
	companies *readCache[financials.Company]
	tickers   *readCache[string]
}

// NewFinancialsCache wraps store, holding at most max companies and tickers
// for ttl each.
func NewFinancialsCache(store ports.FinancialsStore, ttl time.Duration, max int, now Clock) *FinancialsCache {
	return &FinancialsCache{
		FinancialsStore: store,
		companies:       newReadCache[financials.Company](ttl, max, now),
		tickers:         newReadCache[string](ttl, max, now),
	}
}

// Company returns the company, from the cache while it is fresh.
func (c *FinancialsCache) Company(ctx context.Context, cik string) (financials.Company, error) {
	return c.companies.get(ctx, cik, c.FinancialsStore.Company)
}

// CIKForTicker returns the ticker's CIK, from the cache while it is fresh.
func (c *FinancialsCache) CIKForTicker(ctx context.Context, ticker string) (string, error) {
	return c.tickers.get(ctx, ticker, c.FinancialsStore.CIKForTicker)
}

// UpsertCompanies writes through and forgets what this instance cached.
func (c *FinancialsCache) UpsertCompanies(ctx context.Context, companies []financials.Company) error {
	for _, co := range companies {
		c.companies.forget(co.CIK)
		c.tickers.forget(co.Tickers...)
	}
	return c.FinancialsStore.UpsertCompanies(ctx, companies)
}
