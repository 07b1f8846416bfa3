package financials_test

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/financials"
)

const (
	fy24 = "0001045810-24-000029" // NVIDIA FY2024 10-K, filed 2024-02-21
	fy25 = "0001045810-25-000023" // NVIDIA FY2025 10-K, filed 2025-02-26, after the 10-for-1 split
)

func eps(accn, filed string, fy int, start, end string, v float64) financials.Fact {
	return financials.Fact{Concept: "EarningsPerShareDiluted", Unit: "USD/shares", Start: start, End: end, Value: v,
		Accession: accn, FiscalYear: fy, FiscalPeriod: "FY", Form: "10-K", Filed: filed}
}

func nvidia() financials.Company {
	return financials.Company{CIK: "0001045810", Tickers: []string{"NVDA"}, Facts: []financials.Fact{
		eps(fy24, "2024-02-21", 2024, "2023-01-30", "2024-01-28", 11.93),
		eps(fy25, "2025-02-26", 2025, "2023-01-30", "2024-01-28", 1.19),
		eps(fy25, "2025-02-26", 2025, "2024-01-29", "2025-01-26", 2.94),
		{Concept: "Revenues", Unit: "USD", Start: "2024-01-29", End: "2025-01-26", Value: 130497000000, Accession: fy25, FiscalYear: 2025, FiscalPeriod: "FY", Form: "10-K", Filed: "2025-02-26"},
		{Concept: "Revenues", Unit: "USD", Start: "2024-01-29", End: "2024-04-28", Value: 26044000000, Accession: "0001045810-24-000124", FiscalYear: 2025, FiscalPeriod: "Q1", Form: "10-Q", Filed: "2024-05-29"},
		{Concept: "Assets", Unit: "USD", End: "2025-01-26", Value: 111601000000, Accession: fy25, FiscalYear: 2025, FiscalPeriod: "FY", Form: "10-K", Filed: "2025-02-26"},
	}}
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestBuildShowsARestatementOnlyFromItsFilingDate(t *testing.T) {
	cases := []struct {
		asOf      string
		rows      int
		eps       float64
		accession string
	}{
		{"2024-02-20T23:59:59Z", 0, 0, ""},
		{"2024-02-21T23:59:59.999999Z", 1, 11.93, fy24},
		{"2025-02-26T12:00:00Z", 1, 11.93, fy24},
		{"2025-02-26T23:59:59.999999Z", 2, 1.19, fy25},
		{"2026-01-01T00:00:00Z", 2, 1.19, fy25},
	}
	for _, c := range cases {
		t.Run(c.asOf, func(t *testing.T) {
			rows := financials.Build(nvidia(), financials.Income, financials.Annual, at(c.asOf))
			if len(rows) != c.rows {
				t.Fatalf("rows = %d, want %d: %+v", len(rows), c.rows, rows)
			}
			if c.rows == 0 {
				return
			}
			fy2024 := rows[len(rows)-1]
			if fy2024.End != "2024-01-28" || fy2024.Values["earnings_per_share_diluted"] != c.eps || fy2024.Accession != c.accession {
				t.Fatalf("FY2024 row = %+v, want EPS %v from %s", fy2024, c.eps, c.accession)
			}
			if fy2024.FiscalYear != 2024 || fy2024.FiscalPeriod != "FY" || fy2024.Currency != "USD" {
				t.Fatalf("FY2024 labels = %d %s %s", fy2024.FiscalYear, fy2024.FiscalPeriod, fy2024.Currency)
			}
		})
	}
}

func TestBuildPeriodsAndStatements(t *testing.T) {
	now := at("2026-01-01T00:00:00Z")
	annual := financials.Build(nvidia(), financials.Income, financials.Annual, now)
	if annual[0].End != "2025-01-26" || annual[0].Values["revenue"] != 130497000000 {
		t.Fatalf("newest annual row = %+v", annual[0])
	}
	if _, ok := annual[1].Values["revenue"]; ok {
		t.Fatalf("FY2024 has no revenue fact, got %+v", annual[1])
	}
	quarters := financials.Build(nvidia(), financials.Income, financials.Quarterly, now)
	if len(quarters) != 1 || quarters[0].FiscalPeriod != "Q1" || quarters[0].FiscalYear != 2025 || quarters[0].Values["revenue"] != 26044000000 {
		t.Fatalf("quarters = %+v", quarters)
	}
	balance := financials.Build(nvidia(), financials.Balance, financials.Annual, now)
	if len(balance) != 1 || balance[0].Start != "" || balance[0].Values["assets"] != 111601000000 {
		t.Fatalf("balance sheets = %+v", balance)
	}
	if got := financials.Build(nvidia(), financials.CashFlow, financials.Annual, now); len(got) != 0 {
		t.Fatalf("cash flows = %+v, want none", got)
	}
}

func TestConceptFallback(t *testing.T) {
	c := financials.Company{Facts: []financials.Fact{
		{Concept: "RevenueFromContractWithCustomerExcludingAssessedTax", Unit: "USD", Start: "2023-10-01", End: "2024-09-28", Value: 391035000000, Accession: "0000320193-24-000123", FiscalYear: 2024, FiscalPeriod: "FY", Filed: "2024-11-01"},
		{Concept: "SalesRevenueNet", Unit: "USD", Start: "2023-10-01", End: "2024-09-28", Value: 1, Accession: "0000320193-24-000123", FiscalYear: 2024, FiscalPeriod: "FY", Filed: "2024-11-01"},
	}}
	rows := financials.Build(c, financials.Income, financials.Annual, at("2025-01-01T00:00:00Z"))
	if len(rows) != 1 || rows[0].Values["revenue"] != 391035000000 {
		t.Fatalf("rows = %+v, want the earlier concept to win", rows)
	}
}

func TestKnownAtPrefersTheLatestFiling(t *testing.T) {
	facts := nvidia().Facts
	got := financials.KnownAt(facts, at("2030-01-01T00:00:00Z"))
	if len(got) != len(facts)-1 {
		t.Fatalf("KnownAt kept %d facts, want %d", len(got), len(facts)-1)
	}
	for _, f := range got {
		if f.Value == 11.93 {
			t.Fatalf("the superseded value survived: %+v", f)
		}
	}
}

func TestSmallRules(t *testing.T) {
	if got := financials.FilingURL("0000320193", "0000320193-24-000123"); got != "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/" {
		t.Errorf("FilingURL = %s", got)
	}
	for unit, want := range map[string]string{"USD": "USD", "USD/shares": "USD", "shares": "", "pure": "", "usd": "", "EUR/shares": "EUR"} {
		if got, _ := financials.Currency(unit); got != want {
			t.Errorf("Currency(%q) = %q, want %q", unit, got, want)
		}
	}
	for in, want := range map[string]financials.Period{"": financials.Annual, "annual": financials.Annual, "quarterly": financials.Quarterly, "ttm": financials.TTM} {
		if got, err := financials.ParsePeriod(in); err != nil || got != want {
			t.Errorf("ParsePeriod(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := financials.ParsePeriod("monthly"); err == nil {
		t.Error("ParsePeriod(monthly) accepted")
	}
	known, err := financials.KnownFrom("2025-02-26")
	if err != nil || !known.Equal(at("2025-02-26T23:59:59.999999Z")) {
		t.Errorf("KnownFrom = %v, %v", known, err)
	}
	for _, f := range []financials.Fact{
		{Unit: "USD", Accession: "a", End: "2024-13-01", Filed: "2024-01-01"},
		{Unit: "USD", Accession: "a", End: "2024-01-01", Filed: "x"},
		{Unit: "USD", Accession: "a", Start: "2024-02-01", End: "2024-01-01", Filed: "2024-03-01"},
		{Accession: "a", End: "2024-01-01", Filed: "2024-03-01"},
	} {
		if f.Validate() == nil {
			t.Errorf("Validate accepted %+v", f)
		}
	}
}

// TestAComparativeBalanceKeepsItsOwnFiscalYear checks the label of a year-end
// balance last reported as the comparative column of the next year's first
// 10-Q: Apple's Q1 FY2025 10-Q (quarter ended 2024-12-28) repeats the
// 2024-09-28 balance of fiscal 2024, which must stay fiscal 2024 although the
// filing's own fiscal year is 2025.
func TestAComparativeBalanceKeepsItsOwnFiscalYear(t *testing.T) {
	const q1 = "0000320193-25-000008"
	apple := financials.Company{CIK: "0000320193", Tickers: []string{"AAPL"}, Facts: []financials.Fact{
		{Concept: "RevenueFromContractWithCustomerExcludingAssessedTax", Unit: "USD", Start: "2023-10-01", End: "2024-09-28", Value: 391035000000, Accession: "0000320193-24-000123", FiscalYear: 2024, FiscalPeriod: "FY", Form: "10-K", Filed: "2024-11-01"},
		{Concept: "RevenueFromContractWithCustomerExcludingAssessedTax", Unit: "USD", Start: "2024-09-29", End: "2024-12-28", Value: 124300000000, Accession: q1, FiscalYear: 2025, FiscalPeriod: "Q1", Form: "10-Q", Filed: "2025-01-31"},
		{Concept: "Assets", Unit: "USD", End: "2024-09-28", Value: 364980000000, Accession: "0000320193-24-000123", FiscalYear: 2024, FiscalPeriod: "FY", Form: "10-K", Filed: "2024-11-01"},
		{Concept: "Assets", Unit: "USD", End: "2024-09-28", Value: 364980000000, Accession: q1, FiscalYear: 2025, FiscalPeriod: "Q1", Form: "10-Q", Filed: "2025-01-31"},
		{Concept: "Assets", Unit: "USD", End: "2024-12-28", Value: 344085000000, Accession: q1, FiscalYear: 2025, FiscalPeriod: "Q1", Form: "10-Q", Filed: "2025-01-31"},
	}}
	annual := financials.Build(apple, financials.Balance, financials.Annual, at("2025-06-01T00:00:00Z"))
	if len(annual) != 1 || annual[0].FiscalYear != 2024 || annual[0].FiscalPeriod != "FY" {
		t.Fatalf("annual balance sheets = %+v, want one of fiscal 2024", annual)
	}
	quarterly := financials.Build(apple, financials.Balance, financials.Quarterly, at("2025-06-01T00:00:00Z"))
	for _, r := range quarterly {
		if r.End == "2024-12-28" && (r.FiscalYear != 2025 || r.FiscalPeriod != "Q1") {
			t.Errorf("the 10-Q's own quarter = %d %s, want 2025 Q1", r.FiscalYear, r.FiscalPeriod)
		}
	}
}
