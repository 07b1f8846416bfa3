package financials_test

import (
	"testing"

	"github.com/quarrydata/quarry/domain/financials"
)

// Apple's filings of fiscal 2022 and 2023 as companyfacts lists them. Each
// 10-Q reports the quarter and the year to date of the current and the prior
// year; the fourth quarter exists only inside the 10-K's fiscal year. The
// quarters add up to the 10-Ks' figures (394,328 and 383,285 million).
const (
	aaplFY22 = "0000320193-22-000108" // 10-K FY2022, filed 2022-10-28
	aaplQ123 = "0000320193-23-000006" // 10-Q Q1 FY2023 (to 2022-12-31), filed 2023-02-03
	aaplQ223 = "0000320193-23-000064" // 10-Q Q2 FY2023 (to 2023-04-01), filed 2023-05-05
	aaplQ323 = "0000320193-23-000077" // 10-Q Q3 FY2023 (to 2023-07-01), filed 2023-08-04
)

// piece is one revenue figure of Apple: its period, value in millions, and
// the filing that reported it.
type piece struct {
	start, end string
	millions   float64
	accession  string
}

var (
	aaplFY2022 = piece{"2021-09-26", "2022-09-24", 394328, aaplFY22}
	// Quarters: the prior-year ones are the comparatives of the FY2023 10-Qs.
	aaplQuarters = []piece{
		{"2021-09-26", "2021-12-25", 123945, aaplQ123}, {"2022-09-25", "2022-12-31", 117154, aaplQ123},
		{"2021-12-26", "2022-03-26", 97278, aaplQ223}, {"2023-01-01", "2023-04-01", 94836, aaplQ223},
		{"2022-03-27", "2022-06-25", 82959, aaplQ323}, {"2023-04-02", "2023-07-01", 81797, aaplQ323},
	}
	// Years to date of six and nine months; the three-month ones are the
	// first quarters above.
	aaplYearsToDate = []piece{
		{"2021-09-26", "2021-12-25", 123945, aaplQ123}, {"2022-09-25", "2022-12-31", 117154, aaplQ123},
		{"2021-09-26", "2022-03-26", 221223, aaplQ223}, {"2022-09-25", "2023-04-01", 211990, aaplQ223},
		{"2021-09-26", "2022-06-25", 304182, aaplQ323}, {"2022-09-25", "2023-07-01", 293787, aaplQ323},
	}
)

var aaplFiled = map[string]struct {
	filed  string
	fy     int
	fp     string
	form   string
	period string
}{
	aaplFY22: {"2022-10-28", 2022, "FY", "10-K", "2022-09-24"},
	aaplQ123: {"2023-02-03", 2023, "Q1", "10-Q", "2022-12-31"},
	aaplQ223: {"2023-05-05", 2023, "Q2", "10-Q", "2023-04-01"},
	aaplQ323: {"2023-08-04", 2023, "Q3", "10-Q", "2023-07-01"},
}

// apple returns the company with the revenue pieces given, each filing also
// reporting its balance-sheet total assets at its own period end (only the
// FY2022 figure, 352,755 million, is used by value).
func apple(pieces ...piece) financials.Company {
	c := financials.Company{CIK: "0000320193", Tickers: []string{"AAPL"}}
	for _, p := range pieces {
		f := aaplFiled[p.accession]
		c.Facts = append(c.Facts, financials.Fact{Concept: "RevenueFromContractWithCustomerExcludingAssessedTax", Unit: "USD",
			Start: p.start, End: p.end, Value: p.millions * 1e6, Accession: p.accession, FiscalYear: f.fy, FiscalPeriod: f.fp, Form: f.form, Filed: f.filed})
	}
	c.Facts = append(c.Facts, financials.Fact{Concept: "Assets", Unit: "USD", End: "2022-09-24", Value: 352755000000,
		Accession: aaplFY22, FiscalYear: 2022, FiscalPeriod: "FY", Form: "10-K", Filed: "2022-10-28"})
	return c
}

// ttmRow is what a test expects of one ttm row.
type ttmRow struct {
	end       string
	revenue   float64 // millions; 0 means the field is null
	fy        int
	accession string
}

func TestTTMFlows(t *testing.T) {
	withQuarters := apple(append([]piece{aaplFY2022}, aaplQuarters...)...)
	withYearsToDate := apple(append([]piece{aaplFY2022}, aaplYearsToDate...)...)
	cases := []struct {
		name    string
		company financials.Company
		asOf    string
		want    []ttmRow
	}{
		{
			// Q4 FY2022 = 394,328 - 123,945 - 97,278 - 82,959 = 90,146, so
			// ttm(Q3 FY2023) = 90,146 + 117,154 + 94,836 + 81,797.
			name: "quarters only, the fourth derived from the fiscal year", company: withQuarters, asOf: "2024-01-01T00:00:00Z",
			want: []ttmRow{
				{"2023-07-01", 383933, 2023, aaplQ323}, {"2023-04-01", 385095, 2023, aaplQ223},
				{"2022-12-31", 387537, 2023, aaplQ123}, {"2022-09-24", 394328, 2022, aaplFY22},
			},
		},
		{
			// ttm(Q3 FY2023) = FY2022 + 9M FY2023 - 9M FY2022 = 394,328 + 293,787 - 304,182.
			name: "years to date only", company: withYearsToDate, asOf: "2024-01-01T00:00:00Z",
			want: []ttmRow{
				{"2023-07-01", 383933, 2023, aaplQ323}, {"2023-04-01", 385095, 2023, aaplQ223},
				{"2022-12-31", 387537, 2023, aaplQ123}, {"2022-09-24", 394328, 2022, aaplFY22},
			},
		},
		{
			name: "a quarter is not shown before its 10-Q is filed", company: withQuarters, asOf: "2023-08-03T23:59:59Z",
			want: []ttmRow{
				{"2023-04-01", 385095, 2023, aaplQ223}, {"2022-12-31", 387537, 2023, aaplQ123}, {"2022-09-24", 394328, 2022, aaplFY22},
			},
		},
		{
			name: "before the first 10-Q only the fiscal year", company: withQuarters, asOf: "2023-02-02T23:59:59Z",
			want: []ttmRow{{"2022-09-24", 394328, 2022, aaplFY22}},
		},
		{
			// The bundled sample's shape: Q3 of both years and FY2022, but
			// neither the first two quarters nor the nine months to date.
			name: "a missing piece gives no figure", company: apple(aaplFY2022, aaplQuarters[4], aaplQuarters[5]), asOf: "2024-01-01T00:00:00Z",
			want: []ttmRow{{"2022-09-24", 394328, 2022, aaplFY22}},
		},
		{
			name: "without the fiscal year the fourth quarter is unknown", company: apple(aaplQuarters...), asOf: "2024-01-01T00:00:00Z",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows := financials.Build(c.company, financials.Income, financials.TTM, at(c.asOf))
			if len(rows) != len(c.want) {
				t.Fatalf("rows = %+v, want %d", rows, len(c.want))
			}
			for i, w := range c.want {
				r := rows[i]
				if r.End != w.end || r.Values["revenue"] != w.revenue*1e6 || r.FiscalYear != w.fy || r.FiscalPeriod != "TTM" || r.Accession != w.accession {
					t.Errorf("row %d = %+v, want %+v", i, r, w)
				}
				if r.Filed != aaplFiled[w.accession].filed || r.Currency != "USD" {
					t.Errorf("row %d filing %s currency %s", i, r.Filed, r.Currency)
				}
			}
		})
	}
}

func TestTTMOfNvidia(t *testing.T) {
	// FY2024 60,922 + Q1 FY2025 26,044 - Q1 FY2024 7,192 = 79,774 million.
	cases := []struct {
		asOf    string
		rows    int
		revenue float64
		eps     bool
	}{
		{"2024-05-28T23:59:59Z", 1, 60922e6, true},
		{"2024-05-29T23:59:59.999999Z", 2, 0, false},
		{"2026-01-01T00:00:00Z", 3, 130497e6, true},
	}
	q1FY24 := financials.Fact{Concept: "Revenues", Unit: "USD", Start: "2023-01-30", End: "2023-04-30", Value: 7192000000,
		Accession: "0001045810-24-000124", FiscalYear: 2025, FiscalPeriod: "Q1", Form: "10-Q", Filed: "2024-05-29"}
	fy24Revenue := financials.Fact{Concept: "Revenues", Unit: "USD", Start: "2023-01-30", End: "2024-01-28", Value: 60922000000,
		Accession: fy24, FiscalYear: 2024, FiscalPeriod: "FY", Form: "10-K", Filed: "2024-02-21"}
	// Net income is reported for the fiscal years only here.
	fy24Income := financials.Fact{Concept: "NetIncomeLoss", Unit: "USD", Start: "2023-01-30", End: "2024-01-28", Value: 29760000000,
		Accession: fy24, FiscalYear: 2024, FiscalPeriod: "FY", Form: "10-K", Filed: "2024-02-21"}
	fy25Income := financials.Fact{Concept: "NetIncomeLoss", Unit: "USD", Start: "2024-01-29", End: "2025-01-26", Value: 72880000000,
		Accession: fy25, FiscalYear: 2025, FiscalPeriod: "FY", Form: "10-K", Filed: "2025-02-26"}
	// A quarterly EPS must not be summed into a ttm EPS.
	q1EPS := financials.Fact{Concept: "EarningsPerShareDiluted", Unit: "USD/shares", Start: "2024-01-29", End: "2024-04-28", Value: 5.98,
		Accession: "0001045810-24-000124", FiscalYear: 2025, FiscalPeriod: "Q1", Form: "10-Q", Filed: "2024-05-29"}
	c := nvidia()
	c.Facts = append(c.Facts, q1FY24, fy24Revenue, fy24Income, fy25Income, q1EPS)
	for _, tc := range cases {
		t.Run(tc.asOf, func(t *testing.T) {
			rows := financials.Build(c, financials.Income, financials.TTM, at(tc.asOf))
			if len(rows) != tc.rows {
				t.Fatalf("rows = %+v, want %d", rows, tc.rows)
			}
			newest := rows[0]
			if tc.revenue == 0 {
				if newest.End != "2024-04-28" || newest.Values["revenue"] != 79774e6 || newest.FiscalYear != 2025 || newest.Accession != "0001045810-24-000124" {
					t.Fatalf("ttm Q1 FY2025 = %+v", newest)
				}
			} else if newest.Values["revenue"] != tc.revenue {
				t.Fatalf("newest row = %+v, want revenue %v", newest, tc.revenue)
			}
			if _, ok := newest.Values["earnings_per_share_diluted"]; ok != tc.eps {
				t.Fatalf("EPS present = %v, want %v: %+v", ok, tc.eps, newest)
			}
			if _, ok := newest.Values["net_income"]; ok != tc.eps {
				t.Fatalf("net income present = %v, want %v (no quarterly figure): %+v", ok, tc.eps, newest)
			}
		})
	}
}

func TestTTMRestatedPiece(t *testing.T) {
	c := apple(append([]piece{aaplFY2022}, aaplYearsToDate...)...)
	// A hypothetical later filing restating the FY2022 figure by one million
	// changes every ttm that uses it, from its filing date on, and names
	// that filing.
	const restating = "0000320193-23-000900"
	c.Facts = append(c.Facts, financials.Fact{Concept: "RevenueFromContractWithCustomerExcludingAssessedTax", Unit: "USD",
		Start: "2021-09-26", End: "2022-09-24", Value: 394329e6, Accession: restating, FiscalYear: 2023, FiscalPeriod: "FY", Form: "10-K", Filed: "2023-11-03"})
	cases := []struct {
		asOf      string
		revenue   float64
		accession string
	}{
		{"2023-11-02T23:59:59Z", 383933e6, aaplQ323},
		{"2023-11-03T23:59:59.999999Z", 383934e6, restating},
	}
	for _, tc := range cases {
		rows := financials.Build(c, financials.Income, financials.TTM, at(tc.asOf))
		if rows[0].End != "2023-07-01" || rows[0].Values["revenue"] != tc.revenue || rows[0].Accession != tc.accession || rows[0].FiscalYear != 2023 {
			t.Errorf("as of %s: %+v, want %v from %s", tc.asOf, rows[0], tc.revenue, tc.accession)
		}
	}
}

func TestTTMBalanceSheetIsTheBalanceAtTheEnd(t *testing.T) {
	c := apple(append([]piece{aaplFY2022}, aaplQuarters...)...)
	rows := financials.Build(c, financials.Balance, financials.TTM, at("2024-01-01T00:00:00Z"))
	if len(rows) != 1 || rows[0].End != "2022-09-24" || rows[0].Values["assets"] != 352755000000 ||
		rows[0].FiscalPeriod != "TTM" || rows[0].FiscalYear != 2022 || rows[0].Accession != aaplFY22 {
		t.Fatalf("balance sheets = %+v", rows)
	}
}
