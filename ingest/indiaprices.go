package ingest

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"maps"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/adapters/nsebhavcopy"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/domain/nse"
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
	return ingestNSE(ctx, prices, files, files, indiaprices.IngestBatchBytes)
}

// IngestIndiaPrices loads NSE files, or the bundled sample without files,
// as ingestNSE says; a run with OneBatch is one batch. A file's retrieval
// time is its modification time: its rows are known from then, or from
// their day's close when that is later (nse.KnownAt).
func IngestIndiaPrices(ctx context.Context, prices *indiaprices.Service, given *Files) (Outcome, error) {
	if given.none() {
		return ingestIndiaPricesSample(ctx, prices)
	}
	in, err := given.expand(csvEntry)
	if err != nil {
		return Outcome{}, err
	}
	defer in.close()
	files := make([]nsebhavcopy.File, len(in.files))
	heads := make([]nsebhavcopy.File, len(in.files))
	for i, f := range in.files {
		files[i] = nsebhavcopy.File{Name: f.name, Open: func() (io.ReadCloser, error) { return in.open(f.name) }, RetrievedAt: f.modTime.UTC()}
		heads[i] = files[i]
		heads[i].Open = func() (io.ReadCloser, error) { return in.openHead(f.name) }
	}
	batch := indiaprices.IngestBatchBytes
	if given.OneBatch {
		batch = math.MaxInt
	}
	return ingestNSE(ctx, prices, files, heads, batch)
}

// ingestNSE plans the run from each file's head, read through heads
// (opened past the progress display, which counts each file once), then
// reads the listings whole and the other files one at a time, in date
// order, and stores them in batches of whole days of batchBytes
// (indiaprices.Service.IngestEach): memory holds one batch however many
// days the run has. A file whose header or first row is bad stops the run
// before anything is written; one bad further on stops it after the
// batches before its own.
func ingestNSE(ctx context.Context, prices *indiaprices.Service, files, heads []nsebhavcopy.File, batchBytes int) (Outcome, error) {
	plan, err := planNSE(files, heads)
	if err != nil {
		return Outcome{}, err
	}
	res, err := prices.IngestEach(ctx, readNSE(plan.days), plan.listings, batchBytes)
	out := Outcome{Read: res.Added + res.Unchanged, Records: res.Added}
	var notes []string
	if res.NoISIN > 0 {
		notes = append(notes, fmt.Sprintf("%d full-bhavcopy rows without an ISIN (no same-day bhavcopy row or EQUITY_L entry for their symbol)", res.NoISIN))
	}
	out.Skipped = strings.Join(notes, "; ")
	return out, err
}

// nsePlan is the order of a run: the symbol-to-ISIN listings, read whole,
// and the files of rows by day, each day's full bhavcopies after its files
// with ISINs.
type nsePlan struct {
	listings map[string]string
	days     []nsebhavcopy.File
}

// planNSE reads each file's head (heads[i] is files[i], opened for that),
// and the listings whole.
func planNSE(files, heads []nsebhavcopy.File) (nsePlan, error) {
	plan := nsePlan{listings: map[string]string{}}
	type dated struct {
		file nsebhavcopy.File
		head nsebhavcopy.Head
	}
	var days []dated
	for i, f := range files {
		h, err := nsebhavcopy.ReadHead(heads[i])
		if err != nil {
			return nsePlan{}, err
		}
		if !h.Listing {
			days = append(days, dated{f, h})
			continue
		}
		set, err := nsebhavcopy.ReadFile(f)
		if err != nil {
			return nsePlan{}, err
		}
		maps.Copy(plan.listings, set.Listings)
	}
	slices.SortStableFunc(days, func(a, b dated) int {
		return cmp.Or(cmp.Compare(a.head.Date, b.head.Date), cmp.Compare(lakhsLast(a.head), lakhsLast(b.head)))
	})
	for _, d := range days {
		plan.days = append(plan.days, d.file)
	}
	return plan, nil
}

func lakhsLast(h nsebhavcopy.Head) int {
	if h.Lakhs {
		return 1
	}
	return 0
}

// readNSE yields the rows of each file in turn, stopping at the first
// bad one.
func readNSE(files []nsebhavcopy.File) iter.Seq2[[]nse.Row, error] {
	return func(yield func([]nse.Row, error) bool) {
		for _, f := range files {
			set, err := nsebhavcopy.ReadFile(f)
			if !yield(set.Rows, err) || err != nil {
				return
			}
		}
	}
}
