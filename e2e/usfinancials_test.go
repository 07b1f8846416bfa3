package e2e

import (
	"net/http"
	"strings"
	"testing"
)

type statement struct {
	Ticker          string   `json:"ticker"`
	CIK             string   `json:"cik"`
	ReportPeriod    string   `json:"report_period"`
	FiscalYear      int      `json:"fiscal_year"`
	FiscalPeriod    string   `json:"fiscal_period"`
	Period          string   `json:"period"`
	AccessionNumber string   `json:"accession_number"`
	FilingURL       string   `json:"filing_url"`
	FilingDate      string   `json:"filing_date"`
	Revenue         *float64 `json:"revenue"`
	NetIncome       *float64 `json:"net_income"`
	EPSDiluted      *float64 `json:"earnings_per_share_diluted"`
	Assets          *float64 `json:"assets"`
	OperatingCash   *float64 `json:"operating_cash_flow"`
}

type financialsBody struct {
	Income   []statement `json:"income_statements"`
	Balance  []statement `json:"balance_sheets"`
	CashFlow []statement `json:"cash_flow_statements"`
	Meta     struct {
		Count                int            `json:"count"`
		Counts               map[string]int `json:"counts"`
		NextOffset           *int           `json:"next_offset"`
		AsOf                 string         `json:"as_of"`
		NormalizationVersion string         `json:"normalization_version"`
		Provenance           struct {
			Source string `json:"source"`
		} `json:"provenance"`
	} `json:"meta"`
}

func TestUSFinancials(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			_, key := signIn(t, c, "ada@example.com")
			get := func(path string, status int) financialsBody {
				t.Helper()
				var b financialsBody
				r := c.do("GET", path, nil, apiKey(key)).expect(t, status)
				if status == http.StatusOK {
					r.JSON(t, &b)
				}
				return b
			}
			t.Run("all three statements", func(t *testing.T) {
				b := get("/us/financials?ticker=AAPL", http.StatusOK)
				if len(b.Income) != 3 || len(b.Balance) != 3 || len(b.CashFlow) != 3 {
					t.Fatalf("counts %d/%d/%d", len(b.Income), len(b.Balance), len(b.CashFlow))
				}
				fy24 := b.Income[0]
				if fy24.ReportPeriod != "2024-09-28" || *fy24.Revenue != 391035000000 || *fy24.NetIncome != 93736000000 ||
					fy24.AccessionNumber != "0000320193-24-000123" || fy24.FiscalYear != 2024 ||
					fy24.FilingURL != "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/" {
					t.Fatalf("AAPL FY2024 = %+v", fy24)
				}
				if *b.Balance[0].Assets != 364980000000 || *b.CashFlow[2].OperatingCash != 122151000000 {
					t.Fatalf("balance %+v cash flow %+v", b.Balance[0], b.CashFlow[2])
				}
				if b.Meta.NormalizationVersion != "usgaap-map-2026-07-20.1" || b.Meta.Provenance.Source != "SEC EDGAR companyfacts" {
					t.Fatalf("meta = %+v", b.Meta)
				}
			})
			t.Run("companies are searched by ticker, name and CIK prefix", func(t *testing.T) {
				type page struct {
					Companies []struct {
						CIK     string   `json:"cik"`
						Name    string   `json:"name"`
						Tickers []string `json:"tickers"`
					} `json:"companies"`
					Meta struct {
						Count      int  `json:"count"`
						NextOffset *int `json:"next_offset"`
					} `json:"meta"`
				}
				for path, want := range map[string]string{
					"/us/companies":                  "0000320193 0000789019 0001045810",
					"/us/companies?ticker=nv":        "0001045810",
					"/us/companies?name=microsoft":   "0000789019",
					"/us/companies?cik=320":          "0000320193",
					"/us/companies?cik=0001":         "0001045810",
					"/us/companies?name=apple&cik=7": "",
				} {
					var p page
					c.do("GET", path, nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &p)
					var got []string
					for _, co := range p.Companies {
						got = append(got, co.CIK)
					}
					if strings.Join(got, " ") != want || p.Meta.Count != len(got) {
						t.Errorf("GET %s: %+v, want CIKs %s", path, p, want)
					}
				}
				var first page
				c.do("GET", "/us/companies?limit=1&ticker=AAPL", nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &first)
				if len(first.Companies) != 1 || first.Companies[0].Name != "Apple Inc." || strings.Join(first.Companies[0].Tickers, ",") != "AAPL" ||
					first.Meta.NextOffset != nil {
					t.Fatalf("AAPL = %+v", first)
				}
				c.do("GET", "/us/companies?cik=32x", nil, apiKey(key)).expect(t, http.StatusUnprocessableEntity)
			})
			t.Run("meta counts each collection", func(t *testing.T) {
				b := get("/us/financials?ticker=NVDA&limit=2", http.StatusOK)
				want := map[string]int{"income_statements": len(b.Income), "balance_sheets": len(b.Balance), "cash_flow_statements": len(b.CashFlow)}
				if len(b.Income) != 2 || len(b.Balance) != 1 || len(b.CashFlow) != 1 {
					t.Fatalf("NVDA pages %d/%d/%d", len(b.Income), len(b.Balance), len(b.CashFlow))
				}
				if len(b.Meta.Counts) != 3 || b.Meta.Counts["income_statements"] != want["income_statements"] ||
					b.Meta.Counts["balance_sheets"] != want["balance_sheets"] || b.Meta.Counts["cash_flow_statements"] != want["cash_flow_statements"] {
					t.Fatalf("meta.counts = %v, want %v", b.Meta.Counts, want)
				}
				if b.Meta.Count != 2 || b.Meta.NextOffset == nil || *b.Meta.NextOffset != 2 {
					t.Fatalf("meta = %+v", b.Meta)
				}
				if one := get("/us/financials/income-statements?ticker=NVDA&limit=2", http.StatusOK); one.Meta.Counts != nil {
					t.Fatalf("a single-collection route has meta.counts %v", one.Meta.Counts)
				}
			})
			t.Run("a restatement appears from its filing date on", func(t *testing.T) {
				const q = "/us/financials/income-statements?cik=1045810&report_period_lte=2024-01-28&limit=1&as_of="
				before := get(q+"2025-02-25", http.StatusOK)
				after := get(q+"2025-02-26", http.StatusOK)
				if *before.Income[0].EPSDiluted != 11.93 || before.Income[0].AccessionNumber != "0001045810-24-000029" {
					t.Fatalf("before the FY2025 10-K: %+v", before.Income[0])
				}
				if *after.Income[0].EPSDiluted != 1.19 || after.Income[0].AccessionNumber != "0001045810-25-000023" {
					t.Fatalf("after the FY2025 10-K: %+v", after.Income[0])
				}
				if before.Meta.AsOf != "2025-02-25T23:59:59.999999Z" {
					t.Fatalf("meta.as_of = %s", before.Meta.AsOf)
				}
			})
			t.Run("single statement routes, periods and paging", func(t *testing.T) {
				b := get("/us/financials/balance-sheets?ticker=nvda", http.StatusOK)
				if len(b.Balance) != 1 || *b.Balance[0].Assets != 111601000000 {
					t.Fatalf("NVDA balance sheets = %+v", b.Balance)
				}
				b = get("/us/financials/cash-flow-statements?ticker=AAPL&limit=2", http.StatusOK)
				if len(b.CashFlow) != 2 || b.Meta.NextOffset == nil || *b.Meta.NextOffset != 2 {
					t.Fatalf("AAPL cash flows = %+v meta %+v", b.CashFlow, b.Meta)
				}
				b = get("/us/financials/income-statements?ticker=AAPL&period=quarterly", http.StatusOK)
				if len(b.Income) != 4 || *b.Income[0].Revenue != 81797000000 || b.Income[0].FiscalPeriod != "Q3" || b.Income[3].FiscalYear != 2022 {
					t.Fatalf("AAPL quarters = %+v", b.Income)
				}
				b = get("/us/financials/income-statements?ticker=MSFT&as_of=2023-07-26", http.StatusOK)
				if len(b.Income) != 1 || *b.Income[0].Revenue != 198270000000 {
					t.Fatalf("MSFT before its FY2023 10-K = %+v", b.Income)
				}
			})
			t.Run("trailing twelve months", func(t *testing.T) {
				// NVIDIA Q1 FY2025: FY2024 60,922 + Q1 FY2025 26,044 - Q1 FY2024 7,192 million.
				b := get("/us/financials?ticker=NVDA&period=ttm&as_of=2024-06-01", http.StatusOK)
				if len(b.Income) != 3 || len(b.CashFlow) != 0 || len(b.Balance) != 0 {
					t.Fatalf("NVDA ttm counts %d/%d/%d: %+v", len(b.Income), len(b.Balance), len(b.CashFlow), b.Income)
				}
				q1 := b.Income[0]
				if q1.ReportPeriod != "2024-04-28" || q1.Revenue == nil || *q1.Revenue != 79774000000 || q1.Period != "ttm" ||
					q1.FiscalPeriod != "TTM" || q1.FiscalYear != 2025 || q1.AccessionNumber != "0001045810-24-000124" || q1.FilingDate != "2024-05-29" {
					t.Fatalf("NVDA ttm Q1 FY2025 = %+v", q1)
				}
				// Net income is reported for fiscal years only, and a quarter's
				// EPS is never summed.
				if q1.NetIncome != nil || q1.EPSDiluted != nil {
					t.Fatalf("NVDA ttm Q1 FY2025 net income %v EPS %v, want null", q1.NetIncome, q1.EPSDiluted)
				}
				if fy := b.Income[1]; fy.ReportPeriod != "2024-01-28" || *fy.Revenue != 60922000000 || *fy.EPSDiluted != 11.93 || fy.FiscalYear != 2024 {
					t.Fatalf("NVDA ttm at FY2024 end = %+v", fy)
				}
				// From the FY2025 10-K on, it is the newest filing reporting a piece.
				b = get("/us/financials/income-statements?ticker=NVDA&period=ttm&limit=1&offset=1", http.StatusOK)
				if len(b.Income) != 1 || *b.Income[0].Revenue != 79774000000 || b.Income[0].AccessionNumber != "0001045810-25-000023" ||
					b.Meta.NextOffset == nil || *b.Meta.NextOffset != 2 {
					t.Fatalf("NVDA ttm page 2 = %+v meta %+v", b.Income, b.Meta)
				}
				b = get("/us/financials/balance-sheets?ticker=NVDA&period=ttm", http.StatusOK)
				if len(b.Balance) != 1 || b.Balance[0].ReportPeriod != "2025-01-26" || *b.Balance[0].Assets != 111601000000 || b.Balance[0].Period != "ttm" {
					t.Fatalf("NVDA ttm balance sheets = %+v", b.Balance)
				}
				// Apple Q3 FY2023: FY2022 394,328 + nine months 293,787 - the prior
				// nine months 304,182 million, known once the Q3 10-Q reported
				// both nine months on 2023-08-04.
				q3 := "/us/financials/income-statements?ticker=AAPL&period=ttm&report_period_gte=2023-07-01&report_period_lte=2023-07-01"
				if b = get(q3+"&as_of=2023-08-03", http.StatusOK); len(b.Income) != 0 {
					t.Fatalf("AAPL ttm at Q3 FY2023 before its 10-Q = %+v, want none", b.Income)
				}
				b = get(q3+"&as_of=2023-08-04", http.StatusOK)
				if len(b.Income) != 1 || *b.Income[0].Revenue != 383933000000 || *b.Income[0].NetIncome != 94760000000 ||
					b.Income[0].EPSDiluted != nil || b.Income[0].AccessionNumber != "0000320193-23-000077" {
					t.Fatalf("AAPL ttm at Q3 FY2023 = %+v", b.Income)
				}
				b = get("/us/financials/income-statements?ticker=AAPL&period=ttm", http.StatusOK)
				if len(b.Income) != 4 || b.Income[0].ReportPeriod != "2024-09-28" || *b.Income[0].Revenue != 391035000000 ||
					b.Meta.NextOffset == nil || *b.Meta.NextOffset != 4 {
					t.Fatalf("AAPL ttm = %+v meta %+v", b.Income, b.Meta)
				}
			})
		})
	}
}

func TestUSFinancialsErrorsAreNotCharged(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "grace@example.com")
			cases := []refusal{
				{"/us/financials", http.StatusBadRequest, "ticker or cik"},
				{"/us/financials/balance-sheets?ticker=AAPL&cik=320193", http.StatusBadRequest, "not both"},
				{"/us/financials?ticker=AAPL&limit=0", http.StatusUnprocessableEntity, "limit"},
				{"/us/financials?ticker=AAPL&limit=201", http.StatusUnprocessableEntity, "limit"},
				{"/us/financials?ticker=AAPL&offset=-1", http.StatusUnprocessableEntity, "offset"},
				{"/us/financials?ticker=AAPL&period=TTM", http.StatusUnprocessableEntity, "period"},
				{"/us/financials?ticker=AAPL&period=monthly", http.StatusUnprocessableEntity, "period"},
				{"/us/financials?ticker=AAPL&as_of=soon", http.StatusUnprocessableEntity, "as_of"},
				{"/us/financials/cash-flow-statements?ticker=AAPL&report_period_gte=2024-13-01", http.StatusUnprocessableEntity, "report_period_gte"},
				{"/us/financials?cik=12345678901", http.StatusUnprocessableEntity, "CIK"},
				{"/us/financials/income-statements?ticker=ZZZZ", http.StatusNotFound, "ZZZZ"},
			}
			expectUncharged(t, c, key, 100000, cases)
			st := credits(t, c, session)
			// Only the 404 was debited, and it was refunded.
			if st.Balance != 100000 || len(st.Ledger) != 3 || st.Ledger[0].Kind != "refund" {
				t.Fatalf("statement after failures = %+v", st)
			}
			r := c.do("GET", "/us/financials?ticker=MSFT", nil, apiKey(key)).expect(t, http.StatusOK)
			if r.Header.Get("X-Credits-Cost") != "1" || r.Header.Get("X-Credits-Remaining") != "99999" {
				t.Fatalf("success credit headers %q/%q", r.Header.Get("X-Credits-Cost"), r.Header.Get("X-Credits-Remaining"))
			}
		})
	}
}
