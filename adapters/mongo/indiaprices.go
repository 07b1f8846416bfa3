package mongo

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
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
//   - india_price_days: a document per trading day, _id "2021-06-04",
//     holding every version of that day of every security (about 3,000
//     rows, some 400 kB): OnDate, which ingestion compares a file with.
//   - india_price_index: 256 "series|xx" documents, each naming, for the
//     securities and series whose "ISIN|SERIES" hashes to xx, the years
//     held and how many versions each holds (Rows reads one before the
//     buckets, Holds reads one alone, Count adds them all up); and 256
//     "symbol|xx" documents naming, for each symbol hashing to xx, the
//     (ISIN, series, year) buckets holding a version that carries it
//     (ISINOf reads one, then those buckets of the latest years).
//
// A row is thus stored twice, in its security's year and in its day. The
// index is sharded rather than a document per security so that a write
// replaces at most 512 small documents besides the buckets and days it
// adds to: FerretDB 1.x takes some 20 ms per replacement, which made a
// document per security and per symbol cost about 70 s for the sample's
// second year.
const (
	indiaBucketsCollection = "india_price_years"
	indiaDaysCollection    = "india_price_days"
	indiaIndexCollection   = "india_price_index"
	// indiaShards is how many series and how many symbol documents the
	// index has.
	indiaShards = 256
)

// IndiaPrices is the NSE daily rows store.
//
// Add merges new versions into the documents they belong to and writes
// only the documents that change: new ones in one unordered InsertMany per
// collection, changed ones by replacements in chunks (bulkChunk); adding
// rows already held writes nothing. It writes buckets, then the index,
// then days, and ingestion reads days to decide what is new, so a batch
// that failed part way (there are no transactions on FerretDB) is
// completed by adding it again. Writes of one store are serialised; the
// index, which a write merges into, is read whole at the first write and
// kept up to date with this store's writes (see readOnce on the limits of
// that; a document another writer created meanwhile is read and merged),
// so a write reads only the buckets and days it adds to.
type IndiaPrices struct {
	buckets, days, index *mongodrv.Collection

	mu sync.Mutex
	// shards holds the index documents by _id, as of the first write plus
	// this store's writes, once loaded.
	shards map[string]indiaIndexDoc
}

var _ ports.IndiaPriceStore = (*IndiaPrices)(nil)

// NewIndiaPrices returns the India prices store of db.
func NewIndiaPrices(db *mongodrv.Database) *IndiaPrices {
	return &IndiaPrices{buckets: db.Collection(indiaBucketsCollection), days: db.Collection(indiaDaysCollection),
		index: db.Collection(indiaIndexCollection)}
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

// indiaIndexDoc is one document of the index: a series shard or a
// symbol shard, entries sorted by their ID.
type indiaIndexDoc struct {
	ID      string           `bson:"_id"`
	Series  []indiaSeriesDoc `bson:"series,omitempty"`
	Symbols []indiaSymbolDoc `bson:"symbols,omitempty"`
}

// indiaSeriesDoc names the years of one security and series ("ISIN|SERIES").
type indiaSeriesDoc struct {
	ID    string         `bson:"id"`
	Years []indiaYearDoc `bson:"years"`
}

// indiaYearDoc is one year of a series and how many versions it holds.
type indiaYearDoc struct {
	Year     int   `bson:"y"`
	Versions int64 `bson:"n"`
}

// indiaSymbolDoc names the buckets holding versions that carry a symbol.
type indiaSymbolDoc struct {
	ID   string           `bson:"id"`
	Held []indiaHolderDoc `bson:"held"`
}

// indiaHolderDoc is one bucket holding a symbol.
type indiaHolderDoc struct {
	ISIN   string `bson:"i"`
	Series string `bson:"s"`
	Year   int    `bson:"y"`
}

// indiaShard returns the _id of the index document of kind ("series" or
// "symbol") holding key.
func indiaShard(kind, key string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	return fmt.Sprintf("%s|%02x", kind, h.Sum32()%indiaShards)
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
	if err := s.writeIndex(ctx, counts, rows); err != nil {
		return err
	}
	return s.writeRows(ctx, s.days, "write india price days", days, nil)
}

// load reads the whole index, once.
func (s *IndiaPrices) load(ctx context.Context) error {
	if s.shards != nil {
		return nil
	}
	all, err := readAll[indiaIndexDoc](ctx, s.index)
	if err != nil {
		return translate("read the india price index", err)
	}
	s.shards = make(map[string]indiaIndexDoc, len(all))
	for _, d := range all {
		s.shards[d.ID] = d
	}
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
		return s.heldYear(indiaSeriesID(isin, series), year)
	}
	err := s.writeRows(ctx, s.buckets, "write india price buckets", buckets, held, func(id string, n int) { counts[id] = n })
	return counts, err
}

// heldYear reports whether the index, as this store knows it, names a
// year of a series.
func (s *IndiaPrices) heldYear(seriesID string, year int) bool {
	e, _ := findEntry(s.shards[indiaShard("series", seriesID)].Series, seriesID, seriesKey)
	return slices.ContainsFunc(e.Years, func(y indiaYearDoc) bool { return y.Year == year })
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

// indiaIndexChange is what one write changes in one index document.
type indiaIndexChange struct {
	// years gives, by series, the versions each year written holds.
	years map[string]map[int]int64
	// holders gives, by symbol, the buckets written holding it.
	holders map[string][]indiaHolderDoc
}

// apply returns d with the change made, leaving d as it was.
func (c indiaIndexChange) apply(d indiaIndexDoc) indiaIndexDoc {
	d.Series, d.Symbols = slices.Clone(d.Series), slices.Clone(d.Symbols)
	for id, years := range c.years {
		e, i := findEntry(d.Series, id, seriesKey)
		e.ID, e.Years = id, slices.Clone(e.Years)
		for year, n := range years {
			j, found := slices.BinarySearchFunc(e.Years, year, func(y indiaYearDoc, year int) int { return cmp.Compare(y.Year, year) })
			if found {
				e.Years[j].Versions = n
			} else {
				e.Years = slices.Insert(e.Years, j, indiaYearDoc{Year: year, Versions: n})
			}
		}
		d.Series = putEntry(d.Series, i, e)
	}
	for symbol, held := range c.holders {
		e, i := findEntry(d.Symbols, symbol, symbolKey)
		e.ID, e.Held = symbol, slices.Clone(e.Held)
		for _, h := range held {
			if j, found := slices.BinarySearchFunc(e.Held, h, compareHolder); !found {
				e.Held = slices.Insert(e.Held, j, h)
			}
		}
		d.Symbols = putEntry(d.Symbols, i, e)
	}
	return d
}

func seriesKey(e indiaSeriesDoc) string { return e.ID }
func symbolKey(e indiaSymbolDoc) string { return e.ID }

// findEntry returns the entry of sorted entries with key id (the zero
// entry when none) and where it is or would go: its index, or its
// insertion point minus one, negated.
func findEntry[E any](entries []E, id string, key func(E) string) (E, int) {
	i, found := slices.BinarySearchFunc(entries, id, func(e E, id string) int { return cmp.Compare(key(e), id) })
	if !found {
		var zero E
		return zero, -i - 1
	}
	return entries[i], i
}

// putEntry stores e at the place findEntry gave.
func putEntry[E any](entries []E, i int, e E) []E {
	if i < 0 {
		return slices.Insert(entries, -i-1, e)
	}
	entries[i] = e
	return entries
}

// writeIndex records, for each bucket written, its year and number of
// versions, and the buckets holding each symbol of rows.
func (s *IndiaPrices) writeIndex(ctx context.Context, counts map[string]int, rows []nse.Row) error {
	changes := map[string]indiaIndexChange{}
	change := func(id string) indiaIndexChange {
		c, ok := changes[id]
		if !ok {
			c = indiaIndexChange{years: map[string]map[int]int64{}, holders: map[string][]indiaHolderDoc{}}
			changes[id] = c
		}
		return c
	}
	for id, n := range counts {
		isin, series, year := splitIndiaBucketID(id)
		sid := indiaSeriesID(isin, series)
		c := change(indiaShard("series", sid))
		if c.years[sid] == nil {
			c.years[sid] = map[int]int64{}
		}
		c.years[sid][year] = int64(n)
	}
	for _, r := range rows {
		c := change(indiaShard("symbol", r.Symbol))
		c.holders[r.Symbol] = append(c.holders[r.Symbol], indiaHolderDoc{ISIN: r.ISIN, Series: r.Series, Year: yearOf(r.Date)})
	}
	stored := map[string]indiaIndexDoc{}
	for id := range changes {
		if d, ok := s.shards[id]; ok {
			stored[id] = d
		}
	}
	wrote := map[string]indiaIndexDoc{}
	merge := func(id string, held indiaIndexDoc) (indiaIndexDoc, bool) {
		d := changes[id].apply(held)
		d.ID = id
		wrote[id] = d
		before, _ := bson.Marshal(held)
		after, _ := bson.Marshal(d)
		return d, !bytes.Equal(before, after)
	}
	if err := mergeWrite(ctx, s.index, "write the india price index", slices.Sorted(maps.Keys(changes)), stored, merge); err != nil {
		return err
	}
	maps.Copy(s.shards, wrote)
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

// seriesOf reads the index entry of isin in series.
func (s *IndiaPrices) seriesOf(ctx context.Context, isin, series string) (indiaSeriesDoc, error) {
	id := indiaSeriesID(isin, series)
	d, _, err := findByID[indiaIndexDoc](ctx, s.index, indiaShard("series", id))
	e, _ := findEntry(d.Series, id, seriesKey)
	return e, err
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
		series, err := s.seriesOf(ctx, q.ISIN, q.Series)
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

// ISINOf reads the symbol's index entry, then the buckets holding it,
// latest year first, until a year has a version that matches.
func (s *IndiaPrices) ISINOf(ctx context.Context, symbol, series, onOrBefore string, asOf time.Time) (string, error) {
	shard, _, err := findByID[indiaIndexDoc](ctx, s.index, indiaShard("symbol", symbol))
	if err != nil {
		return "", err
	}
	d, _ := findEntry(shard.Symbols, symbol, symbolKey)
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

// Holds reads the series' index entry.
func (s *IndiaPrices) Holds(ctx context.Context, isin, series string) (bool, error) {
	e, err := s.seriesOf(ctx, isin, series)
	return len(e.Years) > 0, err
}

// Count adds up the versions the index records.
func (s *IndiaPrices) Count(ctx context.Context) (int64, error) {
	all, err := readAll[indiaIndexDoc](ctx, s.index)
	if err != nil {
		return 0, translate("count india price rows", err)
	}
	var n int64
	for _, d := range all {
		for _, e := range d.Series {
			for _, y := range e.Years {
				n += y.Versions
			}
		}
	}
	return n, nil
}
