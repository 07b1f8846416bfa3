package usfinancials

import (
	"context"

	"github.com/quarrydata/quarry/app/readcache"

	"unsafe"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// FinancialsCache is a read-through cache in front of a FinancialsStore.
// Facts only change when a companyfacts file is ingested; a company's
// document is large, so reading it once per TTL rather than once per request
// takes the document store off the hot path.
type Cache struct {
	ports.FinancialsStore
	companies *readcache.Space[financials.Company]
	tickers   *readcache.Space[string]
	// names holds CIKsForName's answers by the name asked: Ask resolves
	// a company name on every question that names one.
	names *readcache.Space[[]string]
	// latest holds LatestStatement's answers by "CIK/statement/period",
	// histories StatementHistory's.
	latest    *readcache.Space[latestStatement]
	histories *readcache.Space[statementHistory]
}

// latestStatement is one answer of LatestStatement.
type latestStatement struct {
	company financials.Company
	latest  financials.Latest
}

// statementHistory is one answer of StatementHistory.
type statementHistory struct {
	company financials.Company
	history financials.History
}

// NewFinancialsCache wraps store, keeping companies and tickers in shared.
func NewCache(store ports.FinancialsStore, shared *readcache.Cache) *Cache {
	return &Cache{
		FinancialsStore: store,
		companies:       readcache.NewSpace(shared, companyWeight),
		tickers:         readcache.NewSpace(shared, readcache.StringWeight),
		names:           readcache.NewSpace(shared, readcache.StringsWeight),
		latest:          readcache.NewSpace(shared, latestWeight),
		histories:       readcache.NewSpace(shared, historyWeight),
	}
}

// CIKsForName returns the CIKs of the companies the name names, from the
// cache while it is fresh.
func (c *Cache) CIKsForName(ctx context.Context, name string) ([]string, error) {
	return c.names.Get(ctx, name, c.FinancialsStore.CIKsForName)
}

// Company returns the company, from the cache while it is fresh.
func (c *Cache) Company(ctx context.Context, cik string) (financials.Company, error) {
	return c.companies.Get(ctx, cik, c.FinancialsStore.Company)
}

// LatestStatement returns the statement, from the cache while it is fresh.
func (c *Cache) LatestStatement(ctx context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.Latest, error) {
	got, err := c.latest.Get(ctx, latestKey(cik, st, p), func(ctx context.Context, _ string) (latestStatement, error) {
		co, l, err := c.FinancialsStore.LatestStatement(ctx, cik, st, p)
		return latestStatement{co, l}, err
	})
	return got.company, got.latest, err
}

// StatementHistory returns the history, from the cache while it is fresh.
func (c *Cache) StatementHistory(ctx context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.History, error) {
	got, err := c.histories.Get(ctx, latestKey(cik, st, p), func(ctx context.Context, _ string) (statementHistory, error) {
		co, h, err := c.FinancialsStore.StatementHistory(ctx, cik, st, p)
		return statementHistory{co, h}, err
	})
	return got.company, got.history, err
}

func latestKey(cik string, st financials.Statement, p financials.Period) string {
	return cik + "/" + string(st) + "/" + string(p)
}

// CIKForTicker returns the ticker's CIK, from the cache while it is fresh.
func (c *Cache) CIKForTicker(ctx context.Context, ticker string) (string, error) {
	return c.tickers.Get(ctx, ticker, c.FinancialsStore.CIKForTicker)
}

// UpsertCompanies writes through, then forgets the companies written and
// every cached ticker and name: a ticker or name a company no longer uses
// is not named in the write, and both are cheap to read again.
func (c *Cache) UpsertCompanies(ctx context.Context, companies []financials.Company) error {
	err := c.FinancialsStore.UpsertCompanies(ctx, companies)
	// Forgotten even when the write failed: it may have applied in part.
	for _, co := range companies {
		c.companies.Forget(co.CIK)
		for _, st := range financials.Statements {
			for _, p := range financials.Periods {
				c.latest.Forget(latestKey(co.CIK, st, p))
				c.histories.Forget(latestKey(co.CIK, st, p))
			}
		}
	}
	c.tickers.Reset()
	c.names.Reset()
	return err
}

func companyWeight(c financials.Company) int {
	var f financials.Fact
	n := int(unsafe.Sizeof(c)) + readcache.StringBytes(c.CIK, c.Name) + cap(c.Tickers)*readcache.StringHeader + readcache.StringBytes(c.Tickers...)
	n += cap(c.Facts) * int(unsafe.Sizeof(f))
	for _, f := range c.Facts {
		n += readcache.StringBytes(f.Concept, f.Unit, f.Start, f.End, f.Accession, f.FiscalPeriod, f.Form, f.Filed)
	}
	return n
}

// latestWeight weighs a statement and its company.
func latestWeight(l latestStatement) int {
	return int(unsafe.Sizeof(l)) + readcache.StringBytes(l.company.CIK, l.company.Name, l.latest.Through) +
		readcache.StringsWeight(l.company.Tickers) + rowsWeight(l.latest.Rows)
}

// historyWeight weighs a history, every version's rows, and its company.
func historyWeight(h statementHistory) int {
	var v financials.Version
	var s financials.Span
	n := int(unsafe.Sizeof(h)) + readcache.StringBytes(h.company.CIK, h.company.Name, h.history.Through) +
		readcache.StringsWeight(h.company.Tickers) + cap(h.history.Versions)*int(unsafe.Sizeof(v))
	for _, v := range h.history.Versions {
		n += readcache.StringBytes(v.Filed) + rowsWeight(v.Rows) + cap(v.Gone)*int(unsafe.Sizeof(s))
	}
	return n
}

// rowsWeight weighs rows: each value is a map entry of its field's name
// and a float.
func rowsWeight(rows []financials.Row) int {
	var r financials.Row
	n := cap(rows) * int(unsafe.Sizeof(r))
	for _, r := range rows {
		n += readcache.StringBytes(r.Start, r.End, r.FiscalPeriod, r.Currency, r.Accession, r.Filed)
		for k := range r.Values {
			n += readcache.StringWeight(k) + 16
		}
	}
	return n
}
