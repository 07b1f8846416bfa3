// Package sampledata embeds the bundled sample data: real public facts, so
// that the embedded default serves something true. See README.md here for
// the sources of every row.
package sampledata

import (
	"embed"
	"time"
)

// Files holds the sample files by name.
//
//go:embed *.csv
var Files embed.FS

// ChinaSecurities names the China A-share listings file: a real Tushare
// stock_basic download of every listed A-share (sources in README.md).
const ChinaSecurities = "tushare_stock_basic.csv"

// ChinaSecuritiesRetrievedAt is when the listings file was taken from its
// source and added to the sample (README.md): the retrieval time its
// listings carry.
var ChinaSecuritiesRetrievedAt = time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
