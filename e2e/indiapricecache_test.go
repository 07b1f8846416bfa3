package e2e

import (
	"context"
	"errors"
	"testing"
	"time"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
	"github.com/quarrydata/quarry/quarrytest"
)

// cachedIndiaPrices is a MongoDB store of db keeping what it reads in a
// read cache of its own, whose entries expire ttl after they were read by
// now.
func cachedIndiaPrices(t *testing.T, db *mongodrv.Database, ttl time.Duration, now usecase.Clock) *mongo.IndiaPrices {
	t.Helper()
	cache, err := readcache.New(1<<20, ttl, now)
	if err != nil {
		t.Fatal(err)
	}
	return mongo.NewCachedIndiaPrices(db, cache)
}

// TestMongoContractsCachedIndiaPrices runs the IndiaPriceStore contract on
// the MongoDB adapter with a read cache, as the server runs it.
func TestMongoContractsCachedIndiaPrices(t *testing.T) {
	porttest.RunIndiaPrices(t, func(t *testing.T) ports.IndiaPriceStore {
		return cachedIndiaPrices(t, mongoDatabase(t), time.Minute, usecase.SystemClock)
	})
}

// reliance is the sample's RELIANCE EQ row of 2021-06-03 (NSE
// sec_bhavdata_full, sampledata/india_prices, turnover converted from
// lakhs), known at known, with its close given: a test makes a corrected
// version from it.
func reliance(known time.Time, close float64) nse.Row {
	return nse.Row{Symbol: "RELIANCE", Series: "EQ", ISIN: "INE002A01018", Date: "2021-06-03", PrevClose: 2201.25,
		Open: 2221.00, High: 2250.00, Low: 2196.10, Last: 2208.00, Close: close, Volume: 11064116,
		Turnover: 24578878000, Trades: 341728, Source: "sec_bhavdata_full_03062021.csv", KnownAt: known}
}

// relianceRows resolves RELIANCE and returns its rows at asOf.
func relianceRows(t *testing.T, store ports.IndiaPriceStore, asOf time.Time) []nse.Row {
	t.Helper()
	ctx := context.Background()
	isin, err := store.ISINOf(ctx, "RELIANCE", "EQ", "2022-12-31", asOf)
	if err != nil {
		t.Fatal(err)
	}
	var got []nse.Row
	for r, err := range store.Rows(ctx, ports.IndiaRowQuery{ISIN: isin, Series: "EQ", AsOf: asOf}) {
		must(t, err)
		got = append(got, r)
	}
	return got
}

// relianceClose returns RELIANCE's one close at asOf.
func relianceClose(t *testing.T, store ports.IndiaPriceStore, asOf time.Time) float64 {
	t.Helper()
	got := relianceRows(t, store, asOf)
	if len(got) != 1 {
		t.Fatalf("rows = %v", got)
	}
	return got[0].Close
}

func TestMongoIndiaPriceCacheServesFromMemoryUntilExpiry(t *testing.T) {
	ctx := context.Background()
	db, finds := commandCountedDatabase(t, "find")
	clock := quarrytest.NewClock(time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC))
	cached := cachedIndiaPrices(t, db, 30*time.Second, clock.Now)
	// Another process (quarry ingest) writes through a store of its own.
	other := mongo.NewIndiaPrices(db)
	known := time.Date(2021, 6, 3, 12, 0, 0, 0, time.UTC)
	if _, err := cached.ISINOf(ctx, "RELIANCE", "EQ", "2021-12-31", clock.Now()); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("an unknown symbol = %v", err)
	}
	if held, err := cached.Holds(ctx, "INE002A01018", "EQ"); err != nil || held {
		t.Fatalf("Holds of an unknown series = %v, %v", held, err)
	}
	// Rows ingested by another process are served at once: empty reads are not cached.
	must(t, other.Add(ctx, []nse.Row{reliance(known, 2209.65)}))
	finds.take()
	if got := relianceClose(t, cached, clock.Now()); got != 2209.65 {
		t.Fatalf("after ingest close = %v", got)
	}
	if held, err := cached.Holds(ctx, "INE002A01018", "EQ"); err != nil || !held {
		t.Fatalf("Holds = %v, %v", held, err)
	}
	// The symbol's index entry, the series' entry, the year's one part,
	// and the pending batches once, to learn that the row's batch is
	// published (B127): four reads, then none.
	if got := finds.take()["find"]; got != 4 {
		t.Fatalf("the first page read the store %d times, want 4", got)
	}
	relianceClose(t, cached, clock.Now())
	if got := finds.take()["find"]; got != 0 {
		t.Fatalf("a second page read the store %d more times", got)
	}
	// A correction by another process is served after the TTL.
	must(t, other.Add(ctx, []nse.Row{reliance(known.Add(time.Hour), 2210.00)}))
	clock.Advance(29 * time.Second)
	if got := relianceClose(t, cached, clock.Now()); got != 2209.65 {
		t.Fatalf("within the TTL the cached row is served, got %v", got)
	}
	clock.Advance(2 * time.Second)
	if got := relianceClose(t, cached, clock.Now()); got != 2210.00 {
		t.Fatalf("after the TTL the store is read again, got %v", got)
	}
}

func TestMongoIndiaPriceCacheForgetsWhatItWrites(t *testing.T) {
	ctx := context.Background()
	cached := cachedIndiaPrices(t, mongoDatabase(t), time.Hour, usecase.SystemClock)
	known := time.Date(2021, 6, 3, 12, 0, 0, 0, time.UTC)
	asOf := known.Add(24 * time.Hour)
	must(t, cached.Add(ctx, []nse.Row{reliance(known, 2209.65)}))
	if got := relianceClose(t, cached, asOf); got != 2209.65 {
		t.Fatalf("close = %v", got)
	}
	must(t, cached.Add(ctx, []nse.Row{reliance(known.Add(time.Hour), 2210.00)}))
	if got := relianceClose(t, cached, asOf); got != 2210.00 {
		t.Fatalf("after a write through the cache close = %v", got)
	}
	// A year new to the series is seen at once too (the version is the
	// test's, moved to 2022).
	next := reliance(known, 2209.65)
	next.Date = "2022-06-03"
	must(t, cached.Add(ctx, []nse.Row{next}))
	if got := relianceRows(t, cached, asOf); len(got) != 2 || got[1].Date != next.Date {
		t.Fatalf("after a write to a new year rows = %+v", got)
	}
}
