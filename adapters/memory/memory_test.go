package memory_test

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestContracts runs every port's contract on the memory adapters.
func TestContracts(t *testing.T) {
	porttest.RunAll(t, porttest.Stores{
		Platform: func(*testing.T) porttest.Platform {
			p, l := memory.NewPlatform(), memory.NewLimits()
			return porttest.Platform{Accounts: p, Sessions: p, Keys: p, Ledger: p, Watch: p, Buckets: l, Signins: l, Idempotency: p}
		},
		Securities:   func(*testing.T) ports.SecurityStore { return memory.NewSecurities() },
		ChinaPrices:  func(*testing.T) ports.ChinaPriceStore { return memory.NewChinaPrices() },
		IndiaPrices:  func(*testing.T) ports.IndiaPriceStore { return memory.NewIndiaPrices() },
		FundHoldings: func(*testing.T) ports.FundHoldingStore { return memory.NewFundHoldings() },
		Financials:   func(*testing.T) ports.FinancialsStore { return memory.NewFinancials() },
		Filings:      func(*testing.T) ports.FilingStore { return memory.NewFilings() },
		Sections:     func(*testing.T) ports.SectionStore { return memory.NewFilings() },
		Judgments:    func(*testing.T) ports.JudgmentStore { return memory.NewJudgments() },
		Vault:        func(*testing.T) ports.Vault { return memory.NewVault() },
		SourceLeases: func(*testing.T) ports.SourceLeases { return memory.NewSourceLeases() },
	})
}
