package fundholders

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// FundHoldingsCache is a read-through cache in front of a
// FundHoldingStore. 13F data only changes when filings are ingested, so
// the securities master, filings' CUSIPs and pages of holders are kept for
// a TTL. A page is kept under its query with the instant replaced by the
// latest filing date known at it (holdings.KnownThrough): the default
// as_of is the time of the request, and every instant of a day sees the
// same filings. An empty page is a miss and is never cached.
type Cache struct {
	ports.FundHoldingStore
	master *readcache.Space[holdings.Security]
	pages  *readcache.Space[heldPage]
	cusips *readcache.Space[[]string]
}

// heldPage is one cached FundHolders answer.
type heldPage struct {
	holders []holdings.Holding
	total   int
}

// NewFundHoldingsCache wraps store, keeping securities, pages and filings'
// CUSIPs in shared.
func NewCache(store ports.FundHoldingStore, shared *readcache.Cache) *Cache {
	return &Cache{
		FundHoldingStore: store,
		master:           readcache.NewSpace(shared, masterSecurityWeight),
		pages:            readcache.NewSpace(shared, heldPageWeight),
		cusips:           readcache.NewSpace(shared, readcache.StringsWeight),
	}
}

// MasterSecurity returns the security under key, from the cache while it is fresh.
func (c *Cache) MasterSecurity(ctx context.Context, key holdings.Key) (holdings.Security, error) {
	return c.master.Get(ctx, key.String(), func(ctx context.Context, _ string) (holdings.Security, error) {
		return c.FundHoldingStore.MasterSecurity(ctx, key)
	})
}

// FundHolders returns the page the query asks for, from the cache while
// it is fresh.
func (c *Cache) FundHolders(ctx context.Context, cusip string, q holdings.Query) ([]holdings.Holding, int, error) {
	key := strings.Join([]string{cusip, q.Accession, q.From, q.To, holdings.KnownThrough(q.AsOf),
		strconv.Itoa(q.Offset), strconv.Itoa(q.Limit)}, "|")
	got, err := c.pages.Get(ctx, key, func(ctx context.Context, _ string) (heldPage, error) {
		holders, total, err := c.FundHoldingStore.FundHolders(ctx, cusip, q)
		if err == nil && total == 0 {
			err = readcache.ErrNoRows
		}
		return heldPage{holders: holders, total: total}, err
	})
	if errors.Is(err, readcache.ErrNoRows) {
		return nil, 0, nil
	}
	return slices.Clone(got.holders), got.total, err
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

// ReplaceThirteenFFilings writes through, then forgets every cached page
// and filing's CUSIPs: a filing may change any of them.
func (c *Cache) ReplaceThirteenFFilings(ctx context.Context, filings []holdings.Filing) error {
	err := c.FundHoldingStore.ReplaceThirteenFFilings(ctx, filings)
	// Forgotten even when the write failed: it may have applied in part.
	c.pages.Reset()
	c.cusips.Reset()
	return err
}

func masterSecurityWeight(s holdings.Security) int {
	return int(unsafe.Sizeof(s)) + readcache.StringBytes(s.Ticker, s.CIK, s.CUSIP, s.Name)
}

func heldPageWeight(p heldPage) int {
	var row holdings.Holding
	n := int(unsafe.Sizeof(p)) + cap(p.holders)*int(unsafe.Sizeof(row))
	for _, r := range p.holders {
		n += readcache.StringBytes(r.Accession, r.FundCIK, r.FundName, r.ReportPeriod, r.FilingDate, r.CUSIP, r.Issuer,
			r.Class, r.ShareType, r.PutCall, r.Discretion)
	}
	return n
}
