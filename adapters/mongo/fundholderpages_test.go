package mongo_test

import (
	"testing"

	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// The funds-holding contract on the data directory's FerretDB, with pages
// of 16 positions so that a lookup merges many of them.
func TestFundHoldingsContractEmbedded(t *testing.T) {
	t.Cleanup(mongoadapter.SetHolderPageSize(16))
	porttest.RunFundHoldings(t, func(t *testing.T) ports.FundHoldingStore { return mongoadapter.NewFundHoldings(embeddedDB(t)) })
}
