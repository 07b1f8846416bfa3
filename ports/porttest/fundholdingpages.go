package porttest

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// fundHoldingsPages loads generated filings (many funds over three
// quarters, positions split across rows, values that tie, restatements
// and new-holdings amendments, some filed the same day, and reloads that
// move or drop rows) and checks every page a lookup can ask for against
// holdings.Select over everything loaded: a store that reads only what
// the page needs must still answer as if it had read every holder.
func fundHoldingsPages(t *testing.T, s ports.FundHoldingStore) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(25, 13))
	held := map[string]holdings.Filing{}
	load := func(fs []holdings.Filing) {
		must(t, "ReplaceThirteenFFilings", s.ReplaceThirteenFFilings(ctx, fs))
		for _, f := range fs {
			held[f.Accession] = f
		}
	}
	all := generatedFilings(rng)
	load(all[:len(all)/2])
	load(all[len(all)/2:])
	var again []holdings.Filing
	for i, f := range all {
		if i%5 == 0 {
			again = append(again, regenerated(rng, f))
		}
	}
	load(again)

	var rows []holdings.Holding
	var reports []holdings.Report
	for _, acc := range slices.Sorted(maps.Keys(held)) {
		reports = append(reports, held[acc].Report())
		for _, h := range held[acc].Holdings {
			if h.CUSIP == cusipA {
				rows = append(rows, h)
			}
		}
	}
	for _, q := range pageQueries(all) {
		want, wantTotal := holdings.Select(rows, reports, q)
		got, total, err := s.FundHolders(ctx, cusipA, q)
		must(t, "FundHolders", err)
		if total != wantTotal || !slices.Equal(got, want) {
			t.Fatalf("FundHolders(%+v) = %d positions, total %d; want %d, total %d\ngot  %+v\nwant %+v",
				q, len(got), total, len(want), wantTotal, got, want)
		}
	}
}

var pagePeriods = []string{"2023-06-30", "2023-09-30", "2023-12-31"}

// filingDays are the days generated filings are filed on, a few per
// quarter so that filings tie on their day.
func filingDay(rng *rand.Rand, period string) string {
	days := map[string][]string{
		"2023-06-30": {"2023-08-10", "2023-08-14", "2023-11-20"},
		"2023-09-30": {"2023-11-13", "2023-11-14", "2024-02-01"},
		"2023-12-31": {"2024-02-12", "2024-02-14", "2024-05-15"},
	}[period]
	return days[rng.IntN(len(days))]
}

// generatedFilings returns, for 60 funds and each quarter, a 13F-HR and
// now and then a restatement or a new-holdings amendment.
func generatedFilings(rng *rand.Rand) []holdings.Filing {
	var out []holdings.Filing
	for fund := range 60 {
		cik := fmt.Sprintf("%010d", 1000+fund)
		for _, period := range pagePeriods {
			for n := range 1 + rng.IntN(3) {
				acc := fmt.Sprintf("%010d-%02d-%06d", 1000+fund, n, len(out))
				f := holdings.Filing{Accession: acc, FormType: "13F-HR", FundCIK: cik, FundName: "Fund " + cik,
					ReportPeriod: period, FilingDate: filingDay(rng, period)}
				if n > 0 {
					f.FormType, f.Amendment = "13F-HR/A", []string{holdings.Restatement, holdings.NewHoldings}[rng.IntN(2)]
				}
				out = append(out, regenerated(rng, f))
			}
		}
	}
	return out
}

// regenerated returns f with new rows: a few in each of two CUSIPs, some
// of them one position split across rows.
func regenerated(rng *rand.Rand, f holdings.Filing) holdings.Filing {
	f.Holdings = nil
	for row := range 1 + rng.IntN(6) {
		h := holdings.Holding{Accession: f.Accession, Row: int64(row + 1), FundCIK: f.FundCIK, FundName: f.FundName,
			ReportPeriod: f.ReportPeriod, FilingDate: f.FilingDate, CUSIP: []string{cusipA, cusipA, cusipB}[rng.IntN(3)],
			Issuer: "ISSUER", Class: "COM", Shares: int64(1 + rng.IntN(4)), ShareType: "SH",
			Value: int64(100 * (1 + rng.IntN(8))), PutCall: []string{"", "", "PUT"}[rng.IntN(3)], Discretion: "SOLE"}
		f.Holdings = append(f.Holdings, h)
	}
	return f
}

// pageQueries are lookups over every combination of bounds, instants,
// pages and a filing.
func pageQueries(filings []holdings.Filing) []holdings.Query {
	var out []holdings.Query
	instants := []string{"2023-08-09", "2023-08-10", "2023-11-13", "2023-11-14", "2024-02-12", "2024-05-14"}
	bounds := [][2]string{{"", ""}, {"2023-09-30", ""}, {"", "2023-09-30"}, {"2023-09-30", "2023-09-30"}, {"2024-01-01", ""}}
	pages := [][2]int{{0, 1000}, {0, 7}, {7, 7}, {100, 30}, {5000, 10}}
	for _, day := range instants {
		for _, b := range bounds {
			for _, p := range pages {
				out = append(out, holdings.Query{From: b[0], To: b[1], AsOf: endOf(day), Offset: p[0], Limit: p[1]})
			}
		}
	}
	for _, p := range pages {
		out = append(out, holdings.Query{AsOf: farFuture, Offset: p[0], Limit: p[1]})
	}
	for i := 0; i < len(filings); i += 17 {
		out = append(out, holdings.Query{Accession: filings[i].Accession, AsOf: farFuture, Limit: 1000},
			holdings.Query{Accession: filings[i].Accession, AsOf: endOf("2023-11-13"), Limit: 1000})
	}
	return out
}
