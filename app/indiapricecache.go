package app

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"time"

	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
)

// IndiaPriceCache is a read-through cache in front of an IndiaPriceStore.
// Rows change only when a file is ingested, and on MongoDB a page reads
// index documents and year buckets, each taking milliseconds on FerretDB.
// The cache keeps what those reads return: each series' years, each
// (ISIN, series, year) bucket's versions, and the buckets carrying each
// symbol; Rows, Holds and ISINOf are answered from them in memory, for any
// date range and as-of time. A bucket holds about 250 versions, so an
// entry is some tens of kilobytes and the shared budget bounds how many
// are kept.
//
// A write through this cache forgets the series, buckets and symbols it
// wrote; a write by another process (quarry ingest) is seen once the
// entries' TTL has passed.
type IndiaPriceCache struct {
	ports.IndiaPriceStore
	years    *cacheSpace[[]int]
	buckets  *cacheSpace[[]nse.Row]
	carrying *cacheSpace[[]ports.IndiaBucket]
}

var _ ports.IndiaPriceStore = (*IndiaPriceCache)(nil)

// NewIndiaPriceCache wraps store, keeping what it reads in shared.
func NewIndiaPriceCache(store ports.IndiaPriceStore, shared *ReadCache) *IndiaPriceCache {
	return &IndiaPriceCache{IndiaPriceStore: store, years: newCacheSpace(shared, intsWeight),
		buckets: newCacheSpace(shared, rowsWeight), carrying: newCacheSpace(shared, indiaBucketsWeight)}
}

func indiaSeriesKey(isin, series string) string { return isin + "|" + series }

func indiaBucketKey(b ports.IndiaBucket) string {
	return indiaSeriesKey(b.ISIN, b.Series) + "|" + strconv.Itoa(b.Year)
}

// unlessEmpty wraps a load so that an empty result is errNoRows, a miss,
// which is not cached: what another process ingests first is then read on
// the next request rather than after the TTL.
func unlessEmpty[V any](load func(context.Context) ([]V, error)) func(context.Context, string) ([]V, error) {
	return func(ctx context.Context, _ string) ([]V, error) {
		got, err := load(ctx)
		if err == nil && len(got) == 0 {
			err = errNoRows
		}
		return got, err
	}
}

// held returns what get returned, nothing for errNoRows.
func held[V any](got []V, err error) ([]V, error) {
	if errors.Is(err, errNoRows) {
		return nil, nil
	}
	return got, err
}

// Years returns the series' years, from the cache while they are fresh.
func (c *IndiaPriceCache) Years(ctx context.Context, isin, series string) ([]int, error) {
	years, err := c.years.get(ctx, indiaSeriesKey(isin, series), unlessEmpty(func(ctx context.Context) ([]int, error) {
		return c.IndiaPriceStore.Years(ctx, isin, series)
	}))
	return held(slices.Clone(years), err)
}

// YearVersions returns the bucket's versions, from the cache while they
// are fresh.
func (c *IndiaPriceCache) YearVersions(ctx context.Context, b ports.IndiaBucket) ([]nse.Row, error) {
	rows, err := c.yearVersions(ctx, b)
	return slices.Clone(rows), err
}

// yearVersions is YearVersions sharing the cached slice, which the caller
// must not change.
func (c *IndiaPriceCache) yearVersions(ctx context.Context, b ports.IndiaBucket) ([]nse.Row, error) {
	return held(c.buckets.get(ctx, indiaBucketKey(b), unlessEmpty(func(ctx context.Context) ([]nse.Row, error) {
		return c.IndiaPriceStore.YearVersions(ctx, b)
	})))
}

// Carrying returns the buckets carrying symbol, from the cache while they
// are fresh.
func (c *IndiaPriceCache) Carrying(ctx context.Context, symbol string) ([]ports.IndiaBucket, error) {
	buckets, err := c.bucketsCarrying(ctx, symbol)
	return slices.Clone(buckets), err
}

// bucketsCarrying is Carrying sharing the cached slice, which the caller must not
// change.
func (c *IndiaPriceCache) bucketsCarrying(ctx context.Context, symbol string) ([]ports.IndiaBucket, error) {
	return held(c.carrying.get(ctx, symbol, unlessEmpty(func(ctx context.Context) ([]ports.IndiaBucket, error) {
		return c.IndiaPriceStore.Carrying(ctx, symbol)
	})))
}

// Rows yields the visible rows of the years the range touches, from the
// cached buckets.
func (c *IndiaPriceCache) Rows(ctx context.Context, q ports.IndiaRowQuery) iter.Seq2[nse.Row, error] {
	versions := func(yield func(nse.Row, error) bool) {
		years, err := c.Years(ctx, q.ISIN, q.Series)
		if err != nil {
			yield(nse.Row{}, err)
			return
		}
		for _, y := range years {
			if (q.From != "" && y < yearOfDate(q.From)) || (q.To != "" && y > yearOfDate(q.To)) {
				continue
			}
			rows, err := c.yearVersions(ctx, ports.IndiaBucket{ISIN: q.ISIN, Series: q.Series, Year: y})
			if err != nil {
				yield(nse.Row{}, err)
				return
			}
			for _, v := range rows {
				if (q.From == "" || v.Date >= q.From) && (q.To == "" || v.Date <= q.To) && !yield(v, nil) {
					return
				}
			}
		}
	}
	return nse.Visible(versions, q.AsOf)
}

// Holds reports whether the series has years, from the cache.
func (c *IndiaPriceCache) Holds(ctx context.Context, isin, series string) (bool, error) {
	years, err := c.Years(ctx, isin, series)
	return len(years) > 0, err
}

// ISINOf reads the buckets carrying symbol, latest year first, until a
// year has a version that matches; ties on the date go to the smaller
// ISIN.
func (c *IndiaPriceCache) ISINOf(ctx context.Context, symbol, series, onOrBefore string, asOf time.Time) (string, error) {
	buckets, err := c.bucketsCarrying(ctx, symbol)
	if err != nil {
		return "", err
	}
	last := yearOfDate(onOrBefore)
	match := nse.SymbolMatch{Symbol: symbol, OnOrBefore: onOrBefore, AsOf: asOf}
	for _, b := range slices.Backward(buckets) {
		if b.Year > last || (series != "" && b.Series != series) {
			continue
		}
		if match.Found() && b.Year < yearOfDate(match.Best.Date) {
			break
		}
		rows, err := c.yearVersions(ctx, b)
		if err != nil {
			return "", err
		}
		for _, r := range rows {
			match.Offer(r)
		}
	}
	if !match.Found() {
		return "", fmt.Errorf("india prices: the ISIN of symbol %s: %w", symbol, ports.ErrNotFound)
	}
	return match.Best.ISIN, nil
}

// Add writes through, then forgets the series, buckets and symbols of the
// rows.
func (c *IndiaPriceCache) Add(ctx context.Context, rows []nse.Row) error {
	err := c.IndiaPriceStore.Add(ctx, rows)
	// Forgotten even when the write failed: it may have applied in part.
	seen := map[string]bool{}
	for _, r := range rows {
		b := ports.IndiaBucket{ISIN: r.ISIN, Series: r.Series, Year: yearOfDate(r.Date)}
		if k := indiaBucketKey(b) + "|" + r.Symbol; !seen[k] {
			seen[k] = true
			c.years.forget(indiaSeriesKey(r.ISIN, r.Series))
			c.buckets.forget(indiaBucketKey(b))
			c.carrying.forget(r.Symbol)
		}
	}
	return err
}

// yearOfDate reads the year of a YYYY-MM-DD date; 0 for anything shorter.
func yearOfDate(date string) int {
	if len(date) < 4 {
		return 0
	}
	y, _ := strconv.Atoi(date[:4])
	return y
}
