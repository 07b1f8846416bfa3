package e2e

import (
	"bytes"
	"compress/flate"
	"context"
	"io"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
)

// TestMongoHidesADayWhoseWriteStoppedPartWay writes a day, then puts the
// store as a write that stopped before publishing leaves it (its batch mark
// still pending, whatever of its documents were written): no reader sees
// any of that day, ingestion's OnDate does not count it held, and adding
// the rows again, as the next run does, publishes them.
func TestMongoHidesADayWhoseWriteStoppedPartWay(t *testing.T) {
	ctx := context.Background()
	db := mongoDatabase(t)
	s := mongo.NewIndiaPrices(db)
	at := time.Date(2025, 4, 8, 16, 0, 0, 0, time.UTC)
	// Real NSE EQ rows of Eternal Ltd (sec_bhavdata_full, turnover
	// converted from lakhs), as in porttest.
	rows := []nse.Row{
		{Symbol: "ZOMATO", Date: "2025-04-07", PrevClose: 210.53, Open: 196.00, High: 211.00, Low: 194.80, Last: 211.00, Close: 209.63, Volume: 64932923, Turnover: 13341896000, Trades: 334420},
		{Symbol: "ZOMATO", Date: "2025-04-08", PrevClose: 209.63, Open: 213.19, High: 219.19, Low: 210.81, Last: 214.55, Close: 215.19, Volume: 62002510, Turnover: 13351194000, Trades: 362486},
	}
	for i := range rows {
		rows[i].Series, rows[i].ISIN, rows[i].Source, rows[i].KnownAt = "EQ", "INE758T01015", "sec_bhavdata_full.csv", at
	}
	must(t, s.Add(ctx, rows[:1]))
	must(t, s.Add(ctx, rows[1:]))
	marks := dayMarks(t, db, "2025-04-08")
	if len(marks) != 1 || marks[0] == "" {
		t.Fatalf("the day's versions carry no batch mark: %q", marks)
	}
	_, err := db.Collection("india_price_pending").InsertOne(ctx, bson.D{{Key: "_id", Value: marks[0]}})
	must(t, err)

	q := ports.IndiaRowQuery{ISIN: "INE758T01015", Series: "EQ", AsOf: at.Add(time.Hour)}
	for _, reader := range []*mongo.IndiaPrices{s, mongo.NewIndiaPrices(db)} {
		if got := dates(t, reader, q); len(got) != 1 || got[0] != "2025-04-07" {
			t.Fatalf("a reader sees %v of a day not published", got)
		}
		held, err := reader.OnDate(ctx, "2025-04-08")
		if err != nil || len(held) != 0 {
			t.Fatalf("OnDate of the day not published: %v, %v", held, err)
		}
	}
	must(t, s.Add(ctx, rows[1:]))
	if got := dates(t, mongo.NewIndiaPrices(db), q); len(got) != 2 {
		t.Fatalf("after the next run: %v", got)
	}
}

// dayMarks returns the batch marks of the versions a day's document
// holds, packed as the store writes it (deflated BSON of its rows).
func dayMarks(t *testing.T, db *mongodrv.Database, date string) []string {
	t.Helper()
	var day struct {
		Packed []byte `bson:"packed"`
	}
	must(t, db.Collection("india_price_days").FindOne(context.Background(), bson.D{{Key: "_id", Value: date}}).Decode(&day))
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(day.Packed)))
	must(t, err)
	var body struct {
		Rows []struct {
			Batch string `bson:"b"`
		} `bson:"rows"`
	}
	must(t, bson.Unmarshal(raw, &body))
	marks := make([]string, len(body.Rows))
	for i, r := range body.Rows {
		marks[i] = r.Batch
	}
	return marks
}

func dates(t *testing.T, s ports.IndiaPriceStore, q ports.IndiaRowQuery) []string {
	t.Helper()
	var out []string
	for r, err := range s.Rows(context.Background(), q) {
		must(t, err)
		out = append(out, r.Date)
	}
	return out
}
