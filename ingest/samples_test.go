package ingest_test

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/ingest"
)

// TestBundledSamplesLoad reads every bundled sample through the readers of
// its source format, with every check a user's files go through.
func TestBundledSamplesLoad(t *testing.T) {
	ctx := context.Background()
	if n, err := ingest.LoadChinaSecuritiesSample(ctx, memory.NewSecurities()); err != nil || n == 0 {
		t.Errorf("china securities: %d, %v", n, err)
	}
	fin := usfinancials.New(memory.NewFinancials(), time.Now, nil)
	if n, err := ingest.LoadUSFinancialsSample(ctx, fin); err != nil || n != 3 {
		t.Errorf("us financials: %d companies, %v", n, err)
	}
	if n, err := ingest.LoadFundHoldersSample(ctx, memory.NewFundHoldings()); err != nil || n != 7 {
		t.Errorf("fund holders: %d filings, %v", n, err)
	}
	filings, sections, err := ingest.LoadUSFilingsSample()
	if err != nil || len(filings) != 3 || len(sections) == 0 {
		t.Errorf("us filings: %d filings, %d sections, %v", len(filings), len(sections), err)
	}
}

// TestIndiaPricesSampleHoldsEachBarOnce loads the NSE sample, where
// 2024-07-01 is in the legacy and the UDiFF layout and 2026-08-28 in the
// UDiFF and the full bhavcopy: each bar is one version, from the first
// file that gave it, and loading again adds nothing.
func TestIndiaPricesSampleHoldsEachBarOnce(t *testing.T) {
	ctx := context.Background()
	store := memory.NewIndiaPrices()
	prices := indiaprices.New(store, usecase.SystemClock)
	// 21,211 legacy rows of 2017 and 2021 (their full bhavcopy agrees),
	// 400 of 2024-07-01 and 400 of 2026-08-28.
	if n, err := ingest.LoadIndiaPricesSample(ctx, prices); err != nil || n != 22011 {
		t.Fatalf("first load: %d versions, %v", n, err)
	}
	for date, source := range map[string]string{"2024-07-01": "cm01JUL2024bhav.csv", "2026-08-28": "BhavCopy_NSE_CM_0_0_0_20260828_F_0000.csv"} {
		rows, err := store.OnDate(ctx, date)
		if err != nil || len(rows) != 400 {
			t.Fatalf("%s: %d versions, %v", date, len(rows), err)
		}
		for _, r := range rows {
			if r.Source != source {
				t.Fatalf("%s: %s %s from %s, want %s", date, r.Symbol, r.Series, r.Source, source)
			}
		}
	}
	if n, err := ingest.LoadIndiaPricesSample(ctx, prices); err != nil || n != 0 {
		t.Fatalf("second load: %d versions, %v", n, err)
	}
}
