package sampledata

import "embed"

// FundHolders holds the bundled 13F sample and the securities master it
// resolves through, under fundholders/ (sources in README.md).
//
//go:embed fundholders
var FundHolders embed.FS

// The files of the funds-holding sample, by role.
const (
	FundHoldersTickers = "fundholders/company_tickers.json"
	FundHoldersCUSIPs  = "fundholders/cusip_map.csv"
)

// FundHoldersFilings lists the 13F files of the sample, in the forms
// `quarry ingest us-holdings` reads.
var FundHoldersFilings = []string{"fundholders/0001816616-21-000007.txt"}
