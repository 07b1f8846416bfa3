package sampledata

import (
	"embed"
	"time"
)

// ChinaPrices holds the A-share daily bars sample under ChinaPricesDir:
// real Tushare daily files of Kweichow Moutai (600519.SH) and Ping An Bank
// (000001.SZ), trimmed to about a year each (sources in README.md).
//
//go:embed china_prices
var ChinaPrices embed.FS

// ChinaPricesDir is the directory of the sample in ChinaPrices.
const ChinaPricesDir = "china_prices"

// ChinaPricesRetrievedAt is when the sample's files were assembled and
// checked against a second source. It is the sample's retrieval time, so
// its bars are known from then on (ashare.KnownAt): an as_of before it
// sees none of them.
var ChinaPricesRetrievedAt = time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
