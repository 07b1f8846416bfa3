package financials_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/financials"
)

// A history applied up to any instant gives what Build gives then: at the
// end of every filing date, the moment before it, before any filing and
// long after the last; and applied whole it is LatestStatement.
func TestHistoryIsBuildAtEveryFilingDate(t *testing.T) {
	checkHistory(t, nvidia())
	for seed := range uint64(60) {
		checkHistory(t, randomCompany(seed))
		checkHistory(t, regularFiler(seed))
	}
}

// A company with no fact has no version and no row.
func TestHistoryOfNoFacts(t *testing.T) {
	for _, h := range financials.HistoryOf(financials.Company{CIK: "0000000001"}) {
		if h.Through != "" || len(h.Versions) != 0 || len(h.At(at("2030-01-01T00:00:00Z"))) != 0 {
			t.Fatalf("history of no facts = %+v", h)
		}
	}
}

// Only the filing dates that change a statement give it a version, and a
// version holds only the rows that changed: NVIDIA's Q1 10-Q changes no
// annual statement, and its FY2025 10-K restates FY2024's EPS (one row
// changed) beside adding FY2025.
func TestHistoryKeepsOnlyChanges(t *testing.T) {
	h := financials.HistoryOf(nvidia())[0] // annual income statements
	var filed []string
	for _, v := range h.Versions {
		filed = append(filed, v.Filed)
	}
	if !slices.Equal(filed, []string{"2024-02-21", "2025-02-26"}) {
		t.Fatalf("annual income versions filed %v", filed)
	}
	if rows := h.Versions[1].Rows; len(rows) != 2 || rows[0].End != "2024-01-28" || rows[0].Values["earnings_per_share_diluted"] != 1.19 {
		t.Fatalf("FY2025 10-K version = %+v", rows)
	}
}

// checkHistory compares every history of the company with Build.
func checkHistory(t *testing.T, c financials.Company) {
	t.Helper()
	histories := financials.HistoryOf(c)
	for _, h := range histories {
		if got, want := h.Latest(), financials.LatestStatement(c, h.Statement, h.Period); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %s %s Latest = %+v, want LatestStatement's %+v", c.CIK, h.Period, h.Statement, got, want)
		}
	}
	for _, asOf := range instants(c) {
		known := financials.Know(c, asOf)
		for _, h := range histories {
			want := known.Statement(h.Statement, h.Period)
			if got := h.At(asOf); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s %s at %s = %+v, want Build's %+v", c.CIK, h.Period, h.Statement, asOf, got, want)
			}
		}
	}
}

// instants are the end of each filing date, the moment before it, and
// instants before and long after every filing.
func instants(c financials.Company) []time.Time {
	out := []time.Time{at("1990-01-01T00:00:00Z"), at("2100-01-01T00:00:00Z")}
	for _, f := range c.Facts {
		if known, err := financials.KnownFrom(f.Filed); err == nil {
			out = append(out, known, known.Add(-time.Microsecond))
		}
	}
	slices.SortFunc(out, time.Time.Compare)
	return slices.CompactFunc(out, time.Time.Equal)
}

// randomCompany files a few years of 10-Qs and 10-Ks with comparatives,
// restatements, amendments filed the same day, per-share figures, a
// second currency and an unmapped unit, drawn from the seed.
func randomCompany(seed uint64) financials.Company {
	r := rand.New(rand.NewPCG(seed, 25))
	var concepts []string
	for _, f := range financials.Fields {
		concepts = append(concepts, f.Concepts...)
	}
	units := []string{"USD", "USD", "USD", "USD/shares", "EUR", "shares"}
	c := financials.Company{CIK: fmt.Sprintf("%010d", seed)}
	for n := range 20 + r.IntN(60) {
		end := time.Date(2018+r.IntN(5), time.Month(3*(1+r.IntN(4))), 28+r.IntN(4), 0, 0, 0, 0, time.UTC)
		start := ""
		if r.IntN(3) > 0 {
			start = end.AddDate(0, 0, -[]int{90, 91, 181, 272, 364, 371, 200}[r.IntN(7)]).Format(time.DateOnly)
		}
		filed := end.AddDate(0, 0, 25+r.IntN(700))
		if r.IntN(4) == 0 && len(c.Facts) > 0 {
			filed, _ = time.Parse(time.DateOnly, c.Facts[r.IntN(len(c.Facts))].Filed)
		}
		fp := []string{"Q1", "Q2", "Q3", "FY"}[r.IntN(4)]
		c.Facts = append(c.Facts, financials.Fact{
			Concept: concepts[r.IntN(len(concepts))], Unit: units[r.IntN(len(units))],
			Start: start, End: end.Format(time.DateOnly), Value: float64(r.IntN(9) - 2),
			Accession:  fmt.Sprintf("0000000001-%s-%06d", filed.Format("06"), filed.YearDay()*10+r.IntN(2)),
			FiscalYear: filed.Year() - r.IntN(2), FiscalPeriod: fp, Form: map[bool]string{true: "10-K", false: "10-Q"}[fp == "FY"],
			Filed: filed.Format(time.DateOnly),
		})
		if n%7 == 0 { // the same figure reported again in a later filing
			again := c.Facts[len(c.Facts)-1]
			later := filed.AddDate(0, 0, 300+r.IntN(100))
			again.Filed, again.Accession = later.Format(time.DateOnly), fmt.Sprintf("0000000001-%s-%06d", later.Format("06"), later.YearDay()*10)
			c.Facts = append(c.Facts, again)
		}
	}
	return c
}

// regularFiler files, for four fiscal years, a 10-Q for each of the first
// three quarters (the quarter and the year to date, with the prior year's
// as comparatives) and a 10-K (the year, with two prior years), each
// figure of a few flow concepts and a balance, some restated, drawn from
// the seed: the filings trailing twelve months are assembled from.
func regularFiler(seed uint64) financials.Company {
	r := rand.New(rand.NewPCG(seed, 26))
	c := financials.Company{CIK: fmt.Sprintf("%010d", 1000+seed)}
	concepts := []string{"Revenues", "NetIncomeLoss", "NetCashProvidedByUsedInOperatingActivities", "EarningsPerShareDiluted"}
	yearStart := time.Date(2018, time.Month(1+r.IntN(12)), 1, 0, 0, 0, 0, time.UTC)
	for year := range 4 {
		fyStart := yearStart.AddDate(year, 0, 0)
		for q := 1; q <= 4; q++ {
			end := fyStart.AddDate(0, 3*q, -1)
			filed := end.AddDate(0, 0, 30+r.IntN(40))
			form, fp := "10-Q", fmt.Sprintf("Q%d", q)
			if q == 4 {
				form, fp = "10-K", "FY"
			}
			accn := fmt.Sprintf("0000001000-%s-%06d", filed.Format("06"), filed.YearDay())
			for _, concept := range concepts[:2+r.IntN(3)] {
				unit := map[bool]string{true: "USD/shares", false: "USD"}[concept == "EarningsPerShareDiluted"]
				for back := range 2 {
					s, e := fyStart.AddDate(-back, 3*(q-1), 0), end.AddDate(-back, 0, 0)
					if q == 4 && r.IntN(3) == 0 {
						s = fyStart.AddDate(-back, 0, 0) // the 10-K gives the year, not the fourth quarter
					}
					add := func(start time.Time) {
						c.Facts = append(c.Facts, financials.Fact{Concept: concept, Unit: unit, Start: start.Format(time.DateOnly),
							End: e.Format(time.DateOnly), Value: float64(10 + r.IntN(5)), Accession: accn,
							FiscalYear: fyStart.Year() + 1, FiscalPeriod: fp, Form: form, Filed: filed.Format(time.DateOnly)})
					}
					add(s)
					if q > 1 {
						add(fyStart.AddDate(-back, 0, 0)) // the year to date
					}
				}
			}
			c.Facts = append(c.Facts, financials.Fact{Concept: "Assets", Unit: "USD", End: end.Format(time.DateOnly), Value: float64(r.IntN(100)),
				Accession: accn, FiscalYear: fyStart.Year() + 1, FiscalPeriod: fp, Form: form, Filed: filed.Format(time.DateOnly)})
		}
	}
	return c
}
