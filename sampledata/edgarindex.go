package sampledata

import "embed"

// EDGARDailyIndex holds daily form indexes under EDGARDailyIndexDir,
// named as EDGAR names them (form.YYYYMMDD.idx): the first rows of a real
// day, and days re-laid from the sample's companyfacts and filing folders
// (README.md says which is which).
//
//go:embed edgar_daily_index
var EDGARDailyIndex embed.FS

// EDGARDailyIndexDir is the directory of the indexes in EDGARDailyIndex.
const EDGARDailyIndexDir = "edgar_daily_index"
