package ingest

import (
	"context"
	"io"
	"io/fs"
	"iter"
	"math"
	"path"

	"github.com/quarrydata/quarry/adapters/ashareprices"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/domain/ashare"
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
	return ingestBars(ctx, prices, files, chinaprices.IngestBatchBytes)
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
	batch := chinaprices.IngestBatchBytes
	if given.OneBatch {
		batch = math.MaxInt
	}
	return ingestBars(ctx, prices, files, batch)
}

// ingestBars reads the files one at a time and stores their bars in
// batches of batchBytes (chinaprices.Service.IngestEach), so memory
// holds one batch however many files the run has. The first bad file
// stops the run after the batches before its own.
func ingestBars(ctx context.Context, prices *chinaprices.Service, files []ashareprices.File, batchBytes int) (Outcome, error) {
	res, err := prices.IngestEach(ctx, readBars(files), batchBytes)
	return Outcome{Read: res.Added + res.Unchanged, Records: res.Added}, err
}

// readBars yields the bars of each file in turn, stopping at the first
// bad one.
func readBars(files []ashareprices.File) iter.Seq2[[]ashare.Bar, error] {
	return func(yield func([]ashare.Bar, error) bool) {
		for _, f := range files {
			bars, err := ashareprices.ReadFile(f)
			if !yield(bars, err) || err != nil {
				return
			}
		}
	}
}
