package mongo_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// The China prices contract on the data directory's FerretDB.
func TestChinaPricesContractEmbedded(t *testing.T) {
	porttest.RunChinaPrices(t, func(t *testing.T) ports.ChinaPriceStore { return mongoadapter.NewChinaPrices(embeddedDB(t)) })
}

// A year bucket written before buckets were packed (an array of bar
// subdocuments) is still read as it was written, and a listing updated
// again has its bucket packed without changing what is read.
func TestChinaPricesReadTheEarlierBuckets(t *testing.T) {
	ctx := context.Background()
	db := embeddedDB(t)
	known := time.Date(2021, 5, 6, 7, 0, 0, 0, time.UTC)
	// The sample's bar of 000001.SZ of 2021-05-06 (Tushare daily).
	bar := ashare.Bar{Code: "SZSE.000001", TradeDate: "2021-05-06", Open: 23.1, High: 23.7, Low: 23.1, Close: 23.5, PreClose: 23.29,
		Volume: 50029522, Amount: 1174181610, Source: "000001.SZ.csv", KnownAt: known}
	series := bson.D{{Key: "_id", Value: bar.Code}, {Key: "years", Value: bson.A{2021}}, {Key: "steps", Value: bson.A{}}}
	bucket := bson.D{{Key: "_id", Value: "SZSE.000001|2021"}, {Key: "bars", Value: bson.A{bson.D{
		{Key: "d", Value: bar.TradeDate}, {Key: "o", Value: bar.Open}, {Key: "h", Value: bar.High}, {Key: "l", Value: bar.Low},
		{Key: "c", Value: bar.Close}, {Key: "p", Value: bar.PreClose}, {Key: "v", Value: bar.Volume}, {Key: "a", Value: bar.Amount},
		{Key: "src", Value: bar.Source}, {Key: "k", Value: known},
	}}}}
	if _, err := db.Collection("china_price_series").InsertOne(ctx, series); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection("china_price_bars").InsertOne(ctx, bucket); err != nil {
		t.Fatal(err)
	}
	store := mongoadapter.NewChinaPrices(db)
	q := ports.BarQuery{Code: bar.Code, AsOf: known.Add(time.Hour), Limit: 10}
	if got, _, err := store.Bars(ctx, q); err != nil || !reflect.DeepEqual(got, []ashare.Bar{bar}) {
		t.Fatalf("earlier bucket read as %+v, %v; want %+v", got, err, bar)
	}
	later := bar
	later.TradeDate, later.Close = "2021-05-07", 23.6 // made up: a second bar of the year
	err := store.UpdateSeries(ctx, bar.Code, func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error) { return []ashare.Bar{later}, nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	var raw bson.M
	if err := db.Collection("china_price_bars").FindOne(ctx, bson.D{{Key: "_id", Value: "SZSE.000001|2021"}}).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	if _, packed := raw["b"]; !packed || raw["bars"] != nil {
		t.Fatalf("updated, the bucket is not packed: %v", raw)
	}
	if got, _, err := store.Bars(ctx, q); err != nil || !reflect.DeepEqual(got, []ashare.Bar{bar, later}) {
		t.Fatalf("packed bucket read as %+v, %v", got, err)
	}
}
