package mongo

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
)

// indiaPricesCollection holds one document per NSE row version. Its _id is
// "ISIN|SERIES|YYYY-MM-DD|KnownAt in Unix milliseconds, 15 digits", so the
// versions of one security and series sort by date, then KnownAt, in the
// _id index: a page or a CSV stream for one security and date range is one
// range scan of that index, read through a cursor in batches. Two more
// indexes serve ingestion ({d: 1}: a day's versions, to compare a file
// with) and symbol resolution ({y: 1, s: 1, d: -1}).
//
// On MongoDB each of these reads is an index range scan. FerretDB 1.24 on
// SQLite pushes only an _id equality down to SQL, so there each read
// decodes the collection in Go (see the note on ChinaPrices); that is the
// test image's cost, not the design's. A document per row, rather than
// China's year buckets, is chosen because India is written a day at a
// time across every security (about 3,000 rows per file): buckets would
// rewrite 3,000 documents per day, where rows are one unordered insert.
const indiaPricesCollection = "india_prices"

// IndiaPrices is the NSE daily rows store.
type IndiaPrices struct {
	rows *mongodrv.Collection
	// indexed records that the indexes were created by this process.
	indexed sync.Once
	ixErr   error
}

var _ ports.IndiaPriceStore = (*IndiaPrices)(nil)

// NewIndiaPrices returns the India prices store of db.
func NewIndiaPrices(db *mongodrv.Database) *IndiaPrices {
	return &IndiaPrices{rows: db.Collection(indiaPricesCollection)}
}

// indiaRowDoc is one stored row version.
type indiaRowDoc struct {
	ID        string    `bson:"_id"`
	ISIN      string    `bson:"i"`
	Series    string    `bson:"s"`
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

func indiaSeriesPrefix(isin, series string) string { return isin + "|" + series + "|" }

func indiaRowID(r nse.Row) string {
	return fmt.Sprintf("%s%s|%015d", indiaSeriesPrefix(r.ISIN, r.Series), r.Date, r.KnownAt.UnixMilli())
}

func toIndiaRowDoc(r nse.Row) indiaRowDoc {
	r.KnownAt = r.KnownAt.UTC().Truncate(time.Millisecond)
	return indiaRowDoc{ID: indiaRowID(r), ISIN: r.ISIN, Series: r.Series, Date: r.Date, Symbol: r.Symbol,
		Open: r.Open, High: r.High, Low: r.Low, Close: r.Close, Last: r.Last, PrevClose: r.PrevClose,
		Volume: r.Volume, Turnover: r.Turnover, Trades: r.Trades, Source: r.Source, KnownAt: r.KnownAt}
}

func (d indiaRowDoc) row() nse.Row {
	return nse.Row{Symbol: d.Symbol, Series: d.Series, ISIN: d.ISIN, Date: d.Date, Open: d.Open, High: d.High, Low: d.Low,
		Close: d.Close, Last: d.Last, PrevClose: d.PrevClose, Volume: d.Volume, Turnover: d.Turnover, Trades: d.Trades,
		Source: d.Source, KnownAt: d.KnownAt.UTC()}
}

// indiaIndexes are the secondary indexes of the collection, by the names
// MongoDB gives them.
var indiaIndexes = map[string]bson.D{
	"d_1":          {{Key: "d", Value: 1}},
	"y_1_s_1_d_-1": {{Key: "y", Value: 1}, {Key: "s", Value: 1}, {Key: "d", Value: -1}},
}

// ensureIndexes creates the secondary indexes missing, once per process.
// It lists them first: FerretDB 1.24 drops the connection when asked to
// create an index that exists on a collection holding documents.
func (s *IndiaPrices) ensureIndexes(ctx context.Context) error {
	s.indexed.Do(func() {
		s.ixErr = s.createMissingIndexes(ctx)
	})
	return s.ixErr
}

func (s *IndiaPrices) createMissingIndexes(ctx context.Context) error {
	specs, err := s.rows.Indexes().ListSpecifications(ctx)
	if err != nil {
		return translate("list india price indexes", err)
	}
	have := map[string]bool{}
	for _, sp := range specs {
		have[sp.Name] = true
	}
	var models []mongodrv.IndexModel
	for name, keys := range indiaIndexes {
		if !have[name] {
			models = append(models, mongodrv.IndexModel{Keys: keys, Options: options.Index().SetName(name)})
		}
	}
	if len(models) == 0 {
		return nil
	}
	_, err = s.rows.Indexes().CreateMany(ctx, models)
	return translate("create india price indexes", err)
}

// Add inserts the versions with unordered InsertMany calls (the driver
// sends up to 100,000 documents, or 48 MB, per round trip); a version
// already held is replaced, in chunks (see bulkChunk).
func (s *IndiaPrices) Add(ctx context.Context, rows []nse.Row) error {
	if len(rows) == 0 {
		return nil
	}
	if err := s.ensureIndexes(ctx); err != nil {
		return err
	}
	docs := make([]any, len(rows))
	for i, r := range rows {
		docs[i] = toIndiaRowDoc(r)
	}
	_, err := s.rows.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	var bwe mongodrv.BulkWriteException
	switch {
	case err == nil:
		return nil
	case errors.As(err, &bwe) && bwe.WriteConcernError == nil && allDuplicates(bwe):
		replaces := make([]mongodrv.WriteModel, len(bwe.WriteErrors))
		for i, we := range bwe.WriteErrors {
			replaces[i] = replaceModel(docs[we.Index].(indiaRowDoc).ID, docs[we.Index])
		}
		return bulkWrite(ctx, s.rows, "replace india price rows", replaces)
	default:
		return translate("insert india price rows", err)
	}
}

// OnDate reads the day's versions through the {d: 1} index.
func (s *IndiaPrices) OnDate(ctx context.Context, date string) ([]nse.Row, error) {
	cur, err := s.rows.Find(ctx, bson.D{{Key: "d", Value: date}})
	if err != nil {
		return nil, translate("find india price rows of "+date, err)
	}
	var docs []indiaRowDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate("read india price rows of "+date, err)
	}
	out := make([]nse.Row, len(docs))
	for i, d := range docs {
		out[i] = d.row()
	}
	return out, nil
}

// indiaBatch is how many documents a cursor fetches per round trip.
const indiaBatch = 1000

// Rows streams an _id range through a cursor, one batch in memory at a
// time.
func (s *IndiaPrices) Rows(ctx context.Context, q ports.IndiaRowQuery) iter.Seq2[nse.Row, error] {
	prefix := indiaSeriesPrefix(q.ISIN, q.Series)
	lower, upper := prefix, prefix+"~"
	if q.From != "" {
		lower = prefix + q.From
	}
	if q.To != "" {
		upper = prefix + q.To + "|~"
	}
	versions := func(yield func(nse.Row, error) bool) {
		cur, err := s.rows.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: lower}, {Key: "$lt", Value: upper}}}},
			options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetBatchSize(indiaBatch))
		if err != nil {
			yield(nse.Row{}, translate("find india price rows of "+q.ISIN, err))
			return
		}
		defer cur.Close(context.WithoutCancel(ctx))
		for cur.Next(ctx) {
			var d indiaRowDoc
			if err := cur.Decode(&d); err != nil {
				yield(nse.Row{}, translate("decode india price row", err))
				return
			}
			if !yield(d.row(), nil) {
				return
			}
		}
		if err := cur.Err(); err != nil {
			yield(nse.Row{}, translate("read india price rows of "+q.ISIN, err))
		}
	}
	return nse.Visible(versions, q.AsOf)
}

// ISINOf reads the latest matching version through the {y, s, d} index.
func (s *IndiaPrices) ISINOf(ctx context.Context, symbol, series, onOrBefore string, asOf time.Time) (string, error) {
	filter := bson.D{{Key: "y", Value: symbol}}
	if series != "" {
		filter = append(filter, bson.E{Key: "s", Value: series})
	}
	filter = append(filter, bson.E{Key: "d", Value: bson.D{{Key: "$lte", Value: onOrBefore}}},
		bson.E{Key: "k", Value: bson.D{{Key: "$lte", Value: asOf}}})
	var d struct {
		ISIN string `bson:"i"`
	}
	err := s.rows.FindOne(ctx, filter, options.FindOne().SetSort(bson.D{{Key: "d", Value: -1}, {Key: "i", Value: 1}}).
		SetProjection(bson.D{{Key: "i", Value: 1}})).Decode(&d)
	if err != nil {
		return "", translate("find the ISIN of symbol "+symbol, err)
	}
	return d.ISIN, nil
}

// Holds looks for one _id with the series' prefix.
func (s *IndiaPrices) Holds(ctx context.Context, isin, series string) (bool, error) {
	prefix := indiaSeriesPrefix(isin, series)
	err := s.rows.FindOne(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: prefix}, {Key: "$lt", Value: prefix + "~"}}}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, translate("find india price rows of "+isin, err)
}

// Count returns how many versions are held.
func (s *IndiaPrices) Count(ctx context.Context) (int64, error) {
	n, err := s.rows.EstimatedDocumentCount(ctx)
	if err != nil {
		return 0, translate("count india price rows", err)
	}
	return n, nil
}
