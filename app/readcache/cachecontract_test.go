package readcache_test

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestCachesKeepTheContract runs each read cache's port contract over a
// memory store: a cache in front of a store is a store of the same port.
// India prices, and China prices' buckets, are cached inside the MongoDB
// adapter, whose contracts run in e2e (TestMongoContractsCachedIndiaPrices,
// TestMongoContractsCachedChinaPrices).
func TestCachesKeepTheContract(t *testing.T) {
	cache := func(t *testing.T) *readcache.Cache { return readcachetest.New(t, time.Minute, usecase.SystemClock) }
	porttest.RunAll(t, porttest.Stores{
		Securities: func(t *testing.T) ports.SecurityStore {
			return chinasecurities.NewCache(memory.NewSecurities(), cache(t))
		},
		ChinaPrices: func(t *testing.T) ports.ChinaPriceStore {
			return chinaprices.NewCache(memory.NewChinaPrices(), cache(t))
		},
		FundHoldings: func(t *testing.T) ports.FundHoldingStore {
			return fundholders.NewCache(memory.NewFundHoldings(), cache(t))
		},
		Financials: func(t *testing.T) ports.FinancialsStore {
			return usfinancials.NewCache(memory.NewFinancials(), cache(t))
		},
		Judgments: func(t *testing.T) ports.JudgmentStore {
			return indiajudgments.NewCache(memory.NewJudgments(), cache(t))
		},
	})
}

func TestNewReadCacheRefusesNoBudget(t *testing.T) {
	if _, err := readcache.New(0, time.Minute, usecase.SystemClock); err == nil {
		t.Fatal("a budget of 0 bytes was accepted")
	}
}
