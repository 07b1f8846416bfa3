package fundholders

import (
	"context"
	"errors"

	"github.com/quarrydata/quarry/app/readcache"

	"unsafe"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// FundHoldingsCache is a read-through cache in front of a
// FundHoldingStore. 13F data only changes when filings are ingested, and a
// lookup reads one document per quarter a security was held, so caching a
// lookup's rows for a TTL takes the document store off the hot path. An
// empty lookup is a miss and is never cached.
type Cache struct {
	ports.FundHoldingStore
	master  *readcache.Space[holdings.Security]
	holders *readcache.Space[heldRows]
	cusips  *readcache.Space[[]string]
}

// heldRows is one cached FundHoldingsOf answer.
type heldRows struct {
	rows    []holdings.Holding
	reports []holdings.Report
}

// NewFundHoldingsCache wraps store, keeping securities, lookups and
// filings' CUSIPs in shared. One lookup of a widely held security over many
// quarters can hold hundreds of thousands of rows; it is weighed as such.
func NewCache(store ports.FundHoldingStore, shared *readcache.Cache) *Cache {
	return &Cache{
		FundHoldingStore: store,
		master:           readcache.NewSpace(shared, masterSecurityWeight),
		holders:          readcache.NewSpace(shared, heldRowsWeight),
		cusips:           readcache.NewSpace(shared, readcache.StringsWeight),
	}
}

// MasterSecurity returns the security under key, from the cache while it is fresh.
func (c *Cache) MasterSecurity(ctx context.Context, key holdings.Key) (holdings.Security, error) {
	return c.master.Get(ctx, key.String(), func(ctx context.Context, _ string) (holdings.Security, error) {
		return c.FundHoldingStore.MasterSecurity(ctx, key)
	})
}

// FundHoldingsOf returns the rows and reports of the lookup, from the cache
// while they are fresh.
func (c *Cache) FundHoldingsOf(ctx context.Context, cusip, from, to string) ([]holdings.Holding, []holdings.Report, error) {
	got, err := c.holders.Get(ctx, cusip+"|"+from+"|"+to, func(ctx context.Context, _ string) (heldRows, error) {
		rows, reports, err := c.FundHoldingStore.FundHoldingsOf(ctx, cusip, from, to)
		if err == nil && len(rows) == 0 {
			err = readcache.ErrNoRows
		}
		return heldRows{rows: rows, reports: reports}, err
	})
	if errors.Is(err, readcache.ErrNoRows) {
		return nil, nil, nil
	}
	return got.rows, got.reports, err
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

// ReplaceThirteenFFilings writes through, then forgets every cached lookup:
// a filing may change the answer of any of them.
func (c *Cache) ReplaceThirteenFFilings(ctx context.Context, filings []holdings.Filing) error {
	err := c.FundHoldingStore.ReplaceThirteenFFilings(ctx, filings)
	// Forgotten even when the write failed: it may have applied in part.
	c.holders.Reset()
	c.cusips.Reset()
	return err
}

func masterSecurityWeight(s holdings.Security) int {
	return int(unsafe.Sizeof(s)) + readcache.StringBytes(s.Ticker, s.CIK, s.CUSIP, s.Name)
}

func heldRowsWeight(h heldRows) int {
	var row holdings.Holding
	var rep holdings.Report
	n := int(unsafe.Sizeof(h)) + cap(h.rows)*int(unsafe.Sizeof(row)) + cap(h.reports)*int(unsafe.Sizeof(rep))
	for _, r := range h.rows {
		n += readcache.StringBytes(r.Accession, r.FundCIK, r.FundName, r.ReportPeriod, r.FilingDate, r.CUSIP, r.Issuer,
			r.Class, r.ShareType, r.PutCall, r.Discretion)
	}
	for _, r := range h.reports {
		n += readcache.StringBytes(r.Accession, r.FundCIK, r.ReportPeriod, r.FilingDate, r.Amendment)
	}
	return n
}
