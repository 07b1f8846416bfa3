package porttest

import (
	"context"
	"testing"

	"github.com/quarrydata/quarry/domain/financials"
)

// runCompanySearch is the contract of FinancialsStore.SearchCompanies:
// every field of a search narrows it as financials.CompanySearch.Matches
// says, companies come by CIK without their facts, and pages cut the
// matches exactly.
func runCompanySearch(t *testing.T, newStore NewFinancialsStore, base financials.Company) {
	ctx := context.Background()
	company := func(cik, name string, tickers ...string) financials.Company {
		c := base
		c.CIK, c.Name, c.Tickers, c.Facts = cik, name, tickers, nil
		return c
	}
	amd := company("0000002488", "ADVANCED MICRO DEVICES INC", "AMD")
	adp := company("0000008670", "AUTOMATIC DATA PROCESSING INC", "ADP")
	msft := company("0000789019", "MICROSOFT CORP", "MSFT")
	nvda := company("0001045810", "NVIDIA CORP", "NVDA")
	alphabet := company("0001652044", "Alphabet Inc.", "GOOGL", "GOOG")
	tickerless := company("0001999999", "Holding Trust")
	all := []financials.Company{amd, adp, msft, nvda, alphabet, tickerless}
	stored := append([]financials.Company{}, all...)
	stored[3].Facts = base.Facts // a company's facts stay out of its search result
	t.Run("a search matches by ticker prefix, name part and CIK prefix", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertCompanies(ctx, stored))
		for name, c := range map[string]struct {
			q    financials.CompanySearch
			want []financials.Company
		}{
			"everything":                 {financials.CompanySearch{}, all},
			"ticker":                     {financials.CompanySearch{Ticker: "NVDA"}, []financials.Company{nvda}},
			"ticker prefix":              {financials.CompanySearch{Ticker: "A"}, []financials.Company{amd, adp}},
			"either ticker, listed once": {financials.CompanySearch{Ticker: "GOOG"}, []financials.Company{alphabet}},
			"name part":                  {financials.CompanySearch{Name: "micro"}, []financials.Company{amd, msft}},
			"name key":                   {financials.CompanySearch{Name: "alphabet inc"}, []financials.Company{alphabet}},
			"CIK padded prefix":          {financials.CompanySearch{CIK: "0001"}, []financials.Company{nvda, alphabet, tickerless}},
			"CIK number prefix":          {financials.CompanySearch{CIK: "1045"}, []financials.Company{nvda}},
			"CIK number, not padded":     {financials.CompanySearch{CIK: "8"}, []financials.Company{adp}},
			"whole CIK":                  {financials.CompanySearch{CIK: "0000789019"}, []financials.Company{msft}},
			"fields together":            {financials.CompanySearch{Ticker: "A", Name: "micro"}, []financials.Company{amd}},
			"nothing matches":            {financials.CompanySearch{Name: "micro", CIK: "1"}, nil},
			"a ticker is not a name":     {financials.CompanySearch{Name: "nvda"}, nil},
		} {
			got, more, err := s.SearchCompanies(ctx, c.q, 0, 100)
			must(t, "SearchCompanies "+name, err)
			if more || len(got) != len(c.want) {
				t.Fatalf("%s: SearchCompanies(%+v) = %d companies (more %v), want %d", name, c.q, len(got), more, len(c.want))
			}
			for i := range got {
				wantFactless(t, name, got[i], c.want[i])
			}
		}
	})
	t.Run("pages of a search cut its matches in order", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertCompanies(ctx, stored))
		for offset := 0; offset < len(all)+2; offset++ {
			got, more, err := s.SearchCompanies(ctx, financials.CompanySearch{}, offset, 2)
			must(t, "SearchCompanies", err)
			want := all[min(offset, len(all)):min(offset+2, len(all))]
			if len(got) != len(want) || more != (offset+2 < len(all)) {
				t.Fatalf("page at %d = %d companies (more %v), want %d", offset, len(got), more, len(want))
			}
			for i := range got {
				wantFactless(t, "page", got[i], want[i])
			}
		}
	})
	t.Run("a search finds a company as last written", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertCompanies(ctx, []financials.Company{nvda}))
		renamed := nvda
		renamed.Name, renamed.Tickers = "NVIDIA CORPORATION", []string{"NVDA", "NVD"}
		must(t, "Upsert renamed", s.UpsertCompanies(ctx, []financials.Company{renamed}))
		got, _, err := s.SearchCompanies(ctx, financials.CompanySearch{Name: "corporation", Ticker: "NVD"}, 0, 10)
		must(t, "SearchCompanies", err)
		if len(got) != 1 {
			t.Fatalf("after the rename: %+v", got)
		}
		wantFactless(t, "renamed", got[0], renamed)
	})
}
