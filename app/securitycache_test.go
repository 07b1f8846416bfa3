package app_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// testClock is a Clock a test moves by hand; the cache reads it from its
// own goroutines too.
type testClock struct{ ns atomic.Int64 }

func newTestClock(t time.Time) *testClock {
	c := &testClock{}
	c.ns.Store(t.UnixNano())
	return c
}

func (c *testClock) Now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *testClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

func newReadCache(t *testing.T, ttl time.Duration, now app.Clock) *app.ReadCache {
	t.Helper()
	c, err := app.NewReadCache(1<<20, ttl, now)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var moutai = ashare.Security{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "Kweichow Moutai", ListingDate: "2001-08-27", Listed: true}

func TestNewReadCacheRefusesNoBudget(t *testing.T) {
	if _, err := app.NewReadCache(0, time.Minute, app.SystemClock); err == nil {
		t.Fatal("a budget of 0 bytes was accepted")
	}
}

func TestSecurityCacheServesUntilExpiry(t *testing.T) {
	ctx := context.Background()
	backing := memory.NewSecurities()
	clock := newTestClock(time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC))
	cache := app.NewSecurityCache(backing, newReadCache(t, 30*time.Second, clock.Now))
	if _, err := cache.Security(ctx, moutai.Code); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("miss = %v", err)
	}
	// A listing ingested by another process is visible at once: misses are not cached.
	if err := backing.UpsertSecurities(ctx, []ashare.Security{moutai}); err != nil {
		t.Fatal(err)
	}
	if got, err := cache.Security(ctx, moutai.Code); err != nil || got != moutai {
		t.Fatalf("after ingest = %+v, %v", got, err)
	}
	renamed := moutai
	renamed.CompanyName = "Moutai"
	if err := backing.UpsertSecurities(ctx, []ashare.Security{renamed}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(29 * time.Second)
	if got, _ := cache.Security(ctx, moutai.Code); got != moutai {
		t.Fatalf("within the TTL the cached listing is served, got %+v", got)
	}
	clock.Advance(2 * time.Second)
	if got, _ := cache.Security(ctx, moutai.Code); got != renamed {
		t.Fatalf("after the TTL the store is read again, got %+v", got)
	}
}

// countedSecurities counts reads, and can hold the next read or write
// after it has touched the store, until released.
type countedSecurities struct {
	*memory.Securities
	reads atomic.Int64
	// holdRead, when set, makes the next read return what it read only
	// once released, after telling read that it has read.
	holdRead atomic.Pointer[gate]
	// holdWrite, when set, makes the next write wait for release before
	// it writes, after telling writing that it has started.
	holdWrite atomic.Pointer[gate]
}

type gate struct {
	reached, release chan struct{}
}

func newGate() *gate { return &gate{reached: make(chan struct{}), release: make(chan struct{})} }

func (s *countedSecurities) Security(ctx context.Context, code string) (ashare.Security, error) {
	s.reads.Add(1)
	got, err := s.Securities.Security(ctx, code)
	if g := s.holdRead.Swap(nil); g != nil {
		close(g.reached)
		<-g.release
	}
	return got, err
}

func (s *countedSecurities) UpsertSecurities(ctx context.Context, secs []ashare.Security) error {
	if g := s.holdWrite.Swap(nil); g != nil {
		close(g.reached)
		<-g.release
	}
	return s.Securities.UpsertSecurities(ctx, secs)
}

func TestSecurityCacheLoadsOnceForConcurrentMisses(t *testing.T) {
	ctx := context.Background()
	backing := &countedSecurities{Securities: memory.NewSecurities()}
	if err := backing.UpsertSecurities(ctx, []ashare.Security{moutai}); err != nil {
		t.Fatal(err)
	}
	cache := app.NewSecurityCache(backing, newReadCache(t, time.Minute, app.SystemClock))
	// The first load is held until every reader has asked.
	g := newGate()
	backing.holdRead.Store(g)
	const readers = 32
	var started, done sync.WaitGroup
	var wrong atomic.Int64
	for range readers {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			if got, err := cache.Security(ctx, moutai.Code); err != nil || got != moutai {
				wrong.Add(1)
			}
		}()
	}
	started.Wait()
	<-g.reached
	time.Sleep(20 * time.Millisecond) // let the readers reach the cache
	close(g.release)
	done.Wait()
	if n := backing.reads.Load(); n != 1 || wrong.Load() != 0 {
		t.Fatalf("%d readers made %d reads of the store (want 1), %d got a wrong answer", readers, n, wrong.Load())
	}
}

func TestSecurityCacheDoesNotCacheAReadOverlappingAWrite(t *testing.T) {
	ctx := context.Background()
	renamed := moutai
	renamed.CompanyName = "Moutai"
	cases := map[string]func(t *testing.T, backing *countedSecurities, cache *app.SecurityCache){
		// A reader's load reads the old listing, the write completes and
		// returns, then the load completes: it must not be cached.
		"a load started before the write ends after it": func(t *testing.T, backing *countedSecurities, cache *app.SecurityCache) {
			g := newGate()
			backing.holdRead.Store(g)
			read := make(chan ashare.Security)
			go func() {
				got, _ := cache.Security(ctx, moutai.Code)
				read <- got
			}()
			<-g.reached
			if err := cache.UpsertSecurities(ctx, []ashare.Security{renamed}); err != nil {
				t.Error(err)
			}
			close(g.release)
			if got := <-read; got != moutai && got != renamed {
				t.Errorf("the overlapping reader got %+v", got)
			}
		},
		// A reader reads while the write is under way: had the entry been
		// dropped before the write, this read would cache the old listing.
		"a read while the store is being written": func(t *testing.T, backing *countedSecurities, cache *app.SecurityCache) {
			if got, _ := cache.Security(ctx, moutai.Code); got != moutai {
				t.Fatalf("before the write: %+v", got)
			}
			g := newGate()
			backing.holdWrite.Store(g)
			wrote := make(chan error)
			go func() { wrote <- cache.UpsertSecurities(ctx, []ashare.Security{renamed}) }()
			<-g.reached
			if got, _ := cache.Security(ctx, moutai.Code); got != moutai {
				t.Errorf("while the write is under way: %+v", got)
			}
			close(g.release)
			if err := <-wrote; err != nil {
				t.Error(err)
			}
		},
	}
	for name, race := range cases {
		t.Run(name, func(t *testing.T) {
			backing := &countedSecurities{Securities: memory.NewSecurities()}
			if err := backing.UpsertSecurities(ctx, []ashare.Security{moutai}); err != nil {
				t.Fatal(err)
			}
			cache := app.NewSecurityCache(backing, newReadCache(t, time.Hour, app.SystemClock))
			race(t, backing, cache)
			// The write has returned: every read from now on sees it.
			for range 3 {
				if got, err := cache.Security(ctx, moutai.Code); err != nil || got != renamed {
					t.Fatalf("after the write returned: %+v, %v", got, err)
				}
			}
		})
	}
}

func nzsFiling(shares int64) holdings.Filing {
	h := holdings.Holding{Accession: "0001816616-21-000007", Row: 1, FundCIK: "0001816616", FundName: "NZS Capital, LLC",
		ReportPeriod: "2021-09-30", FilingDate: "2021-11-12", CUSIP: "037833100", Shares: shares, ShareType: "SH", Value: 29465000, Discretion: "SOLE"}
	return holdings.Filing{Accession: h.Accession, FormType: "13F-HR", FundCIK: h.FundCIK, FundName: h.FundName,
		ReportPeriod: h.ReportPeriod, FilingDate: h.FilingDate, Holdings: []holdings.Holding{h}}
}

// sharesHeld returns the shares of the one row FundHoldingsOf finds, or 0.
func sharesHeld(t *testing.T, s ports.FundHoldingStore) int64 {
	t.Helper()
	rows, _, err := s.FundHoldingsOf(context.Background(), "037833100", "", "")
	if err != nil || len(rows) > 1 {
		t.Fatalf("rows = %+v, %v", rows, err)
	}
	if len(rows) == 0 {
		return 0
	}
	return rows[0].Shares
}

func TestFundHoldingsCacheServesUntilExpiry(t *testing.T) {
	ctx := context.Background()
	backing := memory.NewFundHoldings()
	clock := newTestClock(time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC))
	cache := app.NewFundHoldingsCache(backing, newReadCache(t, 30*time.Second, clock.Now))
	if got := sharesHeld(t, cache); got != 0 {
		t.Fatalf("empty store: %d shares", got)
	}
	// Another process ingests: an empty lookup was not cached.
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(208234)}); err != nil {
		t.Fatal(err)
	}
	if got := sharesHeld(t, cache); got != 208234 {
		t.Fatalf("after ingest: %d shares", got)
	}
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(1)}); err != nil {
		t.Fatal(err)
	}
	if got := sharesHeld(t, cache); got != 208234 {
		t.Fatalf("within the TTL the cached rows are served, got %d shares", got)
	}
	clock.Advance(31 * time.Second)
	if got := sharesHeld(t, cache); got != 1 {
		t.Fatalf("after the TTL the store is read again, got %d shares", got)
	}
	// A load through this instance shows at once.
	if err := cache.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(2)}); err != nil {
		t.Fatal(err)
	}
	if got := sharesHeld(t, cache); got != 2 {
		t.Fatalf("after a load through the cache: %d shares", got)
	}
}

// heldFundHoldings holds the next lookup after it has read the store,
// until released.
type heldFundHoldings struct {
	*memory.FundHoldings
	hold atomic.Pointer[gate]
}

func (s *heldFundHoldings) FundHoldingsOf(ctx context.Context, cusip, from, to string) ([]holdings.Holding, []holdings.Report, error) {
	rows, reports, err := s.FundHoldings.FundHoldingsOf(ctx, cusip, from, to)
	if g := s.hold.Swap(nil); g != nil {
		close(g.reached)
		<-g.release
	}
	return rows, reports, err
}

// A lookup cannot be named by the filings that change it, so a load forgets
// them all; a lookup read before that must not be cached after it.
func TestFundHoldingsCacheDoesNotCacheALookupOverlappingALoad(t *testing.T) {
	ctx := context.Background()
	backing := &heldFundHoldings{FundHoldings: memory.NewFundHoldings()}
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(208234)}); err != nil {
		t.Fatal(err)
	}
	cache := app.NewFundHoldingsCache(backing, newReadCache(t, time.Hour, app.SystemClock))
	g := newGate()
	backing.hold.Store(g)
	read := make(chan int64)
	go func() {
		rows, _, _ := cache.FundHoldingsOf(ctx, "037833100", "", "")
		read <- rows[0].Shares
	}()
	<-g.reached
	if err := cache.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(2)}); err != nil {
		t.Fatal(err)
	}
	close(g.release)
	<-read
	if got := sharesHeld(t, cache); got != 2 {
		t.Fatalf("after the load returned: %d shares, want 2", got)
	}
}
