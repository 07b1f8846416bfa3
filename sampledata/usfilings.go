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

// USFilingsExcerpts names, by folder, the held files that are excerpts of
// the file index.json lists under the same name: each folder's primary
// document is trimmed, while index.json keeps EDGAR's size of the whole
// document (README.md, "Sizes of held files"). Only these files may differ
// in size from index.json.
var USFilingsExcerpts = map[string][]string{
	"aapl-10k-2024": {"aapl-20240928.htm"},
	"msft-10k-2025": {"msft-20250630.htm"},
	"nvda-10k-2025": {"nvda-20250126.htm"},
}
