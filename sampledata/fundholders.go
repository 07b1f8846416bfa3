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
// `quarry ingest us_security_fund_holders` reads: a full submission text file;
// information-table XMLs in their EDGAR folders identified by the Form 13F
// data-set tables given with them; and information-table XMLs identified
// by the filer's submissions JSON and, for an amendment, its cover page.
var FundHoldersFilings = []string{
	"fundholders/0001816616-21-000007.txt",
	"fundholders/form13f-dataset/SUBMISSION.tsv",
	"fundholders/form13f-dataset/COVERPAGE.tsv",
	"fundholders/1067983/CIK0001067983.json",
	"fundholders/1067983/000095012323011029/primary_doc.xml",
	"fundholders/1067983/000095012323010898/27893.xml",
	"fundholders/1067983/000095012323011029/28498.xml",
	"fundholders/1067983/000095012324002518/30197.xml",
	"fundholders/1994827/000195175725000093/F_13F_AcornCreek_Q42024.xml",
	"fundholders/1603466/000090266425005042/infotable.xml",
	"fundholders/1029160/000090266426003507/infotable.xml",
}
