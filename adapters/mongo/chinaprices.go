package mongo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// Collections of the China prices dataset. Bars are stored in buckets, one
// document per listing and calendar year, _id "SSE.600519|2022", holding
// every version of every bar of that year (about 250 trading days, a few
// tens of kilobytes), and one series document per listing, _id its code,
// naming the years it has buckets for and holding its adjustment steps. A
// page for a code and date range reads the series document and the buckets
// of the years the range touches, each by _id, and nothing else.
//
// Why buckets and not a document per bar: FerretDB 1.24 on SQLite pushes
// only an {_id: <string>} equality filter down to SQL. An _id equality
// decodes one document (SQLite scans the table), while an _id range
// ($gte/$lt), an _id $in and a filter on a compound {code, trade_date}
// index each decoded the whole collection in Go, and the index was never
// used (explain shows a SCAN; the figures are in docs/benchmarks.md,
// "Figures behind the design").
// One document per bar would make the full A-share history (about 25
// million bars) a 25-million-document scan per page on FerretDB; buckets
// make it about 130,000 documents read by _id. On MongoDB both _id lookups
// are index seeks.
const (
	priceSeriesCollection  = "china_price_series"
	priceBucketsCollection = "china_price_bars"
)

// ChinaPrices is the China A-share daily bars store.
//
// Given a ReadCache (NewCachedChinaPrices), it keeps what Bars reads: each
// listing's series document and each year bucket's versions, unpacked
// (about 250 bars, some 40 kB, a bucket), so that a page is cut in memory
// for any date range, offset and as-of time, and a miss reads only the
// buckets of the years the page reaches, as an uncached read does. The
// shared budget bounds how many are kept. A write by this store forgets
// the series and the buckets it wrote; one by another process (quarry
// ingest) is seen once the entries' TTL has passed. UpdateSeries and
// Versions always read the store.
type ChinaPrices struct {
	series  *mongodrv.Collection
	buckets *mongodrv.Collection
	// locks serialise UpdateSeries of one code within this process.
	locks sync.Map

	// heads and years cache what Bars reads (nil: nothing): the series
	// document by code (one element), a bucket's versions by bucket _id.
	heads *readcache.Slices[seriesDoc]
	years *readcache.Slices[ashare.Bar]
}

var _ ports.ChinaPriceStore = (*ChinaPrices)(nil)

// NewChinaPrices returns the prices store of db.
func NewChinaPrices(db *mongodrv.Database) *ChinaPrices {
	return NewCachedChinaPrices(db, nil)
}

// NewCachedChinaPrices returns the prices store of db, keeping what Bars
// reads in cache (nothing when cache is nil).
func NewCachedChinaPrices(db *mongodrv.Database, cache *readcache.Cache) *ChinaPrices {
	return &ChinaPrices{series: db.Collection(priceSeriesCollection), buckets: db.Collection(priceBucketsCollection),
		heads: readcache.NewSlices(cache, seriesBytes), years: readcache.NewSlices(cache, barBytes)}
}

// seriesBytes and barBytes weigh what a cached series document and bar
// hold beyond their own size.
func seriesBytes(d seriesDoc) int {
	var st stepDoc
	n := len(d.Code) + cap(d.Years)*int(unsafe.Sizeof(0)) + cap(d.Steps)*int(unsafe.Sizeof(st))
	for _, st := range d.Steps {
		n += len(st.Date)
	}
	return n
}

func barBytes(b ashare.Bar) int { return readcache.StringBytes(b.Code, b.TradeDate, b.Source) }

type seriesDoc struct {
	Code  string    `bson:"_id"`
	Years []int     `bson:"years"`
	Steps []stepDoc `bson:"steps"`
}

type stepDoc struct {
	Date    string    `bson:"d"`
	Ratio   float64   `bson:"r"`
	KnownAt time.Time `bson:"k"`
}

// bucketDoc is a year's bars. A bucket is written packed (packed.go), about
// 250 bar documents of 10 fields each in one binary field. Buckets written
// before packing hold Bars and are read as they are until the listing is
// next updated.
type bucketDoc struct {
	ID     string   `bson:"_id"`
	Bars   []barDoc `bson:"bars,omitempty"`
	Packed []byte   `bson:"b,omitempty"`
}

type barsBody struct {
	Bars []barDoc `bson:"bars"`
}

// packBucket returns the bucket of a year's bars, packed.
func packBucket(id string, bars []barDoc) (bucketDoc, error) {
	b, err := packBSON(barsBody{Bars: bars})
	if err != nil {
		return bucketDoc{}, fmt.Errorf("mongo: pack price bucket %s: %w", id, err)
	}
	return bucketDoc{ID: id, Packed: b}, nil
}

// bars returns the bucket's bars, packed or not.
func (d bucketDoc) bars() ([]barDoc, error) {
	if d.Packed == nil {
		return d.Bars, nil
	}
	var body barsBody
	if err := unpackBSON(d.Packed, &body); err != nil {
		return nil, fmt.Errorf("mongo: unpack price bucket %s: %w", d.ID, err)
	}
	return body.Bars, nil
}

// barDoc is one stored bar version; the code is the bucket's.
type barDoc struct {
	Date     string    `bson:"d"`
	Open     float64   `bson:"o"`
	High     float64   `bson:"h"`
	Low      float64   `bson:"l"`
	Close    float64   `bson:"c"`
	PreClose float64   `bson:"p"`
	Volume   int64     `bson:"v"`
	Amount   float64   `bson:"a"`
	Source   string    `bson:"src"`
	KnownAt  time.Time `bson:"k"`
}

func bucketID(code string, year int) string { return code + "|" + strconv.Itoa(year) }

func yearOf(date string) int {
	y, _ := strconv.Atoi(date[:4])
	return y
}

func toBarDoc(b ashare.Bar) barDoc {
	return barDoc{Date: b.TradeDate, Open: b.Open, High: b.High, Low: b.Low, Close: b.Close, PreClose: b.PreClose,
		Volume: b.Volume, Amount: b.Amount, Source: b.Source, KnownAt: b.KnownAt.UTC().Truncate(time.Millisecond)}
}

func (d barDoc) bar(code string) ashare.Bar {
	return ashare.Bar{Code: code, TradeDate: d.Date, Open: d.Open, High: d.High, Low: d.Low, Close: d.Close, PreClose: d.PreClose,
		Volume: d.Volume, Amount: d.Amount, Source: d.Source, KnownAt: d.KnownAt.UTC()}
}

func compareBarDoc(a, b barDoc) int {
	if c := strings.Compare(a.Date, b.Date); c != 0 {
		return c
	}
	return a.KnownAt.Compare(b.KnownAt)
}

// seriesOf returns the code's series document, found reporting whether it
// exists.
func (s *ChinaPrices) seriesOf(ctx context.Context, code string) (seriesDoc, bool, error) {
	var d seriesDoc
	err := s.series.FindOne(ctx, bson.D{{Key: "_id", Value: code}}).Decode(&d)
	if err != nil {
		if errors.Is(err, mongodrv.ErrNoDocuments) {
			return d, false, nil
		}
		return d, false, translate("find price series "+code, err)
	}
	return d, true, nil
}

// bucket returns a year's versions of the code, in order.
func (s *ChinaPrices) bucket(ctx context.Context, code string, year int) ([]barDoc, error) {
	var d bucketDoc
	err := s.buckets.FindOne(ctx, bson.D{{Key: "_id", Value: bucketID(code, year)}}).Decode(&d)
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, translate("find price bucket "+bucketID(code, year), err)
	}
	return d.bars()
}

// cachedSeries is seriesOf through the cache.
func (s *ChinaPrices) cachedSeries(ctx context.Context, code string) (seriesDoc, bool, error) {
	got, err := s.heads.Get(ctx, code, func(ctx context.Context) ([]seriesDoc, error) {
		d, found, err := s.seriesOf(ctx, code)
		if err != nil || !found {
			return nil, err
		}
		return []seriesDoc{d}, nil
	})
	if err != nil || len(got) == 0 {
		return seriesDoc{}, false, err
	}
	return got[0], true, nil
}

// cachedBucket returns a year's versions of the code as bars, in order,
// through the cache. The slice is shared: the caller must not change it.
func (s *ChinaPrices) cachedBucket(ctx context.Context, code string, year int) ([]ashare.Bar, error) {
	return s.years.Get(ctx, bucketID(code, year), func(ctx context.Context) ([]ashare.Bar, error) {
		docs, err := s.bucket(ctx, code, year)
		if err != nil {
			return nil, err
		}
		versions := make([]ashare.Bar, len(docs))
		for i, d := range docs {
			versions[i] = d.bar(code)
		}
		return versions, nil
	})
}

// held reads the code's series document and every one of its year
// buckets: the buckets by year, and every version in trade date then
// KnownAt order.
func (s *ChinaPrices) held(ctx context.Context, code string) (seriesDoc, map[int][]barDoc, []ashare.Bar, error) {
	series, _, err := s.seriesOf(ctx, code)
	if err != nil {
		return seriesDoc{}, nil, nil, err
	}
	buckets := map[int][]barDoc{}
	var held []ashare.Bar
	for _, y := range series.Years {
		docs, err := s.bucket(ctx, code, y)
		if err != nil {
			return seriesDoc{}, nil, nil, err
		}
		buckets[y] = docs
		for _, d := range docs {
			held = append(held, d.bar(code))
		}
	}
	return series, buckets, held, nil
}

// Versions returns every version held for code, reading every year bucket.
func (s *ChinaPrices) Versions(ctx context.Context, code string) ([]ashare.Bar, error) {
	_, _, held, err := s.held(ctx, code)
	return held, err
}

// UpdateSeries reads every bucket of the code, runs change, and writes the
// buckets it adds to with ordered bulk writes (32 buckets, several thousand
// bars, per command: see bulkChunk), then the series document. Buckets go
// first, so a reader never sees a year the series names without its
// bucket. Updates of one code are serialised within this process only;
// there is no transaction (FerretDB has none), so two processes ingesting
// the same listing at once may lose one's versions, and a failed update
// may leave buckets written and the steps stale until it is run again,
// which completes it.
func (s *ChinaPrices) UpdateSeries(ctx context.Context, code string, change func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error)) error {
	mu, _ := s.locks.LoadOrStore(code, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	series, buckets, held, err := s.held(ctx, code)
	if err != nil {
		return err
	}
	add, steps, err := change(held)
	if err != nil {
		return err
	}
	if len(add) == 0 && len(series.Years) == 0 {
		return nil
	}
	changed := map[int]bool{}
	// Forgotten even when a write fails: it may have applied in part.
	defer func() {
		s.heads.Forget(code)
		for y := range changed {
			s.years.Forget(bucketID(code, y))
		}
	}()
	for _, b := range add {
		d, y := toBarDoc(b), yearOf(b.TradeDate)
		i, found := slices.BinarySearchFunc(buckets[y], d, compareBarDoc)
		if found {
			buckets[y][i] = d
		} else {
			buckets[y] = slices.Insert(buckets[y], i, d)
		}
		changed[y] = true
	}
	var models []mongodrv.WriteModel
	for _, y := range slices.Sorted(func(yield func(int) bool) {
		for y := range changed {
			if !yield(y) {
				return
			}
		}
	}) {
		d, err := packBucket(bucketID(code, y), buckets[y])
		if err != nil {
			return err
		}
		models = append(models, mongodrv.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: d.ID}}).
			SetReplacement(d).SetUpsert(true))
	}
	if err := bulkWrite(ctx, s.buckets, "write price buckets of "+code, models); err != nil {
		return err
	}
	next := seriesDoc{Code: code, Steps: make([]stepDoc, len(steps))}
	for y := range buckets {
		next.Years = append(next.Years, y)
	}
	slices.Sort(next.Years)
	for i, st := range steps {
		next.Steps[i] = stepDoc{Date: st.Date, Ratio: st.Ratio, KnownAt: st.KnownAt.UTC().Truncate(time.Millisecond)}
	}
	_, err = s.series.ReplaceOne(ctx, bson.D{{Key: "_id", Value: code}}, next, options.Replace().SetUpsert(true))
	return translate("write price series "+code, err)
}

// Bars reads the buckets of the years q's range touches, oldest first, and
// stops once the page and one more bar are found.
func (s *ChinaPrices) Bars(ctx context.Context, q ports.BarQuery) ([]ashare.Bar, bool, error) {
	series, found, err := s.cachedSeries(ctx, q.Code)
	if err != nil || !found {
		return nil, false, err
	}
	var readErr error
	visible := func(yield func(ashare.Bar) bool) {
		for _, y := range series.Years {
			if (q.From != "" && y < yearOf(q.From)) || (q.To != "" && y > yearOf(q.To)) {
				continue
			}
			versions, err := s.cachedBucket(ctx, q.Code, y)
			if err != nil {
				readErr = err
				return
			}
			for b := range ashare.Visible(versions, q.From, q.To, q.AsOf) {
				if !yield(b) {
					return
				}
			}
		}
	}
	page, more := ashare.Page(visible, q.Offset, q.Limit)
	if readErr != nil {
		return nil, false, readErr
	}
	return page, more, nil
}

// Steps returns the code's steps from its series document.
func (s *ChinaPrices) Steps(ctx context.Context, code string) ([]ashare.Step, error) {
	series, found, err := s.seriesOf(ctx, code)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("mongo: price series %s: %w", code, ports.ErrNotFound)
	}
	out := make([]ashare.Step, len(series.Steps))
	for i, st := range series.Steps {
		out[i] = ashare.Step{Date: st.Date, Ratio: st.Ratio, KnownAt: st.KnownAt.UTC()}
	}
	return out, nil
}

// CountSeries returns how many listings have bars.
func (s *ChinaPrices) CountSeries(ctx context.Context) (int64, error) {
	n, err := s.series.CountDocuments(ctx, bson.D{})
	if err != nil {
		return 0, translate("count price series", err)
	}
	return n, nil
}
