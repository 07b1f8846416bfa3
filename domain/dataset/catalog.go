package dataset

import (
	"slices"

	"github.com/quarrydata/quarry/domain/scope"
)

// Costs in credits per request, from the interface's cost table.
const (
	CostStandardRead int64 = 1
	CostSearch       int64 = 10
	CostAsk          int64 = 25
	CostPricesCSV    int64 = 25
	CostExport       int64 = 50
)

var (
	secPublic = Licence{
		Source:                "U.S. Securities and Exchange Commission (EDGAR)",
		RedistributionAllowed: true,
		Terms:                 "US government works in the public domain; redistribution allowed",
	}
	exchangeListings = Licence{
		Source:                "Shanghai, Shenzhen and Beijing stock exchange listing announcements",
		RedistributionAllowed: true,
		Terms:                 "public listing facts; redistribution allowed",
	}
	internalOnly = func(source string) Licence {
		return Licence{
			Source:                source,
			RedistributionAllowed: false,
			Terms:                 "internal use only: no redistribution licence is held; reading does not grant a right to republish",
		}
	}
	indiaCourts = Licence{
		Source:                "Indian courts (public judgments)",
		RedistributionAllowed: true,
		Terms:                 "public court records; personal data is tokenized and held in the PII vault",
	}
)

func read(method, path, op string, cost int64, perms ...scope.Permission) Route {
	return Route{Method: method, Path: path, OperationID: op, Cost: cost, Permissions: perms}
}

// Catalog returns every dataset of the interface with its routes, in catalog order.
func Catalog() []Dataset {
	return []Dataset{
		{ID: USFinancials, Title: "US financial statements (point in time)", Jurisdiction: "US", Licence: secPublic, Routes: []Route{
			read("GET", "/us/financials", "get_us_financials", CostStandardRead, scope.USRead),
			read("GET", "/us/financials/income-statements", "get_us_income_statements", CostStandardRead, scope.USRead),
			read("GET", "/us/financials/balance-sheets", "get_us_balance_sheets", CostStandardRead, scope.USRead),
			read("GET", "/us/financials/cash-flow-statements", "get_us_cash_flow_statements", CostStandardRead, scope.USRead),
			read("GET", "/us/companies", "list_us_companies", CostStandardRead, scope.USRead),
		}, Ask: true},
		{ID: USFilingIndexes, Title: "US filing file indexes", Jurisdiction: "US", Licence: secPublic, Routes: []Route{
			read("GET", "/us/filings/{accession_number}/index", "get_us_filing_index", CostStandardRead, scope.USRead),
		}, Ask: true},
		{ID: USSearch, Title: "US filing-text search", Jurisdiction: "US", Licence: secPublic, Routes: []Route{
			read("POST", "/us/search", "search_us_filings", CostSearch, scope.USRead, scope.SearchRead),
		}, Ask: true},
		{ID: USFundHolders, Title: "US funds holding a security (13F)", Jurisdiction: "US", Licence: secPublic, Routes: []Route{
			read("GET", "/us/security-fund-holders", "get_us_security_fund_holders", CostStandardRead, scope.USRead),
		}, Ask: true},
		{ID: ChinaSecurities, Title: "China A-share securities", Jurisdiction: "CN", Licence: exchangeListings, Routes: []Route{
			read("GET", "/china/securities/{code}", "get_china_security", CostStandardRead, scope.ChinaRead),
			read("GET", "/china/securities", "list_china_securities", CostStandardRead, scope.ChinaRead),
		}, Ask: true},
		{ID: ChinaPrices, Title: "China A-share daily prices", Jurisdiction: "CN", Licence: internalOnly("Mainland exchange market data"), Routes: []Route{
			read("GET", "/china/prices", "get_china_prices", CostStandardRead, scope.ChinaRead),
		}, Ask: true},
		{ID: IndiaPrices, Title: "India exchange prices (bhavcopy)", Jurisdiction: "IN", Licence: internalOnly("NSE and BSE bhavcopy"), Routes: []Route{
			read("GET", "/india/prices", "get_india_prices", CostStandardRead, scope.IndiaRead),
			read("GET", "/india/prices.csv", "get_india_prices_csv", CostPricesCSV, scope.IndiaRead),
		}, Ask: true},
		{ID: IndiaSearch, Title: "India document search", Jurisdiction: "IN", Licence: indiaCourts, Routes: []Route{
			read("POST", "/india/search", "search_india_documents", CostSearch, scope.IndiaRead, scope.LitigationRead, scope.SearchRead),
		}, Ask: true, AskWith: IndiaJudgments},
		{ID: IndiaJudgments, Title: "India court judgments", Jurisdiction: "IN", Licence: indiaCourts, Routes: []Route{
			read("GET", "/india/judgments/{judgment_id}", "get_india_judgment", CostStandardRead, scope.LitigationRead, scope.IndiaRead),
			read("GET", "/india/judgments/{judgment_id}/pdf", "get_india_judgment_pdf", CostStandardRead, scope.LitigationRead, scope.IndiaRead),
		}, Ask: true, AskWith: IndiaSearch},
		{ID: IndiaExports, Title: "India CSV, XLSX and Parquet exports", Jurisdiction: "IN", Licence: internalOnly("NSE and BSE bhavcopy"), Routes: []Route{
			read("POST", "/india/exports", "create_india_export", CostExport, scope.DataExport, scope.IndiaRead),
		}},
		{ID: AskRetrieval, Title: "Natural-language Ask and governed retrieval", Jurisdiction: "GLOBAL", Licence: internalOnly("Quarry governed corpus"), Routes: []Route{
			read("POST", "/ask", "ask", CostAsk, scope.RAGSearch),
		}},
	}
}

// byID is the catalog by dataset id, built once: requests look their
// dataset up on every answer.
var byID = func() map[ID]Dataset {
	m := map[ID]Dataset{}
	for _, d := range Catalog() {
		m[d.ID] = d
	}
	return m
}()

// Lookup returns the dataset with the given id. Its routes are the
// caller's own copy.
func Lookup(id ID) (Dataset, bool) {
	d, ok := byID[id]
	d.Routes = slices.Clone(d.Routes)
	return d, ok
}
