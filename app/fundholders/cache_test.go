package fundholders_test

import (
	"context"
	"errors"
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

const (
	nzsAccession = "0001816616-21-000007"
	apple        = "037833100"
	microsoft    = "594918104"
)

// nzsFiling is one filing reporting one row in cusip.
func nzsFiling(cusip string) holdings.Filing {
	h := holdings.Holding{Accession: nzsAccession, Row: 1, FundCIK: "0001816616", FundName: "NZS Capital, LLC",
		ReportPeriod: "2021-09-30", FilingDate: "2021-11-12", CUSIP: cusip, Shares: 208234, ShareType: "SH", Value: 29465000, Discretion: "SOLE"}
	return holdings.Filing{Accession: h.Accession, FormType: "13F-HR", FundCIK: h.FundCIK, FundName: h.FundName,
		ReportPeriod: h.ReportPeriod, FilingDate: h.FilingDate, Holdings: []holdings.Holding{h}}
}

// cusipHeld returns the one CUSIP the filing reports, or "" when the
// filing is not held.
func cusipHeld(t *testing.T, s ports.FundHoldingStore) string {
	t.Helper()
	cusips, err := s.ThirteenFFilingCUSIPs(context.Background(), nzsAccession)
	if errors.Is(err, ports.ErrNotFound) {
		return ""
	}
	if err != nil || len(cusips) != 1 {
		t.Fatalf("cusips = %v, %v", cusips, err)
	}
	return cusips[0]
}

func TestFundHoldingsCacheServesUntilExpiry(t *testing.T) {
	ctx := context.Background()
	backing := memory.NewFundHoldings()
	clock := readcachetest.NewClock(time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC))
	cache := fundholders.NewCache(backing, readcachetest.New(t, 30*time.Second, clock.Now))
	if got := cusipHeld(t, cache); got != "" {
		t.Fatalf("empty store: %s", got)
	}
	// Another process ingests: a filing not found was not cached.
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(apple)}); err != nil {
		t.Fatal(err)
	}
	if got := cusipHeld(t, cache); got != apple {
		t.Fatalf("after ingest: %s", got)
	}
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(microsoft)}); err != nil {
		t.Fatal(err)
	}
	if got := cusipHeld(t, cache); got != apple {
		t.Fatalf("within the TTL the cached CUSIPs are served, got %s", got)
	}
	clock.Advance(31 * time.Second)
	if got := cusipHeld(t, cache); got != microsoft {
		t.Fatalf("after the TTL the store is read again, got %s", got)
	}
	// A load through this instance shows at once.
	if err := cache.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(apple)}); err != nil {
		t.Fatal(err)
	}
	if got := cusipHeld(t, cache); got != apple {
		t.Fatalf("after a load through the cache: %s", got)
	}
}

// heldFundHoldings holds the next lookup after it has read the store,
// until released.
type heldFundHoldings struct {
	*memory.FundHoldings
	hold atomic.Pointer[gate]
}

func (s *heldFundHoldings) ThirteenFFilingCUSIPs(ctx context.Context, accession string) ([]string, error) {
	cusips, err := s.FundHoldings.ThirteenFFilingCUSIPs(ctx, accession)
	if g := s.hold.Swap(nil); g != nil {
		close(g.reached)
		<-g.release
	}
	return cusips, err
}

// A load forgets every filing's CUSIPs; CUSIPs read before that must not be
// cached after it.
func TestFundHoldingsCacheDoesNotCacheALookupOverlappingALoad(t *testing.T) {
	ctx := context.Background()
	backing := &heldFundHoldings{FundHoldings: memory.NewFundHoldings()}
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(apple)}); err != nil {
		t.Fatal(err)
	}
	cache := fundholders.NewCache(backing, readcachetest.New(t, time.Hour, usecase.SystemClock))
	g := newGate()
	backing.hold.Store(g)
	read := make(chan error)
	go func() {
		_, err := cache.ThirteenFFilingCUSIPs(ctx, nzsAccession)
		read <- err
	}()
	<-g.reached
	if err := cache.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(microsoft)}); err != nil {
		t.Fatal(err)
	}
	close(g.release)
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	if got := cusipHeld(t, cache); got != microsoft {
		t.Fatalf("after the load returned: %s, want %s", got, microsoft)
	}
}

type gate struct {
	reached, release chan struct{}
}

func newGate() *gate { return &gate{reached: make(chan struct{}), release: make(chan struct{})} }

// countedFundHoldings counts the store's reads of pages.
type countedFundHoldings struct {
	*memory.FundHoldings
	pages atomic.Int64
}

func (s *countedFundHoldings) FundHolders(ctx context.Context, cusip string, q holdings.Query) ([]holdings.Holding, int, error) {
	s.pages.Add(1)
	return s.FundHoldings.FundHolders(ctx, cusip, q)
}

// A page is kept for the filings known at its instant: later instants of
// the same day read the store no more, another day reads it again, and an
// empty page is never kept.
func TestFundHoldingsCacheKeepsAPagePerKnownDay(t *testing.T) {
	ctx := context.Background()
	backing := &countedFundHoldings{FundHoldings: memory.NewFundHoldings()}
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{nzsFiling(apple)}); err != nil {
		t.Fatal(err)
	}
	cache := fundholders.NewCache(backing, readcachetest.New(t, time.Hour, usecase.SystemClock))
	page := func(asOf time.Time, wantTotal int) {
		t.Helper()
		got, total, err := cache.FundHolders(ctx, apple, holdings.Query{AsOf: asOf, Limit: 10})
		if err != nil || total != wantTotal || len(got) != wantTotal {
			t.Fatalf("as of %s: %+v, total %d, %v; want %d", asOf, got, total, err, wantTotal)
		}
	}
	day := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	page(day.Add(10*time.Hour), 1)
	page(day.Add(11*time.Hour), 1)
	if n := backing.pages.Load(); n != 1 {
		t.Fatalf("two instants of one day read the store %d times, want 1", n)
	}
	page(day.Add(24*time.Hour), 1)
	before := time.Date(2021, 11, 12, 10, 0, 0, 0, time.UTC) // the filing's day: not known yet
	page(before, 0)
	page(before, 0)
	if n := backing.pages.Load(); n != 4 {
		t.Fatalf("the store was read %d times, want 4", n)
	}
}
