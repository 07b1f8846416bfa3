package fundholders_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

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
	clock := readcachetest.NewClock(time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC))
	cache := fundholders.NewCache(backing, readcachetest.New(t, 30*time.Second, clock.Now))
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
	cache := fundholders.NewCache(backing, readcachetest.New(t, time.Hour, usecase.SystemClock))
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

type gate struct {
	reached, release chan struct{}
}

func newGate() *gate { return &gate{reached: make(chan struct{}), release: make(chan struct{})} }
