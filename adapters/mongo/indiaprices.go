package mongo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
)

// Collections of the India prices dataset. Every read is a find by _id
// equality, the one filter FerretDB 1.24 on SQLite pushes down to SQL (see
// the note on ChinaPrices: any other filter decodes the whole collection in
// Go, which took 1 to 3 s per request on the 31,000-row sample when India
// kept a document per row and read _id ranges and secondary indexes).
//
//   - india_price_years: a bucket per security, series and calendar year,
//     _id "INE002A01018|EQ|2021", holding every version of that year in
//     date then KnownAt order (about 250 trading days, some 30 kB). A page
//     or a CSV stream reads the years its range touches one at a time.
//   - india_price_series: a document per security and series, _id
//     "INE002A01018|EQ", naming its years and how many versions each
//     holds: Rows reads it first, Holds reads it alone, Count adds it up.
//   - india_price_days: a document per trading day, _id "2021-06-04",
//     holding every version of that day of every security (about 3,000
//     rows, some 400 kB): OnDate, which ingestion compares a file with.
//   - india_price_symbols: a document per NSE symbol, _id "RELIANCE",
//     naming each (ISIN, series, year) whose bucket holds a version
//     carrying it: ISINOf reads it, then those buckets of the latest years.
//
// A row is thus stored twice, in its security's year and in its day.
const (
	indiaBucketsCollection = "india_price_years"
	indiaSeriesCollection  = "india_price_series"
	indiaDaysCollection    = "india_price_days"
	indiaSymbolsCollection = "india_price_symbols"
)

// IndiaPrices is the NSE daily rows store.
//
// Add merges new versions into the documents they belong to and writes
// only the documents that change: new ones in one unordered InsertMany per
// collection, changed ones by replacements in chunks (bulkChunk); adding
// rows already held writes nothing. It writes buckets, then series, then
// symbols, then days, and ingestion reads days to decide what is new, so a
// batch that failed part way (there are no transactions on FerretDB) is
// completed by adding it again. Writes of one store are serialised; the
// series and symbol documents, which a write merges into, are read once at
// the first write and kept up to date with this store's writes (see
// readOnce on the limits of that), so a write reads only the buckets and
// days it adds to.
type IndiaPrices struct {
	buckets, series, days, symbols *mongodrv.Collection

	mu sync.Mutex
	// loaded says heldSeries and heldSymbols hold the stored series and
	// symbol documents, as of the first write plus this store's writes.
	loaded      bool
	heldSeries  map[string]indiaSeriesDoc
	heldSymbols map[string]indiaSymbolDoc
}

var _ ports.IndiaPriceStore = (*IndiaPrices)(nil)

// NewIndiaPrices returns the India prices store of db.
func NewIndiaPrices(db *mongodrv.Database) *IndiaPrices {
	return &IndiaPrices{buckets: db.Collection(indiaBucketsCollection), series: db.Collection(indiaSeriesCollection),
		days: db.Collection(indiaDaysCollection), symbols: db.Collection(indiaSymbolsCollection)}
}

// indiaVersionDoc is one stored row version. In a bucket, ISIN and series
// are the bucket's and left empty.
type indiaVersionDoc struct {
	ISIN      string    `bson:"i,omitempty"`
	Series    string    `bson:"s,omitempty"`
	Date      string    `bson:"d"`
	Symbol    string    `bson:"y"`
	Open      float64   `bson:"o"`
	High      float64   `bson:"h"`
	Low       float64   `bson:"l"`
	Close     float64   `bson:"c"`
	Last      float64   `bson:"lp"`
	PrevClose float64   `bson:"p"`
	Volume    int64     `bson:"v"`
	Turnover  float64   `bson:"t"`
	Trades    int64     `bson:"n"`
	Source    string    `bson:"src"`
	KnownAt   time.Time `bson:"k"`
}

// indiaRowsDoc is a bucket or a day: versions under one _id.
type indiaRowsDoc struct {
	ID   string            `bson:"_id"`
	Rows []indiaVersionDoc `bson:"rows"`
}

// indiaSeriesDoc names the years of one security and series.
type indiaSeriesDoc struct {
	ID    string         `bson:"_id"`
	Years []indiaYearDoc `bson:"years"`
}

// indiaYearDoc is one year of a series and how many versions it holds.
type indiaYearDoc struct {
	Year     int   `bson:"y"`
	Versions int64 `bson:"n"`
}

// indiaSymbolDoc names the buckets holding versions that carry a symbol.
type indiaSymbolDoc struct {
	ID   string           `bson:"_id"`
	Held []indiaHolderDoc `bson:"held"`
}

// indiaHolderDoc is one bucket holding a symbol.
type indiaHolderDoc struct {
	ISIN   string `bson:"i"`
	Series string `bson:"s"`
	Year   int    `bson:"y"`
}

func indiaSeriesID(isin, series string) string { return isin + "|" + series }

func indiaBucketID(isin, series string, year int) string {
	return indiaSeriesID(isin, series) + "|" + strconv.Itoa(year)
}

func toIndiaVersion(r nse.Row) indiaVersionDoc {
	return indiaVersionDoc{ISIN: r.ISIN, Series: r.Series, Date: r.Date, Symbol: r.Symbol,
		Open: r.Open, High: r.High, Low: r.Low, Close: r.Close, Last: r.Last, PrevClose: r.PrevClose,
		Volume: r.Volume, Turnover: r.Turnover, Trades: r.Trades, Source: r.Source,
		KnownAt: r.KnownAt.UTC().Truncate(time.Millisecond)}
}

func (d indiaVersionDoc) row() nse.Row {
	return nse.Row{Symbol: d.Symbol, Series: d.Series, ISIN: d.ISIN, Date: d.Date, Open: d.Open, High: d.High, Low: d.Low,
		Close: d.Close, Last: d.Last, PrevClose: d.PrevClose, Volume: d.Volume, Turnover: d.Turnover, Trades: d.Trades,
		Source: d.Source, KnownAt: d.KnownAt.UTC()}
}

// compareIndiaVersion orders versions as they are kept: by ISIN, series,
// date and KnownAt; two versions comparing equal are one version.
func compareIndiaVersion(a, b indiaVersionDoc) int {
	return cmp.Or(cmp.Compare(a.ISIN, b.ISIN), cmp.Compare(a.Series, b.Series), cmp.Compare(a.Date, b.Date),
		a.KnownAt.Compare(b.KnownAt))
}

// mergeVersions returns held with add merged in, in order, a version of
// add replacing the one held with the same key, and whether that changed
// anything. held is not modified.
func mergeVersions(held, add []indiaVersionDoc) ([]indiaVersionDoc, bool) {
	out := slices.Clone(held)
	changed := false
	for _, d := range add {
		i, found := slices.BinarySearchFunc(out, d, compareIndiaVersion)
		switch {
		case !found:
			out = slices.Insert(out, i, d)
		case out[i] == d:
			continue
		default:
			out[i] = d
		}
		changed = true
	}
	return out, changed
}

// findByID reads the document stored under id, reporting whether there is
// one.
func findByID[T any](ctx context.Context, c *mongodrv.Collection, id string) (T, bool, error) {
	var d T
	err := c.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return d, false, nil
	}
	if err != nil {
		return d, false, translate("find "+c.Name()+" "+id, err)
	}
	return d, true, nil
}

// Add merges the versions into their buckets, series, symbols and days.
func (s *IndiaPrices) Add(ctx context.Context, rows []nse.Row) error {
	if len(rows) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(ctx); err != nil {
		return err
	}
	buckets, days := map[string][]indiaVersionDoc{}, map[string][]indiaVersionDoc{}
	for _, r := range rows {
		d := toIndiaVersion(r)
		id := indiaBucketID(r.ISIN, r.Series, yearOf(r.Date))
		inBucket := d
		inBucket.ISIN, inBucket.Series = "", ""
		buckets[id] = append(buckets[id], inBucket)
		days[r.Date] = append(days[r.Date], d)
	}
	for _, group := range []map[string][]indiaVersionDoc{buckets, days} {
		for _, docs := range group {
			slices.SortFunc(docs, compareIndiaVersion)
		}
	}
	counts, err := s.writeBuckets(ctx, buckets)
	if err != nil {
		return err
	}
	if err := s.writeSeries(ctx, counts); err != nil {
		return err
	}
	if err := s.writeSymbols(ctx, rows); err != nil {
		return err
	}
	return s.writeRows(ctx, s.days, "write india price days", days, nil)
}

// load reads every series and symbol document, once.
func (s *IndiaPrices) load(ctx context.Context) error {
	if s.loaded {
		return nil
	}
	series, err := readAll[indiaSeriesDoc](ctx, s.series)
	if err != nil {
		return translate("read india price series", err)
	}
	symbols, err := readAll[indiaSymbolDoc](ctx, s.symbols)
	if err != nil {
		return translate("read india price symbols", err)
	}
	s.heldSeries, s.heldSymbols = map[string]indiaSeriesDoc{}, map[string]indiaSymbolDoc{}
	for _, d := range series {
		s.heldSeries[d.ID] = d
	}
	for _, d := range symbols {
		s.heldSymbols[d.ID] = d
	}
	s.loaded = true
	return nil
}

// readAll reads every document of c.
func readAll[T any](ctx context.Context, c *mongodrv.Collection) ([]T, error) {
	cur, err := c.Find(ctx, bson.D{})
	if err != nil {
		return nil, err
	}
	var out []T
	err = cur.All(ctx, &out)
	return out, err
}

// writeBuckets merges versions into their buckets and returns, for each
// bucket it wrote, how many versions the bucket holds.
func (s *IndiaPrices) writeBuckets(ctx context.Context, buckets map[string][]indiaVersionDoc) (map[string]int, error) {
	counts := map[string]int{}
	held := func(id string) bool {
		isin, series, year := splitIndiaBucketID(id)
		_, ok := s.heldYear(indiaSeriesID(isin, series), year)
		return ok
	}
	err := s.writeRows(ctx, s.buckets, "write india price buckets", buckets, held, func(id string, n int) { counts[id] = n })
	return counts, err
}

// heldYear returns the year's entry of a series as this store knows it.
func (s *IndiaPrices) heldYear(seriesID string, year int) (indiaYearDoc, bool) {
	for _, y := range s.heldSeries[seriesID].Years {
		if y.Year == year {
			return y, true
		}
	}
	return indiaYearDoc{}, false
}

// splitIndiaBucketID reads "ISIN|SERIES|YYYY" back; neither an ISIN nor
// a series holds a "|".
func splitIndiaBucketID(id string) (isin, series string, year int) {
	at := strings.LastIndexByte(id, '|')
	isin, series, _ = strings.Cut(id[:at], "|")
	year, _ = strconv.Atoi(id[at+1:])
	return isin, series, year
}

// writeRows merges versions into the documents of c they belong to (by
// _id) and writes the documents that change. A document held reports
// false for is taken to be absent without reading it (nil: every one is
// read). Each document written is reported to wrote with its number of
// versions, when wrote is given.
func (s *IndiaPrices) writeRows(ctx context.Context, c *mongodrv.Collection, op string, add map[string][]indiaVersionDoc,
	held func(id string) bool, wrote ...func(id string, n int)) error {
	ids := slices.Sorted(maps.Keys(add))
	var read []string
	for _, id := range ids {
		if held == nil || held(id) {
			read = append(read, id)
		}
	}
	stored, err := readEach[indiaRowsDoc](ctx, c, read)
	if err != nil {
		return err
	}
	merge := func(id string, d indiaRowsDoc) (indiaRowsDoc, bool) {
		rows, changed := mergeVersions(d.Rows, add[id])
		for _, w := range wrote {
			w(id, len(rows))
		}
		return indiaRowsDoc{ID: id, Rows: rows}, changed
	}
	return mergeWrite(ctx, c, op, ids, stored, merge)
}

// indiaReaders is how many documents a write reads at once.
const indiaReaders = 4

// readEach reads the documents stored under ids, a few at a time; an _id
// with none stored is absent from the result.
func readEach[T any](ctx context.Context, c *mongodrv.Collection, ids []string) (map[string]T, error) {
	out := make(map[string]T, len(ids))
	var mu sync.Mutex
	var firstErr error
	next := make(chan string)
	var wg sync.WaitGroup
	for range min(indiaReaders, len(ids)) {
		wg.Go(func() {
			for id := range next {
				d, found, err := findByID[T](ctx, c, id)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if found {
					out[id] = d
				}
				mu.Unlock()
			}
		})
	}
	for _, id := range ids {
		next <- id
	}
	close(next)
	wg.Wait()
	return out, firstErr
}

// mergeWrite stores, under each of ids, merge of the document stored (the
// zero document when stored lacks the _id), when merge reports a change:
// documents not in stored are inserted together by one unordered
// InsertMany, others replaced in chunks. A document inserted that was
// stored after all (a batch applied in part, another writer) is read,
// merged again and replaced.
func mergeWrite[T any](ctx context.Context, c *mongodrv.Collection, op string, ids []string, stored map[string]T,
	merge func(id string, d T) (T, bool)) error {
	var inserts []any
	var insertIDs []string
	var replaces []mongodrv.WriteModel
	for _, id := range ids {
		held, ok := stored[id]
		d, changed := merge(id, held)
		switch {
		case !changed:
		case ok:
			replaces = append(replaces, replaceModel(id, d))
		default:
			inserts, insertIDs = append(inserts, d), append(insertIDs, id)
		}
	}
	if len(inserts) > 0 {
		_, err := c.InsertMany(ctx, inserts, options.InsertMany().SetOrdered(false))
		var bwe mongodrv.BulkWriteException
		switch {
		case err == nil:
		case errors.As(err, &bwe) && bwe.WriteConcernError == nil && allDuplicates(bwe):
			for _, we := range bwe.WriteErrors {
				id := insertIDs[we.Index]
				held, found, err := findByID[T](ctx, c, id)
				if err != nil {
					return err
				}
				if d, changed := merge(id, held); changed || !found {
					replaces = append(replaces, replaceModel(id, d))
				}
			}
		default:
			return translate(op, err)
		}
	}
	return bulkWrite(ctx, c, op, replaces)
}

// writeSeries records, for each bucket written, its year and number of
// versions in its series document.
func (s *IndiaPrices) writeSeries(ctx context.Context, counts map[string]int) error {
	next := map[string]indiaSeriesDoc{}
	for id, n := range counts {
		isin, series, year := splitIndiaBucketID(id)
		sid := indiaSeriesID(isin, series)
		d, ok := next[sid]
		if !ok {
			d = indiaSeriesDoc{ID: sid, Years: slices.Clone(s.heldSeries[sid].Years)}
		}
		i, found := slices.BinarySearchFunc(d.Years, year, func(y indiaYearDoc, year int) int { return cmp.Compare(y.Year, year) })
		if found {
			d.Years[i].Versions = int64(n)
		} else {
			d.Years = slices.Insert(d.Years, i, indiaYearDoc{Year: year, Versions: int64(n)})
		}
		next[sid] = d
	}
	stored := map[string]indiaSeriesDoc{}
	for id := range next {
		if d, ok := s.heldSeries[id]; ok {
			stored[id] = d
		}
	}
	merge := func(id string, held indiaSeriesDoc) (indiaSeriesDoc, bool) {
		d := next[id]
		return d, !slices.Equal(d.Years, held.Years)
	}
	if err := mergeWrite(ctx, s.series, "write india price series", slices.Sorted(maps.Keys(next)), stored, merge); err != nil {
		return err
	}
	maps.Copy(s.heldSeries, next)
	return nil
}

// writeSymbols records the buckets that hold each symbol of rows.
func (s *IndiaPrices) writeSymbols(ctx context.Context, rows []nse.Row) error {
	next := map[string]indiaSymbolDoc{}
	for _, r := range rows {
		h := indiaHolderDoc{ISIN: r.ISIN, Series: r.Series, Year: yearOf(r.Date)}
		d, ok := next[r.Symbol]
		if !ok {
			d = indiaSymbolDoc{ID: r.Symbol, Held: slices.Clone(s.heldSymbols[r.Symbol].Held)}
		}
		if i, found := slices.BinarySearchFunc(d.Held, h, compareHolder); !found {
			d.Held = slices.Insert(d.Held, i, h)
		}
		next[r.Symbol] = d
	}
	stored := map[string]indiaSymbolDoc{}
	for id := range next {
		if d, ok := s.heldSymbols[id]; ok {
			stored[id] = d
		}
	}
	merge := func(id string, held indiaSymbolDoc) (indiaSymbolDoc, bool) {
		// held is what the store knew, or, for a symbol another writer
		// stored meanwhile, what it stored: keep both.
		d := next[id]
		for _, h := range held.Held {
			if i, found := slices.BinarySearchFunc(d.Held, h, compareHolder); !found {
				d.Held = slices.Insert(d.Held, i, h)
			}
		}
		next[id] = d
		return d, !slices.Equal(d.Held, held.Held)
	}
	if err := mergeWrite(ctx, s.symbols, "write india price symbols", slices.Sorted(maps.Keys(next)), stored, merge); err != nil {
		return err
	}
	maps.Copy(s.heldSymbols, next)
	return nil
}

// compareHolder orders a symbol's buckets by year, then ISIN and series.
func compareHolder(a, b indiaHolderDoc) int {
	return cmp.Or(cmp.Compare(a.Year, b.Year), cmp.Compare(a.ISIN, b.ISIN), cmp.Compare(a.Series, b.Series))
}

// OnDate reads the day's document.
func (s *IndiaPrices) OnDate(ctx context.Context, date string) ([]nse.Row, error) {
	d, _, err := findByID[indiaRowsDoc](ctx, s.days, date)
	if err != nil {
		return nil, err
	}
	out := make([]nse.Row, len(d.Rows))
	for i, v := range d.Rows {
		out[i] = v.row()
	}
	return out, nil
}

// seriesOf reads the series document of isin in series.
func (s *IndiaPrices) seriesOf(ctx context.Context, isin, series string) (indiaSeriesDoc, bool, error) {
	return findByID[indiaSeriesDoc](ctx, s.series, indiaSeriesID(isin, series))
}

// bucket reads the versions of isin in series in year, in order.
func (s *IndiaPrices) bucket(ctx context.Context, isin, series string, year int) ([]nse.Row, error) {
	d, _, err := findByID[indiaRowsDoc](ctx, s.buckets, indiaBucketID(isin, series, year))
	if err != nil {
		return nil, err
	}
	out := make([]nse.Row, len(d.Rows))
	for i, v := range d.Rows {
		v.ISIN, v.Series = isin, series
		out[i] = v.row()
	}
	return out, nil
}

// Rows reads the series document, then the buckets of the years the range
// touches, one at a time: one year's versions are in memory at once.
func (s *IndiaPrices) Rows(ctx context.Context, q ports.IndiaRowQuery) iter.Seq2[nse.Row, error] {
	versions := func(yield func(nse.Row, error) bool) {
		series, _, err := s.seriesOf(ctx, q.ISIN, q.Series)
		if err != nil {
			yield(nse.Row{}, err)
			return
		}
		for _, y := range series.Years {
			if (q.From != "" && y.Year < yearOf(q.From)) || (q.To != "" && y.Year > yearOf(q.To)) {
				continue
			}
			rows, err := s.bucket(ctx, q.ISIN, q.Series, y.Year)
			if err != nil {
				yield(nse.Row{}, err)
				return
			}
			for _, r := range rows {
				if (q.From == "" || r.Date >= q.From) && (q.To == "" || r.Date <= q.To) && !yield(r, nil) {
					return
				}
			}
		}
	}
	return nse.Visible(versions, q.AsOf)
}

// ISINOf reads the symbol's document, then the buckets holding it, latest
// year first, until a year has a version that matches.
func (s *IndiaPrices) ISINOf(ctx context.Context, symbol, series, onOrBefore string, asOf time.Time) (string, error) {
	d, _, err := findByID[indiaSymbolDoc](ctx, s.symbols, symbol)
	if err != nil {
		return "", err
	}
	last := yearOf(onOrBefore)
	var best nse.Row
	for i := len(d.Held) - 1; i >= 0; i-- {
		h := d.Held[i]
		if h.Year > last || (series != "" && h.Series != series) {
			continue
		}
		if best.ISIN != "" && h.Year < yearOf(best.Date) {
			break
		}
		rows, err := s.bucket(ctx, h.ISIN, h.Series, h.Year)
		if err != nil {
			return "", err
		}
		for _, r := range rows {
			if r.Symbol == symbol && r.Date <= onOrBefore && !r.KnownAt.After(asOf) &&
				(best.ISIN == "" || r.Date > best.Date || (r.Date == best.Date && r.ISIN < best.ISIN)) {
				best = r
			}
		}
	}
	if best.ISIN == "" {
		return "", fmt.Errorf("mongo: find the ISIN of symbol %s: %w", symbol, ports.ErrNotFound)
	}
	return best.ISIN, nil
}

// Holds reads the series document.
func (s *IndiaPrices) Holds(ctx context.Context, isin, series string) (bool, error) {
	d, found, err := s.seriesOf(ctx, isin, series)
	return found && len(d.Years) > 0, err
}

// Count adds up the versions the series documents record.
func (s *IndiaPrices) Count(ctx context.Context) (int64, error) {
	all, err := readAll[indiaSeriesDoc](ctx, s.series)
	if err != nil {
		return 0, translate("count india price rows", err)
	}
	var n int64
	for _, d := range all {
		for _, y := range d.Years {
			n += y.Versions
		}
	}
	return n, nil
}
