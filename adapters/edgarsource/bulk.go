package edgarsource

import (
	"archive/zip"
	"context"
	"fmt"

	"github.com/quarrydata/quarry/adapters/internal/fetch"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// BulkPath is where the SEC serves its nightly archive of every filer's
// companyfacts, one CIK##########.json entry each.
const BulkPath = "Archives/edgar/daily-index/xbrl/companyfacts.zip"

var _ ports.BulkSource = (*Source)(nil)

// Bulk downloads companyfacts.zip into dir, unless it is still the
// version v identifies, checks that archive/zip opens it (its central
// directory, at the end, is there), and returns it, read in place, with
// company_tickers.json: what `quarry ingest us_financials` reads.
func (s *Source) Bulk(ctx context.Context, dir string, v ports.Version) (ports.Bulk, error) {
	got, err := s.www.Download(ctx, BulkPath, fetch.Validator(v), dir, wholeZip)
	if err != nil {
		return ports.Bulk{}, err
	}
	if got.NotModified {
		return ports.Bulk{NotModified: true, Version: v}, nil
	}
	tickers, _, err := s.tickers(ctx)
	if err != nil {
		return ports.Bulk{}, err
	}
	archive := ports.SourceFile{Dataset: string(dataset.USFinancials), Name: "companyfacts.zip", URL: got.URL,
		Path: got.File, RetrievedAt: got.RetrievedAt}
	return ports.Bulk{Files: []ports.SourceFile{archive, tickers}, Version: ports.Version(got.Validator)}, nil
}

// wholeZip refuses a file archive/zip cannot open: one cut short loses
// the central directory at its end.
func wholeZip(file string) error {
	r, err := zip.OpenReader(file)
	if err != nil {
		return fmt.Errorf("not a whole zip archive: %v", err)
	}
	return r.Close()
}
