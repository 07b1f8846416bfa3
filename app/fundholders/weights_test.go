package fundholders

import (
	"runtime"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/domain/holdings"
)

// The weights are estimates; this checks a page's, the largest value kept,
// is within a factor of what the value really holds.
func TestWeightsApproximateTheHeldBytes(t *testing.T) {
	fresh := func(s string) string { return strings.Clone(s) }
	cases := map[string]struct {
		build  func() any
		weight func(any) int
	}{
		"a page of 1,000 holders": {
			build: func() any {
				var h heldPage
				for i := range 1000 {
					h.holders = append(h.holders, holdings.Holding{
						Accession: fresh("0001816616-21-000007"), Row: int64(i), FundCIK: fresh("0001816616"), FundName: fresh("NZS Capital, LLC"),
						ReportPeriod: fresh("2021-09-30"), FilingDate: fresh("2021-11-12"), CUSIP: fresh("037833100"), Issuer: fresh("APPLE INC"),
						Class: fresh("COM"), Shares: 208234, ShareType: fresh("SH"), Value: 29465000, Discretion: fresh("SOLE"),
					})
				}
				return h
			},
			weight: func(v any) int { return heldPageWeight(v.(heldPage)) },
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
