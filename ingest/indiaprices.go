package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/quarrydata/quarry/adapters/nsebhavcopy"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/sampledata"
)

// LoadIndiaPricesSample ingests the bundled zips of real NSE files,
// retrieved at sampledata.IndiaPricesRetrievedAt, and returns how many
// versions it added (none when they are held already).
func LoadIndiaPricesSample(ctx context.Context, prices *indiaprices.Service) (int, error) {
	res, err := ingestIndiaPricesSample(ctx, prices)
	return res.Records, err
}

func ingestIndiaPricesSample(ctx context.Context, prices *indiaprices.Service) (Outcome, error) {
	entries, err := fs.ReadDir(sampledata.IndiaPrices, sampledata.IndiaPricesDir)
	if err != nil {
		return Outcome{}, err
	}
	var files []nsebhavcopy.File
	for _, e := range entries {
		name := path.Join(sampledata.IndiaPricesDir, e.Name())
		data, err := fs.ReadFile(sampledata.IndiaPrices, name)
		if err != nil {
			return Outcome{}, err
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return Outcome{}, fmt.Errorf("%s: %w", name, err)
		}
		for _, entry := range zr.File {
			files = append(files, nsebhavcopy.File{Name: name + ":" + entry.Name, Open: entry.Open, RetrievedAt: sampledata.IndiaPricesRetrievedAt})
		}
	}
	return ingestNSE(ctx, prices, files)
}

// ingestIndiaPrices loads NSE files, or the bundled sample without files.
// A file's retrieval time is its modification time: its rows are known
// from then, or from their day's close when that is later (nse.KnownAt).
func IngestIndiaPrices(ctx context.Context, prices *indiaprices.Service, given *Files) (Outcome, error) {
	if given.none() {
		return ingestIndiaPricesSample(ctx, prices)
	}
	in, err := given.expand(csvEntry)
	if err != nil {
		return Outcome{}, err
	}
	defer in.close()
	var files []nsebhavcopy.File
	for _, f := range in.files {
		open := func() (io.ReadCloser, error) { return in.open(f.name) }
		files = append(files, nsebhavcopy.File{Name: f.name, Open: open, RetrievedAt: f.modTime.UTC()})
	}
	return ingestNSE(ctx, prices, files)
}

// ingestNSE reads every file before it writes anything, so a bad file
// leaves the store as it was.
func ingestNSE(ctx context.Context, prices *indiaprices.Service, files []nsebhavcopy.File) (Outcome, error) {
	set, err := nsebhavcopy.Read(files)
	if err != nil {
		return Outcome{}, err
	}
	res, err := prices.Ingest(ctx, set.Rows, set.Listings)
	out := Outcome{Read: res.Added + res.Unchanged, Records: res.Added}
	var notes []string
	if res.NoISIN > 0 {
		notes = append(notes, fmt.Sprintf("%d full-bhavcopy rows without an ISIN (no same-day bhavcopy row or EQUITY_L entry for their symbol)", res.NoISIN))
	}
	out.Skipped = strings.Join(notes, "; ")
	return out, err
}
