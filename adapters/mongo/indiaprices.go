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

	"github.com/quarrydata/quarry/app/readcache"
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
//     date then KnownAt order (about 250 trading days), in up to
//     indiaMaxParts part documents ("…|2021", "…|2021|1", …): a write
//     adding to a year inserts a part rather than replacing the bucket. A
//     page or a CSV stream reads the years its range touches one at a time.
//   - india_price_days: a document per trading day, _id "2021-06-04",
//     holding every version of that day of every security (about 3,000
//     rows): OnDate, which ingestion compares a file with, and what a
//     write merges into first to learn which versions are new.
//   - india_price_index: 256 "series|xx" documents, each naming, for the
//     securities and series whose "ISIN|SERIES" hashes to xx, the years
//     held and their parts (Rows reads one before the buckets, Holds reads
//     one alone); 256 "symbol|xx" documents naming, for each symbol hashing
//     to xx, the (ISIN, series, year) buckets holding a version that
//     carries it (ISINOf reads one, then those buckets of the latest
//     years); and a "days|YYYY" document per year giving each day's number
//     of versions (Count adds them up).
//   - india_price_pending: a document per write not yet finished, _id its
//     batch mark (see Add). Readers hide the versions carrying a mark it
//     holds, so a write is seen whole or not at all.
//
// A row is thus stored twice, in its security's year and in its day, each
// packed (see indiaRowsDoc). The index is sharded rather than a document
// per security so that a write replaces few small documents besides the
// days it adds to: FerretDB 1.x takes tens to hundreds of milliseconds per
// replacement, which made a document per security and per symbol cost
// about 70 s for the sample's second year, and replacing the buckets a
// correction touches minutes.
const (
	indiaBucketsCollection = "india_price_years"
	indiaDaysCollection    = "india_price_days"
	indiaIndexCollection   = "india_price_index"
	indiaPendingCollection = "india_price_pending"
	// indiaShards is how many series and how many symbol documents the
	// index has.
	indiaShards = 256
)

// IndiaPrices is the NSE daily rows store.
//
// Add merges new versions into the documents they belong to and writes
// only the documents that change: new ones in one unordered InsertMany per
// collection, changed ones by replacements in chunks (bulkChunk); adding
// rows already held writes nothing. It writes bucket parts, then the
// index, then days; what is new is decided against the days, by ingestion
// and by Add itself, so a batch that failed part way (there are no
// transactions on FerretDB) is completed by adding it again. Writes of one store are serialised; the
// index, which a write merges into, is read whole at the first write and
// kept up to date with this store's writes (see readOnce on the limits of
// that; a document another writer created meanwhile is read and merged),
// so a write reads only the buckets and days it adds to.
//
// Given a ReadCache (NewCachedIndiaPrices), it keeps what Rows, ISINOf and
// Holds read: each series' years, each year bucket's versions and the
// buckets holding each symbol, so a page is answered from memory for any
// date range and as-of time. A bucket holds about 250 versions, some tens
// of kilobytes, and the shared budget bounds how many are kept. A write by
// this store forgets the series, buckets and symbols it wrote; one by
// another process (quarry ingest) is seen once the entries' TTL has
// passed.
type IndiaPrices struct {
	buckets, days, index *mongodrv.Collection
	// batches marks each write's versions, hidden until it is published.
	batches *batches

	// years, versions and holders cache reads (nil: none) by series
	// "ISIN|SERIES", by bucket "ISIN|SERIES|YYYY" and by symbol.
	years    *readcache.Slices[indiaYearDoc]
	versions *readcache.Slices[indiaVersionDoc]
	holders  *readcache.Slices[indiaHolderDoc]

	mu sync.Mutex
	// shards holds the index documents by _id, as of the first write plus
	// this store's writes, once loaded.
	shards map[string]indiaIndexDoc
}

var _ ports.IndiaPriceStore = (*IndiaPrices)(nil)

// NewIndiaPrices returns the India prices store of db.
func NewIndiaPrices(db *mongodrv.Database) *IndiaPrices {
	return NewCachedIndiaPrices(db, nil)
}

// NewCachedIndiaPrices returns the India prices store of db, keeping what
// it reads in cache (nothing when cache is nil).
func NewCachedIndiaPrices(db *mongodrv.Database, cache *readcache.Cache) *IndiaPrices {
	return &IndiaPrices{buckets: db.Collection(indiaBucketsCollection), days: db.Collection(indiaDaysCollection),
		index: db.Collection(indiaIndexCollection), batches: newBatches(db.Collection(indiaPendingCollection), "india price"), years: readcache.NewSlices(cache, func(indiaYearDoc) int { return 0 }),
		versions: readcache.NewSlices(cache, indiaVersionBytes), holders: readcache.NewSlices(cache, indiaHolderBytes)}
}

// indiaVersionBytes and indiaHolderBytes weigh the strings of what the
// cache keeps.
func indiaVersionBytes(d indiaVersionDoc) int {
	return len(d.ISIN) + len(d.Series) + len(d.Date) + len(d.Symbol) + len(d.Source) + len(d.Batch)
}

func indiaHolderBytes(h indiaHolderDoc) int { return len(h.ISIN) + len(h.Series) }

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
	// Batch is the mark of the write that stored the version: hidden
	// while india_price_pending holds it. Versions written before marks
	// have none and are always seen.
	Batch string `bson:"b,omitempty"`
}

// indiaRowsDoc is a bucket part or a day: versions under one _id. It is
// stored packed (packed.go): its versions, each of 16 fields, in one
// deflated binary field, "packed", which MarshalBSON writes. Documents
// written before packing hold a "rows" array instead; UnmarshalBSON reads
// either, so such a document is read as it is until it is next written.
type indiaRowsDoc struct {
	ID   string
	Rows []indiaVersionDoc
}

// indiaStoredRows is an indiaRowsDoc as stored, packed or not.
type indiaStoredRows struct {
	ID     string            `bson:"_id"`
	Rows   []indiaVersionDoc `bson:"rows,omitempty"`
	Packed []byte            `bson:"packed,omitempty"`
}

// indiaRowsBody is what the packed field of an indiaRowsDoc holds.
type indiaRowsBody struct {
	Rows []indiaVersionDoc `bson:"rows"`
}

// MarshalBSON returns the document packed.
func (d indiaRowsDoc) MarshalBSON() ([]byte, error) {
	b, err := packBSON(indiaRowsBody{Rows: d.Rows})
	if err != nil {
		return nil, fmt.Errorf("mongo: pack india price rows %s: %w", d.ID, err)
	}
	return bson.Marshal(indiaStoredRows{ID: d.ID, Packed: b})
}

// UnmarshalBSON reads a document packed or, as written before packing,
// not.
func (d *indiaRowsDoc) UnmarshalBSON(raw []byte) error {
	var stored indiaStoredRows
	if err := bson.Unmarshal(raw, &stored); err != nil {
		return err
	}
	d.ID, d.Rows = stored.ID, stored.Rows
	if stored.Packed == nil {
		return nil
	}
	var body indiaRowsBody
	if err := unpackBSON(stored.Packed, &body); err != nil {
		return fmt.Errorf("mongo: unpack india price rows %s: %w", stored.ID, err)
	}
	d.Rows = body.Rows
	return nil
}

// indiaIndexDoc is one document of the index: a series shard or a
// symbol shard, entries sorted by their ID.
type indiaIndexDoc struct {
	ID      string           `bson:"_id"`
	Series  []indiaSeriesDoc `bson:"series,omitempty"`
	Symbols []indiaSymbolDoc `bson:"symbols,omitempty"`
	Days    []indiaDayCount  `bson:"days,omitempty"`
}

// indiaDayCount is how many versions a day's document holds.
type indiaDayCount struct {
	Date     string `bson:"d"`
	Versions int64  `bson:"n"`
}

// indiaSeriesDoc names the years of one security and series ("ISIN|SERIES").
type indiaSeriesDoc struct {
	ID    string         `bson:"id"`
	Years []indiaYearDoc `bson:"years"`
}

// indiaYearDoc is one year of a series and how many part documents its
// bucket has (see indiaMaxParts).
type indiaYearDoc struct {
	Year  int `bson:"y"`
	Parts int `bson:"p"`
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
// add replacing the one held with the same key, and the versions of add
// that changed something. held is not modified.
func mergeVersions(held, add []indiaVersionDoc) (merged, added []indiaVersionDoc) {
	out := slices.Clone(held)
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
		added = append(added, d)
	}
	return out, added
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

// Add writes the versions as one batch, seen whole or not at all: with no
// transactions on FerretDB, it first records the batch's mark as pending
// (one insert), writes the versions carrying it (see add), and publishes
// them by deleting the pending record (one delete). A write that stops
// part way leaves its versions hidden; adding the rows again, as the next
// run does since OnDate hides them too, marks them anew. It then forgets
// the series, buckets and symbols of the rows.
func (s *IndiaPrices) Add(ctx context.Context, rows []nse.Row) error {
	err := s.add(ctx, rows)
	// Forgotten even when the write failed: it may have applied in part.
	series, buckets, symbols := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		series[indiaSeriesID(r.ISIN, r.Series)] = true
		buckets[indiaBucketID(r.ISIN, r.Series, yearOf(r.Date))] = true
		symbols[r.Symbol] = true
	}
	s.years.Forget(slices.Collect(maps.Keys(series))...)
	s.versions.Forget(slices.Collect(maps.Keys(buckets))...)
	s.holders.Forget(slices.Collect(maps.Keys(symbols))...)
	return err
}

// unpublished returns the marks of writes not yet published among those
// of versions (see batches.unpublished).
func (s *IndiaPrices) unpublished(ctx context.Context, versions []indiaVersionDoc) (map[string]bool, error) {
	return s.batches.unpublished(ctx, func(yield func(string) bool) {
		for _, v := range versions {
			if !yield(v.Batch) {
				return
			}
		}
	})
}

// add drops the versions the days hold and has published, and writes the
// others, when there are any, as one batch (batches.publish, write).
func (s *IndiaPrices) add(ctx context.Context, rows []nse.Row) error {
	if len(rows) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(ctx); err != nil {
		return err
	}
	days := map[string][]indiaVersionDoc{}
	for _, r := range rows {
		days[r.Date] = append(days[r.Date], toIndiaVersion(r))
	}
	stored, err := readEach[indiaRowsDoc](ctx, s.days, slices.Sorted(maps.Keys(days)))
	if err != nil {
		return err
	}
	pending, err := s.batches.pendingMarks(ctx)
	if err != nil {
		return err
	}
	if !dropPublished(days, stored, pending) {
		return nil
	}
	return s.batches.publish(ctx, func(mark string) error {
		for _, add := range days {
			for i := range add {
				add[i].Batch = mark
			}
		}
		return s.write(ctx, rows, days, stored)
	})
}

// dropPublished removes from days the versions a stored day holds the
// same, under a published mark, and reports whether any is left.
func dropPublished(days map[string][]indiaVersionDoc, stored map[string]indiaRowsDoc, pending map[string]bool) bool {
	left := false
	for date, add := range days {
		held := stored[date].Rows
		add = slices.DeleteFunc(add, func(d indiaVersionDoc) bool {
			i, found := slices.BinarySearchFunc(held, d, compareIndiaVersion)
			if !found || pending[held[i].Batch] {
				return false
			}
			h := held[i]
			h.Batch = ""
			return h == d
		})
		if len(add) == 0 {
			delete(days, date)
			continue
		}
		days[date], left = add, true
	}
	return left
}

// write merges the versions, marked, into their days and writes the
// versions new to the days as parts of their year buckets, then the index,
// then the days.
func (s *IndiaPrices) write(ctx context.Context, rows []nse.Row, days map[string][]indiaVersionDoc, stored map[string]indiaRowsDoc) error {
	merged := map[string]indiaRowsDoc{}
	buckets := map[string][]indiaVersionDoc{}
	for date, add := range days {
		slices.SortFunc(add, compareIndiaVersion)
		held, added := mergeVersions(stored[date].Rows, add)
		merged[date] = indiaRowsDoc{ID: date, Rows: held}
		for _, d := range added {
			id := indiaBucketID(d.ISIN, d.Series, yearOf(d.Date))
			d.ISIN, d.Series = "", ""
			buckets[id] = append(buckets[id], d)
		}
	}
	parts, err := s.writeBuckets(ctx, buckets)
	if err != nil {
		return err
	}
	if err := s.writeIndex(ctx, parts, rows, merged); err != nil {
		return err
	}
	if err := s.dropStaleParts(ctx, parts); err != nil {
		return err
	}
	merge := func(id string, d indiaRowsDoc) (indiaRowsDoc, bool) {
		rows, added := mergeVersions(d.Rows, days[id])
		return indiaRowsDoc{ID: id, Rows: rows}, len(added) > 0
	}
	return mergeWrite(ctx, s.days, "write india price days", slices.Sorted(maps.Keys(merged)), stored, merge)
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

// indiaMaxParts is how many part documents a year bucket has at most.
// The first write of a year inserts its part 0; each later write inserts
// the versions it adds as the next part, so adding to a year is an insert
// (FerretDB 1.x takes tens to hundreds of milliseconds per replacement,
// growing with the collection); the write that would make a part more
// than this rewrites the year into part 0 and deletes the others.
const indiaMaxParts = 8

// indiaParts says how a write left one year bucket.
type indiaParts struct {
	// parts is how many parts the year has after the write.
	parts int
	// stale is how many parts beyond the first a rewrite made obsolete.
	stale int
}

// writeBuckets writes each bucket's new versions as its next part, or
// rewrites the year when it has indiaMaxParts parts already, and returns
// how it left each bucket.
func (s *IndiaPrices) writeBuckets(ctx context.Context, add map[string][]indiaVersionDoc) (map[string]indiaParts, error) {
	out := map[string]indiaParts{}
	var appends, rewrites []string
	for _, id := range slices.Sorted(maps.Keys(add)) {
		isin, series, year := splitIndiaBucketID(id)
		held := s.heldParts(indiaSeriesID(isin, series), year)
		if held < indiaMaxParts {
			appends = append(appends, indiaPartID(id, held))
			out[id] = indiaParts{parts: held + 1}
			continue
		}
		rewrites = append(rewrites, id)
		out[id] = indiaParts{parts: 1, stale: held - 1}
	}
	base := func(partID string) string {
		if _, ok := add[partID]; ok {
			return partID
		}
		return partID[:strings.LastIndexByte(partID, '|')]
	}
	merge := func(id string, d indiaRowsDoc) (indiaRowsDoc, bool) {
		rows, added := mergeVersions(d.Rows, add[base(id)])
		return indiaRowsDoc{ID: id, Rows: rows}, len(added) > 0
	}
	if err := mergeWrite(ctx, s.buckets, "write india price buckets", appends, nil, merge); err != nil {
		return nil, err
	}
	// A rewrite holds its security's whole year: a few at a time, or a
	// write touching every security would hold every year at once.
	for chunk := range slices.Chunk(rewrites, bulkChunk) {
		stored := make(map[string]indiaRowsDoc, len(chunk))
		for _, id := range chunk {
			isin, series, year := splitIndiaBucketID(id)
			versions, err := s.year(ctx, isin, series, year, out[id].stale+1)
			if err != nil {
				return nil, err
			}
			for i := range versions {
				versions[i].ISIN, versions[i].Series = "", ""
			}
			stored[id] = indiaRowsDoc{ID: id, Rows: versions}
		}
		if err := mergeWrite(ctx, s.buckets, "rewrite india price buckets", chunk, stored, merge); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// indiaPartID is the _id of part n of a bucket: the bucket's own for part
// 0, then "ISIN|SERIES|YYYY|n".
func indiaPartID(bucketID string, n int) string {
	if n == 0 {
		return bucketID
	}
	return bucketID + "|" + strconv.Itoa(n)
}

// dropStaleParts deletes the parts rewrites made obsolete. Until it runs
// they are harmless: the index no longer names them, and a later write
// that inserts a part of the same _id merges into it (mergeWrite).
func (s *IndiaPrices) dropStaleParts(ctx context.Context, parts map[string]indiaParts) error {
	var models []mongodrv.WriteModel
	for id, p := range parts {
		for n := 1; n <= p.stale; n++ {
			models = append(models, mongodrv.NewDeleteOneModel().SetFilter(bson.D{{Key: "_id", Value: indiaPartID(id, n)}}))
		}
	}
	return bulkWrite(ctx, s.buckets, "delete stale india price parts", models)
}

// heldParts returns how many parts the index, as this store knows it,
// names for a year of a series (0: the year is not held).
func (s *IndiaPrices) heldParts(seriesID string, year int) int {
	e, _ := findEntry(s.shards[indiaShard("series", seriesID)].Series, seriesID, seriesKey)
	for _, y := range e.Years {
		if y.Year == year {
			return max(y.Parts, 1)
		}
	}
	return 0
}

// splitIndiaBucketID reads "ISIN|SERIES|YYYY" back; neither an ISIN nor
// a series holds a "|".
func splitIndiaBucketID(id string) (isin, series string, year int) {
	at := strings.LastIndexByte(id, '|')
	isin, series, _ = strings.Cut(id[:at], "|")
	year, _ = strconv.Atoi(id[at+1:])
	return isin, series, year
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
	// years gives, by series, the parts of each year written.
	years map[string]map[int]int
	// days gives, by date, the versions each day written holds.
	days map[string]int64
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
				e.Years[j].Parts = n
			} else {
				e.Years = slices.Insert(e.Years, j, indiaYearDoc{Year: year, Parts: n})
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
	d.Days = slices.Clone(d.Days)
	for date, n := range c.days {
		e, i := findEntry(d.Days, date, dayKey)
		e.Date, e.Versions = date, n
		d.Days = putEntry(d.Days, i, e)
	}
	return d
}

func seriesKey(e indiaSeriesDoc) string { return e.ID }
func symbolKey(e indiaSymbolDoc) string { return e.ID }
func dayKey(e indiaDayCount) string     { return e.Date }

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

// writeIndex records the parts of each bucket written, the buckets
// holding each symbol of rows, and the versions of each day.
func (s *IndiaPrices) writeIndex(ctx context.Context, parts map[string]indiaParts, rows []nse.Row, days map[string]indiaRowsDoc) error {
	changes := map[string]indiaIndexChange{}
	change := func(id string) indiaIndexChange {
		c, ok := changes[id]
		if !ok {
			c = indiaIndexChange{years: map[string]map[int]int{}, holders: map[string][]indiaHolderDoc{}, days: map[string]int64{}}
			changes[id] = c
		}
		return c
	}
	for id, p := range parts {
		isin, series, year := splitIndiaBucketID(id)
		sid := indiaSeriesID(isin, series)
		c := change(indiaShard("series", sid))
		if c.years[sid] == nil {
			c.years[sid] = map[int]int{}
		}
		c.years[sid][year] = p.parts
	}
	for date, d := range days {
		change("days|" + date[:4]).days[date] = int64(len(d.Rows))
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

// OnDate reads the day's document, without the versions of writes not
// published: ingestion then adds them again.
func (s *IndiaPrices) OnDate(ctx context.Context, date string) ([]nse.Row, error) {
	pending, err := s.batches.pendingMarks(ctx)
	if err != nil {
		return nil, err
	}
	d, _, err := findByID[indiaRowsDoc](ctx, s.days, date)
	if err != nil {
		return nil, err
	}
	out := make([]nse.Row, 0, len(d.Rows))
	for _, v := range d.Rows {
		if !pending[v.Batch] {
			out = append(out, v.row())
		}
	}
	return out, nil
}

// yearsOf returns the years of isin in series the index names, from the
// cache while they are fresh.
func (s *IndiaPrices) yearsOf(ctx context.Context, isin, series string) ([]indiaYearDoc, error) {
	id := indiaSeriesID(isin, series)
	return s.years.Get(ctx, id, func(ctx context.Context) ([]indiaYearDoc, error) {
		d, _, err := findByID[indiaIndexDoc](ctx, s.index, indiaShard("series", id))
		e, _ := findEntry(d.Series, id, seriesKey)
		return e.Years, err
	})
}

// cachedYear is year from the cache while it is fresh; the versions are
// shared and must not be changed.
func (s *IndiaPrices) cachedYear(ctx context.Context, isin, series string, y indiaYearDoc) ([]indiaVersionDoc, error) {
	return s.versions.Get(ctx, indiaBucketID(isin, series, y.Year), func(ctx context.Context) ([]indiaVersionDoc, error) {
		return s.year(ctx, isin, series, y.Year, y.Parts)
	})
}

// year reads the parts of a year bucket of isin in series and returns its
// versions in order, a version of a later part replacing one of an earlier
// part with the same key.
func (s *IndiaPrices) year(ctx context.Context, isin, series string, year, parts int) ([]indiaVersionDoc, error) {
	var out []indiaVersionDoc
	for n := range max(parts, 1) {
		d, _, err := findByID[indiaRowsDoc](ctx, s.buckets, indiaPartID(indiaBucketID(isin, series, year), n))
		if err != nil {
			return nil, err
		}
		if n == 0 {
			out = d.Rows
			continue
		}
		out, _ = mergeVersions(out, d.Rows)
	}
	for i := range out {
		out[i].ISIN, out[i].Series = isin, series
	}
	return out, nil
}

// Rows reads the series' index entry, then the buckets of the years the
// range touches, one at a time: without a cache, one year's versions are in
// memory at once.
func (s *IndiaPrices) Rows(ctx context.Context, q ports.IndiaRowQuery) iter.Seq2[nse.Row, error] {
	versions := func(yield func(nse.Row, error) bool) {
		years, err := s.yearsOf(ctx, q.ISIN, q.Series)
		if err != nil {
			yield(nse.Row{}, err)
			return
		}
		for _, y := range years {
			if (q.From != "" && y.Year < yearOf(q.From)) || (q.To != "" && y.Year > yearOf(q.To)) {
				continue
			}
			versions, err := s.cachedYear(ctx, q.ISIN, q.Series, y)
			if err != nil {
				yield(nse.Row{}, err)
				return
			}
			pending, err := s.unpublished(ctx, versions)
			if err != nil {
				yield(nse.Row{}, err)
				return
			}
			for _, v := range versions {
				if pending[v.Batch] {
					continue
				}
				if (q.From == "" || v.Date >= q.From) && (q.To == "" || v.Date <= q.To) && !yield(v.row(), nil) {
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
	held, err := s.holdersOf(ctx, symbol)
	if err != nil {
		return "", err
	}
	last := yearOf(onOrBefore)
	match := nse.SymbolMatch{Symbol: symbol, OnOrBefore: onOrBefore, AsOf: asOf}
	for _, h := range slices.Backward(held) {
		if h.Year > last || (series != "" && h.Series != series) {
			continue
		}
		if match.Found() && h.Year < yearOf(match.Best.Date) {
			break
		}
		versions, err := s.yearOfHolder(ctx, h)
		if err != nil {
			return "", err
		}
		pending, err := s.unpublished(ctx, versions)
		if err != nil {
			return "", err
		}
		for _, v := range versions {
			if !pending[v.Batch] {
				match.Offer(v.row())
			}
		}
	}
	if !match.Found() {
		return "", fmt.Errorf("mongo: find the ISIN of symbol %s: %w", symbol, ports.ErrNotFound)
	}
	return match.Best.ISIN, nil
}

// holdersOf returns the buckets holding versions that carry symbol, by
// year, then ISIN and series, from the cache while they are fresh.
func (s *IndiaPrices) holdersOf(ctx context.Context, symbol string) ([]indiaHolderDoc, error) {
	return s.holders.Get(ctx, symbol, func(ctx context.Context) ([]indiaHolderDoc, error) {
		shard, _, err := findByID[indiaIndexDoc](ctx, s.index, indiaShard("symbol", symbol))
		d, _ := findEntry(shard.Symbols, symbol, symbolKey)
		return d.Held, err
	})
}

// yearOfHolder returns the versions of the year bucket a symbol's holder
// names; they are shared and must not be changed.
func (s *IndiaPrices) yearOfHolder(ctx context.Context, h indiaHolderDoc) ([]indiaVersionDoc, error) {
	years, err := s.yearsOf(ctx, h.ISIN, h.Series)
	if err != nil {
		return nil, err
	}
	y := indiaYearDoc{Year: h.Year}
	for _, held := range years {
		if held.Year == h.Year {
			y = held
		}
	}
	return s.cachedYear(ctx, h.ISIN, h.Series, y)
}

// Holds reads the series' index entry.
func (s *IndiaPrices) Holds(ctx context.Context, isin, series string) (bool, error) {
	years, err := s.yearsOf(ctx, isin, series)
	return len(years) > 0, err
}

// Count adds up the versions the index records.
func (s *IndiaPrices) Count(ctx context.Context) (int64, error) {
	all, err := readAll[indiaIndexDoc](ctx, s.index)
	if err != nil {
		return 0, translate("count india price rows", err)
	}
	var n int64
	for _, d := range all {
		for _, day := range d.Days {
			n += day.Versions
		}
	}
	return n, nil
}
