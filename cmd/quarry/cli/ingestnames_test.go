package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
)

// TestIngestTakesCatalogIDsAndAliases checks the names `quarry ingest`
// takes (B66): a dataset's catalog id, its ingest name before B66, a
// catalog dataset only its ingest fills, and "all"; a catalog dataset
// several ingests fill names them instead.
func TestIngestTakesCatalogIDsAndAliases(t *testing.T) {
	for what, want := range map[string]string{
		"us_financials":     "us_financials",
		"us-financials":     "us_financials",
		"us_filing_indexes": "us_filing_indexes",
		"us-filings":        "us_filing_indexes",
		"us_search":         "us_filing_indexes",
		"india_search":      "india_judgments",
		"india_exports":     "india_prices",
		"us-holdings":       "us_security_fund_holders",
		"us-securities":     "us_securities",
	} {
		got, err := ingestNames(what, nil)
		if err != nil || !slices.Equal(got, []string{want}) {
			t.Errorf("ingest %s = %v, %v; want %s", what, got, err, want)
		}
	}
	if got, err := ingestNames("all", nil); err != nil || !slices.Equal(got, bootstrap.IngestNames()) || len(got) != 8 {
		t.Errorf("ingest all = %v, %v", got, err)
	}
	_, err := ingestNames("ask", nil)
	if err == nil || !strings.Contains(err.Error(), "china_securities, us_filing_indexes or us_financials") {
		t.Errorf("ingest ask = %v, want the ingests that fill it", err)
	}
	if _, err := ingestNames("us_prices", nil); err == nil || !strings.Contains(err.Error(), "known: all, china_prices") {
		t.Errorf("ingest us_prices = %v, want the known names", err)
	}
}
