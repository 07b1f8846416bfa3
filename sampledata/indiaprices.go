package sampledata

import (
	"embed"
	"time"
)

// IndiaPrices holds the NSE daily rows sample under IndiaPricesDir: zips
// of real NSE bhavcopy files, legacy and full layouts (sources in
// README.md).
//
//go:embed india_prices
var IndiaPrices embed.FS

// IndiaPricesDir is the directory of the sample in IndiaPrices.
const IndiaPricesDir = "india_prices"

// IndiaPricesRetrievedAt is when the sample's files were retrieved: its
// rows are known from then on (nse.KnownAt), so an as_of before it sees
// none of them.
var IndiaPricesRetrievedAt = time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
