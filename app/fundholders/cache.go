package fundholders

import (
	"context"
	"github.com/quarrydata/quarry/app/readcache"

	"unsafe"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// FundHoldingsCache is a read-through cache in front of a
// FundHoldingStore. 13F data only changes when filings are ingested, so
// the securities master and filings' CUSIPs, read on every lookup, are
// kept for a TTL. Pages of holders are not: a store reads a page by _id at
// the cost of the page, and the default as_of (now) would make every
// lookup a key of its own.
type Cache struct {
	ports.FundHoldingStore
	master *readcache.Space[holdings.Security]
	cusips *readcache.Space[[]string]
}

// NewFundHoldingsCache wraps store, keeping securities and filings' CUSIPs
// in shared.
func NewCache(store ports.FundHoldingStore, shared *readcache.Cache) *Cache {
	return &Cache{
		FundHoldingStore: store,
		master:           readcache.NewSpace(shared, masterSecurityWeight),
		cusips:           readcache.NewSpace(shared, readcache.StringsWeight),
	}
}

// MasterSecurity returns the security under key, from the cache while it is fresh.
func (c *Cache) MasterSecurity(ctx context.Context, key holdings.Key) (holdings.Security, error) {
	return c.master.Get(ctx, key.String(), func(ctx context.Context, _ string) (holdings.Security, error) {
		return c.FundHoldingStore.MasterSecurity(ctx, key)
	})
}

// ThirteenFFilingCUSIPs returns the filing's CUSIPs, from the cache while
// they are fresh.
func (c *Cache) ThirteenFFilingCUSIPs(ctx context.Context, accession string) ([]string, error) {
	return c.cusips.Get(ctx, accession, c.FundHoldingStore.ThirteenFFilingCUSIPs)
}

// UpsertMasterSecurities writes through, then forgets every cached
// security: a key a security no longer has is not named in the write.
func (c *Cache) UpsertMasterSecurities(ctx context.Context, secs []holdings.Security) error {
	err := c.FundHoldingStore.UpsertMasterSecurities(ctx, secs)
	// Forgotten even when the write failed: it may have applied in part.
	c.master.Reset()
	return err
}

// ReplaceThirteenFFilings writes through, then forgets every filing's
// cached CUSIPs: a reload may change them.
func (c *Cache) ReplaceThirteenFFilings(ctx context.Context, filings []holdings.Filing) error {
	err := c.FundHoldingStore.ReplaceThirteenFFilings(ctx, filings)
	// Forgotten even when the write failed: it may have applied in part.
	c.cusips.Reset()
	return err
}

func masterSecurityWeight(s holdings.Security) int {
	return int(unsafe.Sizeof(s)) + readcache.StringBytes(s.Ticker, s.CIK, s.CUSIP, s.Name)
}
