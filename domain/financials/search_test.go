package financials_test

import (
	"testing"

	"github.com/quarrydata/quarry/domain/financials"
)

func TestCompanySearchMatches(t *testing.T) {
	nvda := financials.Company{CIK: "0001045810", Name: "NVIDIA CORP", Tickers: []string{"NVDA", "NVD"}}
	for _, c := range []struct {
		q    financials.CompanySearch
		want bool
	}{
		{financials.CompanySearch{}, true},
		{financials.CompanySearch{Ticker: "NV"}, true},
		{financials.CompanySearch{Ticker: "VDA"}, false},
		{financials.CompanySearch{Name: financials.NameKey("Nvidia Corp.")}, true},
		{financials.CompanySearch{Name: "idia c"}, true},
		{financials.CompanySearch{Name: "corporation"}, false},
		{financials.CompanySearch{CIK: "1045810"}, true},
		{financials.CompanySearch{CIK: "0001045"}, true},
		{financials.CompanySearch{CIK: "0"}, true},
		{financials.CompanySearch{CIK: "45810"}, false},
		{financials.CompanySearch{CIK: "01045810"}, false},
		{financials.CompanySearch{Ticker: "NVD", Name: "nvidia", CIK: "1"}, true},
		{financials.CompanySearch{Ticker: "NVD", Name: "amd"}, false},
	} {
		if got := c.q.Matches(nvda); got != c.want {
			t.Errorf("%+v matches NVIDIA: %v, want %v", c.q, got, c.want)
		}
	}
}
