package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/domain/ashare"
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
