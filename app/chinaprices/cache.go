package chinaprices

import (
	"context"
	"errors"
	"slices"

	"github.com/quarrydata/quarry/app/readcache"

	"unsafe"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// ChinaPriceCache is a read-through cache in front of a ChinaPriceStore.
// Bars change only when a file is ingested, and on MongoDB a page reads a
// listing's series document and its year buckets, each taking
// milliseconds on FerretDB, so a listing's every version and its steps are
// kept here and pages are cut from them in memory.
//
// A miss reads the listing's whole history (Versions: on MongoDB every
// year bucket, once per TTL). Every version is kept, not a page's bars, so
// one entry serves every date range, offset and as-of time.
//
// A write through this cache forgets the listing written; a write by
// another process (quarry ingest) is seen once the entry's TTL has passed.
type Cache struct {
	ports.ChinaPriceStore
	versions *readcache.Space[[]ashare.Bar]
	steps    *readcache.Space[[]ashare.Step]
}

var _ ports.ChinaPriceStore = (*Cache)(nil)

// NewChinaPriceCache wraps store, keeping versions and steps in shared.
func NewCache(store ports.ChinaPriceStore, shared *readcache.Cache) *Cache {
	return &Cache{ChinaPriceStore: store, versions: readcache.NewSpace(shared, barsWeight),
		steps: readcache.NewSpace(shared, stepsWeight)}
}

// readVersions returns every version held for code, or errNoRows when
// none is held (misses are not cached).
func (c *Cache) readVersions(ctx context.Context, code string) ([]ashare.Bar, error) {
	held, err := c.ChinaPriceStore.Versions(ctx, code)
	if err == nil && len(held) == 0 {
		return nil, readcache.ErrNoRows
	}
	return held, err
}

// Versions returns every version held for code, from the cache while it
// is fresh.
func (c *Cache) Versions(ctx context.Context, code string) ([]ashare.Bar, error) {
	held, err := c.versions.Get(ctx, code, c.readVersions)
	if errors.Is(err, readcache.ErrNoRows) {
		return nil, nil
	}
	return slices.Clone(held), err
}

// Bars returns one page of the code's bars known at q.AsOf, cut from the
// cached versions while they are fresh.
func (c *Cache) Bars(ctx context.Context, q ports.BarQuery) ([]ashare.Bar, bool, error) {
	versions, err := c.versions.Get(ctx, q.Code, c.readVersions)
	if errors.Is(err, readcache.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	page, more := ashare.Page(ashare.Visible(versions, q.From, q.To, q.AsOf), q.Offset, q.Limit)
	return page, more, nil
}

// Steps returns the code's steps, from the cache while they are fresh.
func (c *Cache) Steps(ctx context.Context, code string) ([]ashare.Step, error) {
	steps, err := c.steps.Get(ctx, code, c.ChinaPriceStore.Steps)
	return slices.Clone(steps), err
}

// UpdateSeries writes through, then forgets the listing.
func (c *Cache) UpdateSeries(ctx context.Context, code string, change func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error)) error {
	err := c.ChinaPriceStore.UpdateSeries(ctx, code, change)
	// Forgotten even when the write failed: it may have applied in part.
	c.versions.Forget(code)
	c.steps.Forget(code)
	return err
}

func barsWeight(bars []ashare.Bar) int {
	var b ashare.Bar
	n := int(unsafe.Sizeof(bars)) + cap(bars)*int(unsafe.Sizeof(b))
	for _, b := range bars {
		n += readcache.StringBytes(b.Code, b.TradeDate, b.Source)
	}
	return n
}

func stepsWeight(steps []ashare.Step) int {
	var st ashare.Step
	n := int(unsafe.Sizeof(steps)) + cap(steps)*int(unsafe.Sizeof(st))
	for _, st := range steps {
		n += len(st.Date)
	}
	return n
}
