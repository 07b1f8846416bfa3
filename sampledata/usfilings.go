package sampledata

import "embed"

// USFilings holds one folder per bundled EDGAR filing, each as downloaded:
// the filing's index.json, the company's submissions JSON and the files
// fetched (a trimmed primary document). See README.md for sources.
//
//go:embed us_filings
var USFilings embed.FS

// USFilingsDir is the folder of USFilings that holds the filing folders.
const USFilingsDir = "us_filings"
