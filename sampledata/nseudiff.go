package sampledata

import "embed"

// NSEUDiFF holds eight whole trading days of NSE's capital-market UDiFF
// bhavcopy, 2025-06-18 to 2025-06-27, each zip as NSE serves it under
// content/cm/ (source in README.md). The sync tests' replay server serves
// them at their real paths; no start-up loads them.
//
//go:embed nse_udiff
var NSEUDiFF embed.FS

// NSEUDiFFDir is the directory of the days in NSEUDiFF.
const NSEUDiFFDir = "nse_udiff"
