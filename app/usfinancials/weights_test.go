package usfinancials

import (
	"runtime"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/domain/financials"
)

// The weights are estimates; this checks a company's, which grows large,
// is within a factor of what the value really holds.
func TestWeightsApproximateTheHeldBytes(t *testing.T) {
	fresh := func(s string) string { return strings.Clone(s) }
	cases := map[string]struct {
		build  func() any
		weight func(any) int
	}{
		"a company of 5,000 facts": {
			build: func() any {
				c := financials.Company{CIK: fresh("0000320193"), Name: fresh("Apple Inc."), Tickers: []string{fresh("AAPL")}}
				for i := range 5000 {
					c.Facts = append(c.Facts, financials.Fact{
						Concept: fresh("RevenueFromContractWithCustomerExcludingAssessedTax"), Unit: fresh("USD"),
						Start: fresh("2023-10-01"), End: fresh("2024-09-28"), Value: float64(i), Accession: fresh("0000320193-24-000123"),
						FiscalYear: 2024, FiscalPeriod: fresh("FY"), Form: fresh("10-K"), Filed: fresh("2024-11-01"),
					})
				}
				return c
			},
			weight: func(v any) int { return companyWeight(v.(financials.Company)) },
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			held, v := readcachetest.HeapHeld(tc.build)
			ratio := float64(tc.weight(v)) / float64(held)
			t.Logf("weight %d bytes, heap held %d bytes: %.2f", tc.weight(v), held, ratio)
			if ratio < 0.6 || ratio > 1.5 {
				t.Fatalf("the weight is %.2f times the heap held, want 0.6 to 1.5", ratio)
			}
			runtime.KeepAlive(v)
		})
	}
}
