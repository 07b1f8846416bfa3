package chinaprices_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// countedChinaPrices counts the store's reads of steps.
type countedChinaPrices struct {
	*memory.ChinaPrices
	steps atomic.Int64
}

func (s *countedChinaPrices) Steps(ctx context.Context, code string) ([]ashare.Step, error) {
	s.steps.Add(1)
	return s.ChinaPrices.Steps(ctx, code)
}

// pingAn is the sample's bar of 000001.SZ of 2021-05-06 (Tushare daily,
// sampledata/china_prices), known at known, with its close given: a test
// makes a corrected version from it.
func pingAn(known time.Time, close float64) ashare.Bar {
	return ashare.Bar{Code: "SZSE.000001", TradeDate: "2021-05-06", Open: 23.1, High: 23.7, Low: 23.1, Close: close, PreClose: 23.29,
		Volume: 50029522, Amount: 1174181610, Source: "000001.SZ.csv", KnownAt: known}
}

func addBars(bars ...ashare.Bar) func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
	return func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
		return bars, []ashare.Step{{Date: "2021-05-06", Ratio: 1, KnownAt: bars[0].KnownAt}}, nil
	}
}

// Steps are kept until the TTL; pages are read from the store each time.
func TestChinaPriceCacheKeepsStepsUntilExpiry(t *testing.T) {
	ctx := context.Background()
	clock := readcachetest.NewClock(time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC))
	backing := &countedChinaPrices{ChinaPrices: memory.NewChinaPrices()}
	cache := chinaprices.NewCache(backing, readcachetest.New(t, 30*time.Second, clock.Now))
	known := time.Date(2021, 5, 6, 7, 0, 0, 0, time.UTC)
	steps := func() []ashare.Step {
		t.Helper()
		steps, err := cache.Steps(ctx, "SZSE.000001")
		if err != nil {
			t.Fatal(err)
		}
		return steps
	}
	if err := backing.UpdateSeries(ctx, "SZSE.000001", addBars(pingAn(known, 23.5))); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if got := steps(); len(got) != 1 || !got[0].KnownAt.Equal(known) {
			t.Fatalf("steps = %v", got)
		}
	}
	if n := backing.steps.Load(); n != 1 {
		t.Fatalf("the store was read %d times for steps, want 1", n)
	}
	// A correction by another process: its page at once, its steps after the TTL.
	if err := backing.UpdateSeries(ctx, "SZSE.000001", addBars(pingAn(known.Add(time.Hour), 23.6))); err != nil {
		t.Fatal(err)
	}
	bars, _, err := cache.Bars(ctx, ports.BarQuery{Code: "SZSE.000001", AsOf: clock.Now(), Limit: 10})
	if err != nil || len(bars) != 1 || bars[0].Close != 23.6 {
		t.Fatalf("page after another process's correction = %v, %v", bars, err)
	}
	clock.Advance(29 * time.Second)
	if got := steps(); !got[0].KnownAt.Equal(known) {
		t.Fatalf("within the TTL the cached steps are served, got %v", got)
	}
	clock.Advance(2 * time.Second)
	if got := steps(); !got[0].KnownAt.Equal(known.Add(time.Hour)) {
		t.Fatalf("after the TTL the store is read again, got %v", got)
	}
}

func TestChinaPriceCacheForgetsWhatItWrites(t *testing.T) {
	ctx := context.Background()
	cache := chinaprices.NewCache(memory.NewChinaPrices(), readcachetest.New(t, time.Hour, usecase.SystemClock))
	known := time.Date(2021, 5, 6, 7, 0, 0, 0, time.UTC)
	later := known.Add(time.Hour)
	if err := cache.UpdateSeries(ctx, "SZSE.000001", addBars(pingAn(known, 23.5))); err != nil {
		t.Fatal(err)
	}
	q := ports.BarQuery{Code: "SZSE.000001", AsOf: later.Add(time.Hour), Limit: 10}
	if bars, _, err := cache.Bars(ctx, q); err != nil || bars[0].Close != 23.5 {
		t.Fatalf("Bars = %v, %v", bars, err)
	}
	if err := cache.UpdateSeries(ctx, "SZSE.000001", addBars(pingAn(later, 23.6))); err != nil {
		t.Fatal(err)
	}
	if bars, _, err := cache.Bars(ctx, q); err != nil || bars[0].Close != 23.6 {
		t.Fatalf("after a write through the cache Bars = %v, %v", bars, err)
	}
	steps, err := cache.Steps(ctx, "SZSE.000001")
	if err != nil || len(steps) != 1 || !steps[0].KnownAt.Equal(later) {
		t.Fatalf("after a write through the cache Steps = %v, %v", steps, err)
	}
}
