package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

func TestSecurityCacheKeepsTheContract(t *testing.T) {
	porttest.RunSecurities(t, func(*testing.T) ports.SecurityStore {
		return app.NewSecurityCache(memory.NewSecurities(), time.Minute, 100, app.SystemClock)
	})
}

func TestSecurityCacheServesUntilExpiry(t *testing.T) {
	ctx := context.Background()
	backing := memory.NewSecurities()
	now := time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC)
	cache := app.NewSecurityCache(backing, 30*time.Second, 100, func() time.Time { return now })
	moutai := ashare.Security{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "Kweichow Moutai", ListingDate: "2001-08-27", Listed: true}
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
	if got, _ := cache.Security(ctx, moutai.Code); got != moutai {
		t.Fatalf("within the TTL the cached listing is served, got %+v", got)
	}
	now = now.Add(31 * time.Second)
	if got, _ := cache.Security(ctx, moutai.Code); got != renamed {
		t.Fatalf("after the TTL the store is read again, got %+v", got)
	}
}

func TestFinancialsCacheKeepsTheContract(t *testing.T) {
	porttest.RunFinancials(t, func(*testing.T) ports.FinancialsStore {
		return app.NewFinancialsCache(memory.NewFinancials(), time.Minute, 100, app.SystemClock)
	})
}

func TestFundHoldingsCacheKeepsTheContract(t *testing.T) {
	porttest.RunFundHoldings(t, func(*testing.T) ports.FundHoldingStore {
		return app.NewFundHoldingsCache(memory.NewFundHoldings(), time.Minute, 100, app.SystemClock)
	})
}

func TestFundHoldingsCacheServesUntilExpiry(t *testing.T) {
	ctx := context.Background()
	backing := memory.NewFundHoldings()
	now := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	cache := app.NewFundHoldingsCache(backing, 30*time.Second, 100, func() time.Time { return now })
	filing := func(shares int64) holdings.Filing {
		h := holdings.Holding{Accession: "0001816616-21-000007", Row: 1, FundCIK: "0001816616", FundName: "NZS Capital, LLC",
			ReportPeriod: "2021-09-30", FilingDate: "2021-11-12", CUSIP: "037833100", Shares: shares, ShareType: "SH", Value: 29465000, Discretion: "SOLE"}
		return holdings.Filing{Accession: h.Accession, FormType: "13F-HR", FundCIK: h.FundCIK, FundName: h.FundName,
			ReportPeriod: h.ReportPeriod, FilingDate: h.FilingDate, Holdings: []holdings.Holding{h}}
	}
	shares := func() int64 {
		t.Helper()
		rows, _, err := cache.FundHoldingsOf(ctx, "037833100", "", "")
		if err != nil || len(rows) > 1 {
			t.Fatalf("rows = %+v, %v", rows, err)
		}
		if len(rows) == 0 {
			return 0
		}
		return rows[0].Shares
	}
	if got := shares(); got != 0 {
		t.Fatalf("empty store: %d shares", got)
	}
	// Another process ingests: an empty lookup was not cached.
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{filing(208234)}); err != nil {
		t.Fatal(err)
	}
	if got := shares(); got != 208234 {
		t.Fatalf("after ingest: %d shares", got)
	}
	if err := backing.ReplaceThirteenFFilings(ctx, []holdings.Filing{filing(1)}); err != nil {
		t.Fatal(err)
	}
	if got := shares(); got != 208234 {
		t.Fatalf("within the TTL the cached rows are served, got %d shares", got)
	}
	now = now.Add(31 * time.Second)
	if got := shares(); got != 1 {
		t.Fatalf("after the TTL the store is read again, got %d shares", got)
	}
	// A load through this instance shows at once.
	if err := cache.ReplaceThirteenFFilings(ctx, []holdings.Filing{filing(2)}); err != nil {
		t.Fatal(err)
	}
	if got := shares(); got != 2 {
		t.Fatalf("after a load through the cache: %d shares", got)
	}
}
