package app

import (
	"context"
	"errors"
	"time"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// FundHoldingsCache is a read-through cache in front of a
// FundHoldingStore. 13F data only changes when filings are ingested, and a
// lookup reads one document per quarter a security was held, so caching a
// lookup's rows for a TTL takes the document store off the hot path. An
// empty lookup is a miss and is never cached.
type FundHoldingsCache struct {
	ports.FundHoldingStore
	master  *readCache[holdings.Security]
	holders *readCache[heldRows]
	cusips  *readCache[[]string]
}

// heldRows is one cached FundHoldingsOf answer.
type heldRows struct {
	rows    []holdings.Holding
	reports []holdings.Report
}

// errNoRows marks an empty lookup, so that it is not cached.
var errNoRows = errors.New("no rows")

// NewFundHoldingsCache wraps store, holding at most max entries of each
// kind for ttl each.
func NewFundHoldingsCache(store ports.FundHoldingStore, ttl time.Duration, max int, now Clock) *FundHoldingsCache {
	return &FundHoldingsCache{
		FundHoldingStore: store,
		master:           newReadCache[holdings.Security](ttl, max, now),
		holders:          newReadCache[heldRows](ttl, max, now),
		cusips:           newReadCache[[]string](ttl, max, now),
	}
}

// MasterSecurity returns the security under key, from the cache while it is fresh.
func (c *FundHoldingsCache) MasterSecurity(ctx context.Context, key holdings.Key) (holdings.Security, error) {
	return c.master.get(ctx, key.String(), func(ctx context.Context, _ string) (holdings.Security, error) {
		return c.FundHoldingStore.MasterSecurity(ctx, key)
	})
}

// FundHoldingsOf returns the rows and reports of the lookup, from the cache
// while they are fresh.
func (c *FundHoldingsCache) FundHoldingsOf(ctx context.Context, cusip, from, to string) ([]holdings.Holding, []holdings.Report, error) {
	got, err := c.holders.get(ctx, cusip+"|"+from+"|"+to, func(ctx context.Context, _ string) (heldRows, error) {
		rows, reports, err := c.FundHoldingStore.FundHoldingsOf(ctx, cusip, from, to)
		if err == nil && len(rows) == 0 {
			err = errNoRows
		}
		return heldRows{rows: rows, reports: reports}, err
	})
	if errors.Is(err, errNoRows) {
		return nil, nil, nil
	}
	return got.rows, got.reports, err
}

// ThirteenFFilingCUSIPs returns the filing's CUSIPs, from the cache while
// they are fresh.
func (c *FundHoldingsCache) ThirteenFFilingCUSIPs(ctx context.Context, accession string) ([]string, error) {
	return c.cusips.get(ctx, accession, c.FundHoldingStore.ThirteenFFilingCUSIPs)
}

// UpsertMasterSecurities writes through and forgets what this instance
// cached under the securities' keys.
func (c *FundHoldingsCache) UpsertMasterSecurities(ctx context.Context, secs []holdings.Security) error {
	for _, s := range secs {
		for _, k := range s.Keys() {
			c.master.forget(k.String())
		}
	}
	return c.FundHoldingStore.UpsertMasterSecurities(ctx, secs)
}

// ReplaceThirteenFFilings writes through and forgets every cached lookup:
// a filing may change the answer of any of them.
func (c *FundHoldingsCache) ReplaceThirteenFFilings(ctx context.Context, filings []holdings.Filing) error {
	c.holders.reset()
	c.cusips.reset()
	return c.FundHoldingStore.ReplaceThirteenFFilings(ctx, filings)
}
