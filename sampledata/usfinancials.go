package sampledata

import (
	"embed"
	"time"
)

// USFinancials holds the SEC files of the US financial statements sample,
// under USFinancialsDir: one companyfacts document per company, trimmed to
// verified facts, and a company_tickers.json naming them.
//
//go:embed us_financials
var USFinancials embed.FS

// USFinancialsDir is the directory of the sample in USFinancials.
const USFinancialsDir = "us_financials"

// USFinancialsRetrievedAt is when the sample's figures were retrieved and
// checked against public copies of the filings.
var USFinancialsRetrievedAt = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
