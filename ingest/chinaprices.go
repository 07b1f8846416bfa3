package ingest

import (
	"context"
	"io"
	"io/fs"
	"path"

	"github.com/quarrydata/quarry/adapters/ashareprices"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/sampledata"
)

// LoadChinaPricesSample ingests the bundled bars, retrieved at
// sampledata.ChinaPricesRetrievedAt, and returns how many versions it
// added (none when they are held already).
func LoadChinaPricesSample(ctx context.Context, prices *chinaprices.Service) (int, error) {
	res, err := ingestChinaPricesSample(ctx, prices)
	return res.Records, err
}

func ingestChinaPricesSample(ctx context.Context, prices *chinaprices.Service) (Outcome, error) {
	entries, err := fs.ReadDir(sampledata.ChinaPrices, sampledata.ChinaPricesDir)
	if err != nil {
		return Outcome{}, err
	}
	var files []ashareprices.File
	for _, e := range entries {
		name := path.Join(sampledata.ChinaPricesDir, e.Name())
		open := func() (io.ReadCloser, error) { return sampledata.ChinaPrices.Open(name) }
		files = append(files, ashareprices.File{Name: name, Open: open, RetrievedAt: sampledata.ChinaPricesRetrievedAt})
	}
	return ingestBars(ctx, prices, files)
}

// ingestChinaPrices loads bar files, or the bundled sample without files.
// A file's retrieval time is its modification time: when it was
// downloaded. Its bars are known from then, or from their day's close when
// that is later (ashare.KnownAt).
func IngestChinaPrices(ctx context.Context, prices *chinaprices.Service, given *Files) (Outcome, error) {
	if given.none() {
		return ingestChinaPricesSample(ctx, prices)
	}
	in, err := given.expand(csvEntry)
	if err != nil {
		return Outcome{}, err
	}
	defer in.close()
	var files []ashareprices.File
	for _, f := range in.files {
		open := func() (io.ReadCloser, error) { return in.open(f.name) }
		files = append(files, ashareprices.File{Name: f.name, Open: open, RetrievedAt: f.modTime.UTC()})
	}
	return ingestBars(ctx, prices, files)
}

// ingestBars reads every file before it writes anything, so a bad file
// leaves the store as it was.
func ingestBars(ctx context.Context, prices *chinaprices.Service, files []ashareprices.File) (Outcome, error) {
	bars, err := ashareprices.Read(files)
	if err != nil {
		return Outcome{}, err
	}
	res, err := prices.Ingest(ctx, bars)
	return Outcome{Read: len(bars), Records: res.Added}, err
}
