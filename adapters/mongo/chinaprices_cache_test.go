package mongo_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
	"github.com/quarrydata/quarry/quarrytest"
)

// cachedChinaPrices is the prices store of db keeping what it reads in a
// read cache of its own, whose entries expire ttl after they were read by
// now.
func cachedChinaPrices(t *testing.T, db *mongo.Database, ttl time.Duration, now usecase.Clock) *mongoadapter.ChinaPrices {
	t.Helper()
	cache, err := readcache.New(1<<20, ttl, now)
	if err != nil {
		t.Fatal(err)
	}
	return mongoadapter.NewCachedChinaPrices(db, cache)
}

// The China prices contract on the data directory's FerretDB with a read
// cache, as the server runs it.
func TestCachedChinaPricesContractEmbedded(t *testing.T) {
	porttest.RunChinaPrices(t, func(t *testing.T) ports.ChinaPriceStore {
		return cachedChinaPrices(t, embeddedDB(t), time.Minute, usecase.SystemClock)
	})
}

// moutaiBar is a bar of SSE.600519 on day, closing at close, known at
// known (made up from the sample's shape).
func moutaiBar(day string, close float64, known time.Time) ashare.Bar {
	return ashare.Bar{Code: "SSE.600519", TradeDate: day, Open: 2000, High: 2010, Low: 1990, Close: close, PreClose: 2000,
		Volume: 30000, Amount: 6e7, Source: "600519.SH.csv", KnownAt: known}
}

// addBars is an UpdateSeries change adding bars, with no steps.
func addBars(bars ...ashare.Bar) func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
	return func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error) { return bars, nil, nil }
}

// closes returns the closes of the page of SSE.600519 at asOf.
func closes(t *testing.T, s ports.ChinaPriceStore, asOf time.Time) []float64 {
	t.Helper()
	bars, _, err := s.Bars(context.Background(), ports.BarQuery{Code: "SSE.600519", AsOf: asOf, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, b := range bars {
		out = append(out, b.Close)
	}
	return out
}

// A page read through the cache reads the series document and the year
// buckets it reaches once, then is cut in memory until the TTL has passed;
// a listing nobody holds yet is not cached, so its first ingest is seen at
// once.
func TestCachedChinaPricesServeFromMemoryUntilExpiry(t *testing.T) {
	ctx := context.Background()
	db, log := loggedDB(t)
	clock := quarrytest.NewClock(time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC))
	cached := cachedChinaPrices(t, db, 30*time.Second, clock.Now)
	// Another process (quarry ingest) writes through a store of its own.
	other := mongoadapter.NewChinaPrices(db)
	known := time.Date(2024, 1, 3, 8, 0, 0, 0, time.UTC)
	if got := closes(t, cached, clock.Now()); got != nil {
		t.Fatalf("an unknown listing = %v", got)
	}
	if err := other.UpdateSeries(ctx, "SSE.600519", addBars(moutaiBar("2023-12-29", 1726, known), moutaiBar("2024-01-02", 1685, known))); err != nil {
		t.Fatal(err)
	}
	log.take("china_price_series")
	log.take("china_price_bars")
	if got := closes(t, cached, clock.Now()); !reflect.DeepEqual(got, []float64{1726, 1685}) {
		t.Fatalf("after ingest closes = %v", got)
	}
	assertByIDEquality(t, "series", log.take("china_price_series"), []string{"SSE.600519"})
	assertByIDEquality(t, "buckets", log.take("china_price_bars"), []string{"SSE.600519|2023", "SSE.600519|2024"})
	closes(t, cached, clock.Now())
	if n := len(log.take("china_price_series")) + len(log.take("china_price_bars")); n != 0 {
		t.Fatalf("a second page read the store %d more times", n)
	}
	// A correction by another process is served after the TTL.
	if err := other.UpdateSeries(ctx, "SSE.600519", addBars(moutaiBar("2024-01-02", 1690, known.Add(time.Hour)))); err != nil {
		t.Fatal(err)
	}
	clock.Advance(29 * time.Second)
	if got := closes(t, cached, clock.Now()); !reflect.DeepEqual(got, []float64{1726, 1685}) {
		t.Fatalf("within the TTL the cached bars are served, got %v", got)
	}
	clock.Advance(2 * time.Second)
	if got := closes(t, cached, clock.Now()); !reflect.DeepEqual(got, []float64{1726, 1690}) {
		t.Fatalf("after the TTL the store is read again, got %v", got)
	}
}

// A write through the cached store is read at once: it forgets the series
// and the buckets it wrote, a year new to the listing included.
func TestCachedChinaPricesForgetWhatTheyWrite(t *testing.T) {
	ctx := context.Background()
	cached := cachedChinaPrices(t, embeddedDB(t), time.Hour, usecase.SystemClock)
	known := time.Date(2023, 12, 29, 8, 0, 0, 0, time.UTC)
	asOf := known.Add(24 * time.Hour)
	if err := cached.UpdateSeries(ctx, "SSE.600519", addBars(moutaiBar("2023-12-29", 1726, known))); err != nil {
		t.Fatal(err)
	}
	if got := closes(t, cached, asOf); !reflect.DeepEqual(got, []float64{1726}) {
		t.Fatalf("closes = %v", got)
	}
	if err := cached.UpdateSeries(ctx, "SSE.600519", addBars(moutaiBar("2023-12-29", 1730, known.Add(time.Hour)))); err != nil {
		t.Fatal(err)
	}
	if got := closes(t, cached, asOf); !reflect.DeepEqual(got, []float64{1730}) {
		t.Fatalf("after a correction through the cache closes = %v", got)
	}
	if err := cached.UpdateSeries(ctx, "SSE.600519", addBars(moutaiBar("2024-01-02", 1685, known.Add(2*time.Hour)))); err != nil {
		t.Fatal(err)
	}
	if got := closes(t, cached, asOf.Add(24*time.Hour)); !reflect.DeepEqual(got, []float64{1730, 1685}) {
		t.Fatalf("after a write to a new year closes = %v", got)
	}
}
