package memory_test

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

func newPlatform(*testing.T) porttest.Platform {
	p, l := memory.NewPlatform(), memory.NewLimits()
	return porttest.Platform{Accounts: p, Sessions: p, Keys: p, Ledger: p, Watch: p, Buckets: l, Signins: l, Idempotency: p}
}

func TestRateBuckets(t *testing.T) { porttest.RunRateBuckets(t, newPlatform) }

func TestAccounts(t *testing.T) { porttest.RunAccounts(t, newPlatform) }

func TestKeys(t *testing.T) { porttest.RunKeys(t, newPlatform) }

func TestLedger(t *testing.T) { porttest.RunLedger(t, newPlatform) }

func TestBrowserCredentials(t *testing.T) { porttest.RunBrowserCredentials(t, newPlatform) }

func TestIdempotency(t *testing.T) { porttest.RunIdempotency(t, newPlatform) }

func TestKeyWatch(t *testing.T) { porttest.RunKeyWatch(t, newPlatform) }

func TestSecurities(t *testing.T) {
	porttest.RunSecurities(t, func(*testing.T) ports.SecurityStore { return memory.NewSecurities() })
}

func TestFundHoldings(t *testing.T) {
	porttest.RunFundHoldings(t, func(*testing.T) ports.FundHoldingStore { return memory.NewFundHoldings() })
}

func TestChinaPricesContract(t *testing.T) {
	porttest.RunChinaPrices(t, func(*testing.T) ports.ChinaPriceStore { return memory.NewChinaPrices() })
}

func TestVault(t *testing.T) {
	porttest.RunVault(t, func(*testing.T) ports.Vault { return memory.NewVault() })
}

func TestJudgments(t *testing.T) {
	porttest.RunJudgments(t, func(*testing.T) ports.JudgmentStore { return memory.NewJudgments() })
}

func TestIndiaPricesContract(t *testing.T) {
	porttest.RunIndiaPrices(t, func(*testing.T) ports.IndiaPriceStore { return memory.NewIndiaPrices() })
}
