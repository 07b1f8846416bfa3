package replay

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"path"
	"testing"

	"github.com/quarrydata/quarry/sampledata"
)

// CompanyFactsZipPath is where the SEC serves its nightly archive of
// every filer's companyfacts.
const CompanyFactsZipPath = "Archives/edgar/daily-index/xbrl/companyfacts.zip"

// CompanyFactsZip builds, at test time, a companyfacts.zip of the
// sample's real companyfacts (sampledata/us_financials), one
// CIK##########.json entry each as in the SEC's archive: built from the
// sample, not the SEC's archive itself, which holds every filer.
func CompanyFactsZip(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	entries, err := fs.ReadDir(sampledata.USFinancials, sampledata.USFinancialsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "company_tickers.json" {
			continue
		}
		body, err := fs.ReadFile(sampledata.USFinancials, path.Join(sampledata.USFinancialsDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
