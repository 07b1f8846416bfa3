package chinaprices

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// ChinaPricesSource is the provenance source named in responses.
const Source = "Mainland exchange daily bars, from vendor files (Tushare daily, AKShare stock_zh_a_hist)"

// ChinaPricesVersion is the normalization version of served bars: units
// converted to shares and CNY, change and pct_change recomputed from
// close and pre_close, adjustment steps derived from pre_close.
const Version = "cn-daily-bars-2026-07-20.1"

// ChinaPrices serves point-in-time A-share daily bars.
type Service struct {
	store ports.ChinaPriceStore
	now   usecase.Clock
}

// NewChinaPrices wires the China prices use cases.
func New(s ports.ChinaPriceStore, now usecase.Clock) *Service {
	return &Service{store: s, now: now}
}

// PricesParams are the raw query parameters of GET /china/prices; Limit
// and Offset are already bounded by the caller.
type Params struct {
	Code, StartDate, EndDate, AsOf, Adjust string
	Limit, Offset                          int
}

// PricesQuery is a validated request for bars.
type Query struct {
	Code          ashare.Code
	From, To      string
	AsOf          time.Time
	Adjust        ashare.Adjust
	Limit, Offset int
}

// Query validates the parameters: a missing or malformed value is
// ErrValidation, a start_date after end_date ErrInvalidRequest.
func (c *Service) Query(p Params) (Query, error) {
	q := Query{Limit: p.Limit, Offset: p.Offset}
	if p.Code == "" {
		return q, fmt.Errorf("%w: code is required, for example SSE.600519 or 600519.SH", usecase.ErrValidation)
	}
	var err error
	if q.Code, err = ashare.ParseAlias(p.Code); err != nil {
		return q, usecase.RefuseCode(p.Code, err)
	}
	if q.Adjust, err = ashare.ParseAdjust(p.Adjust); err != nil {
		return q, fmt.Errorf("%w: %w", usecase.ErrValidation, err)
	}
	if q.AsOf, err = usecase.ParseAsOf(p.AsOf, c.now()); err != nil {
		return q, err
	}
	if _, ok, err := usecase.ParseDate("start_date", p.StartDate); err != nil {
		return q, err
	} else if ok {
		q.From = p.StartDate
	}
	if _, ok, err := usecase.ParseDate("end_date", p.EndDate); err != nil {
		return q, err
	} else if ok {
		q.To = p.EndDate
	}
	if q.From != "" && q.To != "" && q.From > q.To {
		return q, fmt.Errorf("%w: start_date %s is after end_date %s", usecase.ErrInvalidRequest, q.From, q.To)
	}
	return q, nil
}

// PriceBar is a served bar: its prices multiplied by Factor, the
// adjustment factor applied (1 unadjusted). Volume and amount are never
// adjusted.
type Bar struct {
	ashare.Bar
	Factor float64
	// Change is the adjusted close minus the adjusted reference previous
	// close; PctChange is the same whatever the adjustment, as both scale
	// by one factor, and is computed from the prices as traded.
	Change, PctChange float64
}

// PricesPage is one page of bars and whether another follows.
type Page struct {
	Bars        []Bar
	More        bool
	AsOf        time.Time
	RetrievedAt time.Time
}

// Prices returns a page of the listing's bars known at q.AsOf, oldest
// first, adjusted as asked. A code with no bars at all is
// ports.ErrNotFound; one whose bars were all unknown at q.AsOf has an
// empty page.
func (c *Service) Prices(ctx context.Context, q Query) (Page, error) {
	steps, err := c.store.Steps(ctx, q.Code.String())
	if errors.Is(err, ports.ErrNotFound) {
		return Page{}, fmt.Errorf("%w: no daily bars are held for %s", ports.ErrNotFound, q.Code)
	}
	if err != nil {
		return Page{}, err
	}
	bars, more, err := c.store.Bars(ctx, ports.BarQuery{Code: q.Code.String(), From: q.From, To: q.To, AsOf: q.AsOf, Offset: q.Offset, Limit: q.Limit})
	if err != nil {
		return Page{}, err
	}
	factors := ashare.FactorsAt(steps, q.AsOf)
	page := Page{Bars: make([]Bar, len(bars)), More: more, AsOf: q.AsOf}
	for i, b := range bars {
		f := factors.Factor(q.Adjust, b.TradeDate)
		pct := b.PctChange()
		if f != 1 {
			b.Open, b.High, b.Low = ashare.Round4(b.Open*f), ashare.Round4(b.High*f), ashare.Round4(b.Low*f)
			b.Close, b.PreClose = ashare.Round4(b.Close*f), ashare.Round4(b.PreClose*f)
		}
		page.Bars[i] = Bar{Bar: b, Factor: f, Change: b.Change(), PctChange: pct}
		if b.KnownAt.After(page.RetrievedAt) {
			page.RetrievedAt = b.KnownAt
		}
	}
	if page.RetrievedAt.IsZero() {
		page.RetrievedAt = q.AsOf
	}
	return page, nil
}

// IngestResult says what an ingestion changed.
type IngestResult struct {
	// Listings is how many listings' histories were updated (by IngestEach,
	// a code once for each batch holding its bars); Added how many bar
	// versions were stored; Unchanged how many bars repeated the version
	// already in effect at their KnownAt and were not stored again.
	Listings, Added, Unchanged int
}

// IngestBatchBytes is the batchBytes of IngestEach for a run of files:
// it bounds the bars one batch holds, as barBytes weighs them: about 50,000 bars, a few years of every code or
// 20 years of a few codes, so memory stays flat however many files a run
// reads.
const IngestBatchBytes = 8 << 20

// IngestEach stores the bars of each file files yields, a batch at a time:
// once the bars gathered weigh batchBytes they are stored (Ingest)
// and released, so a run holds one batch however many files it reads. A
// code whose bars span the files of several batches (Tushare's daily
// files hold every code of one day) is updated once in each. It stops at
// the first error files yields, after storing the batches before it and
// nothing of the one it stops in; since bars held already add nothing,
// running it again once the file is fixed completes the run.
func (c *Service) IngestEach(ctx context.Context, files iter.Seq2[[]ashare.Bar, error], batchBytes int) (IngestResult, error) {
	var res IngestResult
	var batch []ashare.Bar
	weight := 0
	flush := func() error {
		got, err := c.Ingest(ctx, batch)
		res.Listings, res.Added, res.Unchanged = res.Listings+got.Listings, res.Added+got.Added, res.Unchanged+got.Unchanged
		clear(batch) // the stored bars' strings are garbage now
		batch, weight = batch[:0], 0
		return err
	}
	for bars, err := range files {
		if err != nil {
			return res, err
		}
		batch = append(batch, bars...)
		for _, b := range bars {
			weight += barBytes(b)
		}
		if weight >= batchBytes {
			if err := flush(); err != nil {
				return res, err
			}
		}
	}
	return res, flush()
}

// barBytes weighs a bar as memory holds it.
func barBytes(b ashare.Bar) int {
	return int(unsafe.Sizeof(b)) + len(b.Code) + len(b.TradeDate) + len(b.Source)
}

// Ingest stores bars read from source files (see adapters/ashareprices),
// listing by listing. A bar whose figures equal the version in effect at
// its KnownAt adds nothing, so ingesting a file twice, or a copy of it
// retrieved later, changes nothing; a bar with other figures is a new
// version, served from its KnownAt on. Each listing's steps are derived
// again from all its versions.
func (c *Service) Ingest(ctx context.Context, bars []ashare.Bar) (IngestResult, error) {
	byCode := map[string][]ashare.Bar{}
	for _, b := range bars {
		byCode[b.Code] = append(byCode[b.Code], b)
	}
	var res IngestResult
	for _, code := range slices.Sorted(func(yield func(string) bool) {
		for k := range byCode {
			if !yield(k) {
				return
			}
		}
	}) {
		incoming := byCode[code]
		// In date order, a date's versions in the order read.
		slices.SortStableFunc(incoming, func(a, b ashare.Bar) int { return strings.Compare(a.TradeDate, b.TradeDate) })
		var added, same int
		err := c.store.UpdateSeries(ctx, code, func(held []ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
			added, same = 0, 0
			all := slices.Clone(held)
			byDate := map[string][]ashare.Bar{}
			for _, v := range held {
				byDate[v.TradeDate] = append(byDate[v.TradeDate], v)
			}
			var add []ashare.Bar
			for _, b := range incoming {
				if inEffect(byDate[b.TradeDate], b) {
					same++
					continue
				}
				add = append(add, b)
				all = append(all, b)
				byDate[b.TradeDate] = append(byDate[b.TradeDate], b)
				added++
			}
			return add, ashare.Steps(all), nil
		})
		if err != nil {
			return res, fmt.Errorf("store bars of %s: %w", code, err)
		}
		res.Listings++
		res.Added += added
		res.Unchanged += same
	}
	return res, nil
}

// inEffect reports whether versions (of b's trade date) already hold b's
// figures in effect at b's KnownAt: the latest version known by then has
// the same figures.
func inEffect(versions []ashare.Bar, b ashare.Bar) bool {
	var cur *ashare.Bar
	for i := range versions {
		v := &versions[i]
		if v.KnownAt.After(b.KnownAt) {
			continue
		}
		if cur == nil || v.KnownAt.After(cur.KnownAt) {
			cur = v
		}
	}
	return cur != nil && cur.SameValues(b)
}

// Probe reports whether any listing has bars.
func (c *Service) Probe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.ChinaPrices, Probe: func(ctx context.Context) (bool, error) {
		n, err := c.store.CountSeries(ctx)
		return n > 0, err
	}}
}
