package financials_test

import (
	"reflect"
	"testing"

	"github.com/quarrydata/quarry/domain/financials"
)

// The statements as known from the latest filing are the rows Build gives
// at any instant from the end of that filing date on, and cover no instant
// before it, when the restatement filed that day was not yet known.
func TestLatestIsBuildFromTheLatestFilingOn(t *testing.T) {
	c := nvidia()
	var latest []financials.Latest
	for _, h := range financials.HistoryOf(c) {
		latest = append(latest, h.Latest())
	}
	if len(latest) != len(financials.Statements)*len(financials.Periods) {
		t.Fatalf("HistoryOf gives %d statements", len(latest))
	}
	for _, l := range latest {
		if l.Through != "2025-02-26" {
			t.Fatalf("%s %s through %s, want 2025-02-26", l.Period, l.Statement, l.Through)
		}
		for _, asOf := range []string{"2025-02-26T23:59:59.999999Z", "2026-01-01T00:00:00Z"} {
			if !l.Covers(at(asOf)) {
				t.Fatalf("%s %s does not cover %s", l.Period, l.Statement, asOf)
			}
			if want := financials.Build(c, l.Statement, l.Period, at(asOf)); !reflect.DeepEqual(l.Rows, want) {
				t.Fatalf("%s %s = %+v, want Build's %+v", l.Period, l.Statement, l.Rows, want)
			}
		}
		if l.Covers(at("2025-02-26T23:59:59Z")) {
			t.Fatalf("%s %s covers an instant before its filing date ends", l.Period, l.Statement)
		}
		if one := financials.LatestStatement(c, l.Statement, l.Period); !reflect.DeepEqual(one, l) {
			t.Fatalf("LatestStatement = %+v, want %+v", one, l)
		}
	}
	if rows := latest[0].Rows; len(rows) != 2 || rows[1].Values["earnings_per_share_diluted"] != 1.19 {
		t.Fatalf("latest annual income = %+v, want FY2025 and FY2024 as restated", rows)
	}
}

// A company with no fact has no rows, and they are its rows at any instant.
func TestNoFactsNoLatestRows(t *testing.T) {
	for _, h := range financials.HistoryOf(financials.Company{CIK: "0000000001"}) {
		if l := h.Latest(); l.Through != "" || len(l.Rows) != 0 || !l.Covers(at("1990-01-01T00:00:00Z")) {
			t.Fatalf("latest of no facts = %+v", l)
		}
	}
}
