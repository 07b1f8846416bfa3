package fundholders

import (
	"runtime"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/domain/holdings"
)

// The weights are estimates; this checks a lookup's, which grows large,
// is within a factor of what the value really holds.
func TestWeightsApproximateTheHeldBytes(t *testing.T) {
	fresh := func(s string) string { return strings.Clone(s) }
	cases := map[string]struct {
		build  func() any
		weight func(any) int
	}{
		"a lookup of 5,000 rows": {
			build: func() any {
				var h heldRows
				for i := range 5000 {
					h.rows = append(h.rows, holdings.Holding{
						Accession: fresh("0001816616-21-000007"), Row: int64(i), FundCIK: fresh("0001816616"), FundName: fresh("NZS Capital, LLC"),
						ReportPeriod: fresh("2021-09-30"), FilingDate: fresh("2021-11-12"), CUSIP: fresh("037833100"), Issuer: fresh("APPLE INC"),
						Class: fresh("COM"), Shares: 208234, ShareType: fresh("SH"), Value: 29465000, Discretion: fresh("SOLE"),
					})
				}
				h.reports = append(h.reports, holdings.Report{Accession: fresh("0001816616-21-000007"), FundCIK: fresh("0001816616"),
					ReportPeriod: fresh("2021-09-30"), FilingDate: fresh("2021-11-12")})
				return h
			},
			weight: func(v any) int { return heldRowsWeight(v.(heldRows)) },
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
