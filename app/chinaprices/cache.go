package chinaprices

import (
	"context"
	"slices"

	"github.com/quarrydata/quarry/app/readcache"

	"unsafe"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// ChinaPriceCache is a read-through cache in front of a ChinaPriceStore.
// Steps change only when a file is ingested and every page reads them, so
// a listing's steps are kept here. Pages are not: a cache of pages would
// have to read a listing's whole history on a miss (every version, so that
// one entry serves every range and as-of time), and at the size of the
// A-share universe a lookup of a random listing is a miss. On MongoDB the
// store keeps the series documents and year buckets it reads itself
// (mongo.NewCachedChinaPrices), so a miss reads only the buckets of the
// years a page reaches.
//
// A write through this cache forgets the listing written; a write by
// another process (quarry ingest) is seen once the entry's TTL has passed.
type Cache struct {
	ports.ChinaPriceStore
	steps *readcache.Space[[]ashare.Step]
}

var _ ports.ChinaPriceStore = (*Cache)(nil)

// NewChinaPriceCache wraps store, keeping steps in shared.
func NewCache(store ports.ChinaPriceStore, shared *readcache.Cache) *Cache {
	return &Cache{ChinaPriceStore: store, steps: readcache.NewSpace(shared, stepsWeight)}
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
	c.steps.Forget(code)
	return err
}

func stepsWeight(steps []ashare.Step) int {
	var st ashare.Step
	n := int(unsafe.Sizeof(steps)) + cap(steps)*int(unsafe.Sizeof(st))
	for _, st := range steps {
		n += len(st.Date)
	}
	return n
}
