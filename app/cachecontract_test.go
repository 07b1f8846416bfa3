package app_test

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestCachesKeepTheContract runs each read cache's port contract over a
// memory store: a cache in front of a store is a store of the same port.
// India prices are cached inside the MongoDB adapter, whose contract runs
// in e2e (TestMongoContractsCachedIndiaPrices).
func TestCachesKeepTheContract(t *testing.T) {
	cache := func(t *testing.T) *app.ReadCache { return newReadCache(t, time.Minute, app.SystemClock) }
	porttest.RunAll(t, porttest.Stores{
		Securities: func(t *testing.T) ports.SecurityStore {
			return app.NewSecurityCache(memory.NewSecurities(), cache(t))
		},
		ChinaPrices: func(t *testing.T) ports.ChinaPriceStore {
			return app.NewChinaPriceCache(memory.NewChinaPrices(), cache(t))
		},
		FundHoldings: func(t *testing.T) ports.FundHoldingStore {
			return app.NewFundHoldingsCache(memory.NewFundHoldings(), cache(t))
		},
		Financials: func(t *testing.T) ports.FinancialsStore {
			return app.NewFinancialsCache(memory.NewFinancials(), cache(t))
		},
		Judgments: func(t *testing.T) ports.JudgmentStore {
			return app.NewJudgmentCache(memory.NewJudgments(), cache(t))
		},
	})
}
