package mongo_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// The India prices contract on the data directory's FerretDB.
func TestIndiaPricesContractEmbedded(t *testing.T) {
	porttest.RunIndiaPrices(t, func(t *testing.T) ports.IndiaPriceStore { return mongoadapter.NewIndiaPrices(embeddedDB(t)) })
}

// eternalRow is a real NSE EQ row of Eternal Ltd (sec_bhavdata_full,
// turnover converted from lakhs), as in porttest, known at at.
func eternalRow(symbol, date string, close float64, at time.Time) nse.Row {
	return nse.Row{Symbol: symbol, Series: "EQ", ISIN: "INE758T01015", Date: date, PrevClose: 210.53, Open: 196.00, High: 211.00,
		Low: 194.80, Last: 211.00, Close: close, Volume: 64932923, Turnover: 13341896000, Trades: 334420,
		Source: "sec_bhavdata_full.csv", KnownAt: at}
}

// earlierVersion is r as a subdocument of the rows array documents held
// before they were packed, carrying batch mark mark ("": none); a bucket's
// leaves out ISIN and series.
func earlierVersion(r nse.Row, inBucket bool, mark string) bson.D {
	var d bson.D
	if !inBucket {
		d = bson.D{{Key: "i", Value: r.ISIN}, {Key: "s", Value: r.Series}}
	}
	d = append(d, bson.D{{Key: "d", Value: r.Date}, {Key: "y", Value: r.Symbol}, {Key: "o", Value: r.Open}, {Key: "h", Value: r.High},
		{Key: "l", Value: r.Low}, {Key: "c", Value: r.Close}, {Key: "lp", Value: r.Last}, {Key: "p", Value: r.PrevClose},
		{Key: "v", Value: r.Volume}, {Key: "t", Value: r.Turnover}, {Key: "n", Value: r.Trades}, {Key: "src", Value: r.Source},
		{Key: "k", Value: r.KnownAt}}...)
	if mark != "" {
		d = append(d, bson.E{Key: "b", Value: mark})
	}
	return d
}

// Year bucket parts and days written before they were packed (an array of
// version subdocuments) are read as they were written, versions of a
// batch not published hidden as before; a day written again is packed,
// and so is a year once it is rewritten into one part, without changing
// what is read.
func TestIndiaPricesReadTheEarlierLayout(t *testing.T) {
	ctx := context.Background()
	db := embeddedDB(t)
	at := time.Date(2025, 4, 8, 16, 0, 0, 0, time.UTC)
	// The closes of 2025-04-07, 04-08 and 04-09; 209.7 stands for a
	// corrected close (made up).
	first, stopped := eternalRow("ZOMATO", "2025-04-07", 209.63, at), eternalRow("ZOMATO", "2025-04-08", 215.19, at)
	corrected := eternalRow("ZOMATO", "2025-04-07", 209.7, at.Add(time.Hour))
	next := eternalRow("ETERNAL", "2025-04-09", 211.39, at.Add(time.Hour))
	// The store writes the index; the bucket and days it wrote are then
	// replaced by their earlier layout, the 04-08 version of a write that
	// stopped part way (its mark still pending).
	must(t, mongoadapter.NewIndiaPrices(db).Add(ctx, []nse.Row{first}))
	put := func(collection, id string, versions ...bson.D) {
		t.Helper()
		rows := bson.A{}
		for _, v := range versions {
			rows = append(rows, v)
		}
		_, err := db.Collection(collection).ReplaceOne(ctx, bson.D{{Key: "_id", Value: id}},
			bson.D{{Key: "_id", Value: id}, {Key: "rows", Value: rows}}, options.Replace().SetUpsert(true))
		must(t, err)
	}
	put("india_price_years", "INE758T01015|EQ|2025", earlierVersion(first, true, ""), earlierVersion(stopped, true, "stopped"))
	put("india_price_days", "2025-04-07", earlierVersion(first, false, ""))
	put("india_price_days", "2025-04-08", earlierVersion(stopped, false, "stopped"))
	_, err := db.Collection("india_price_pending").InsertOne(ctx, bson.D{{Key: "_id", Value: "stopped"}})
	must(t, err)

	s := mongoadapter.NewIndiaPrices(db)
	read := func(want ...nse.Row) {
		t.Helper()
		q := ports.IndiaRowQuery{ISIN: first.ISIN, Series: "EQ", AsOf: at.Add(2 * time.Hour)}
		var got []nse.Row
		for r, err := range mongoadapter.NewIndiaPrices(db).Rows(ctx, q) {
			must(t, err)
			got = append(got, r)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Rows = %+v\nwant %+v", got, want)
		}
	}
	onDate := func(date string, want ...nse.Row) {
		t.Helper()
		if got, err := mongoadapter.NewIndiaPrices(db).OnDate(ctx, date); err != nil || len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Fatalf("OnDate %s = %+v, %v; want %+v", date, got, err, want)
		}
	}
	read(first)
	onDate("2025-04-07", first)
	onDate("2025-04-08")
	if isin, err := s.ISINOf(ctx, "ZOMATO", "EQ", "2025-04-08", at); err != nil || isin != first.ISIN {
		t.Fatalf("ISINOf = %s, %v", isin, err)
	}

	must(t, s.Add(ctx, []nse.Row{corrected, next}))
	wantPacked(t, db, "india_price_days", "2025-04-07")
	wantEarlier(t, db, "india_price_years", "INE758T01015|EQ|2025")
	wantPacked(t, db, "india_price_years", "INE758T01015|EQ|2025|1")
	read(corrected, next)
	onDate("2025-04-07", first, corrected)
	onDate("2025-04-08")

	// The next run adds the stopped day again, and later writes fill the
	// year's parts until it is rewritten into one.
	must(t, s.Add(ctx, []nse.Row{stopped}))
	wantPacked(t, db, "india_price_days", "2025-04-08")
	read(corrected, stopped, next)
	onDate("2025-04-08", stopped)
	last := next
	for i := range mongoadapter.IndiaMaxParts - 2 {
		last.KnownAt = next.KnownAt.Add(time.Duration(i+1) * time.Millisecond)
		must(t, s.Add(ctx, []nse.Row{last}))
	}
	wantPacked(t, db, "india_price_years", "INE758T01015|EQ|2025")
	read(corrected, stopped, last)
	// 04-07's two versions, 04-08's one, and 04-09's first and later ones.
	if n, err := s.Count(ctx); err != nil || n != 2+1+1+mongoadapter.IndiaMaxParts-2 {
		t.Fatalf("Count = %d, %v", n, err)
	}
}

// stored reads the document under id as it is stored.
func stored(t *testing.T, db *mongo.Database, collection, id string) bson.M {
	t.Helper()
	var raw bson.M
	must(t, db.Collection(collection).FindOne(context.Background(), bson.D{{Key: "_id", Value: id}}).Decode(&raw))
	return raw
}

func wantPacked(t *testing.T, db *mongo.Database, collection, id string) {
	t.Helper()
	if raw := stored(t, db, collection, id); raw["packed"] == nil || raw["rows"] != nil {
		t.Fatalf("%s %s is not packed: %v", collection, id, raw)
	}
}

func wantEarlier(t *testing.T, db *mongo.Database, collection, id string) {
	t.Helper()
	if raw := stored(t, db, collection, id); raw["packed"] != nil || raw["rows"] == nil {
		t.Fatalf("%s %s is not as written before packing: %v", collection, id, raw)
	}
}
