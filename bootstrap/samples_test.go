package bootstrap_test

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/bootstrap"
)

// TestBundledSamplesLoad reads every bundled sample through the readers of
// its source format, with every check a user's files go through.
func TestBundledSamplesLoad(t *testing.T) {
	ctx := context.Background()
	if n, err := bootstrap.LoadSample(ctx, memory.NewSecurities()); err != nil || n == 0 {
		t.Errorf("china securities: %d, %v", n, err)
	}
	fin := app.NewFinancials(memory.NewFinancials(), time.Now)
	if n, err := bootstrap.LoadUSFinancialsSample(ctx, fin); err != nil || n != 3 {
		t.Errorf("us financials: %d companies, %v", n, err)
	}
	if n, err := bootstrap.LoadFundHoldersSample(ctx, memory.NewFundHoldings()); err != nil || n != 7 {
		t.Errorf("fund holders: %d filings, %v", n, err)
	}
	filings, sections, err := bootstrap.LoadUSFilingsSample()
	if err != nil || len(filings) != 3 || len(sections) == 0 {
		t.Errorf("us filings: %d filings, %d sections, %v", len(filings), len(sections), err)
	}
}
