package ingest

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/sampledata"
)

// LoadUSFinancialsSample ingests the bundled companyfacts sample and returns
// how many companies it holds.
func LoadUSFinancialsSample(ctx context.Context, fin *usfinancials.Service) (int, error) {
	entries, err := fs.ReadDir(sampledata.USFinancials, sampledata.USFinancialsDir)
	if err != nil {
		return 0, err
	}
	var sources []companyfacts.Source
	for _, e := range entries {
		name := path.Join(sampledata.USFinancialsDir, e.Name())
		sources = append(sources, companyfacts.Source{Name: name, RetrievedAt: sampledata.USFinancialsRetrievedAt,
			Open: func() (io.ReadCloser, error) { return sampledata.USFinancials.Open(name) }})
	}
	return fin.IngestEach(ctx, companyfacts.Stream(sources, nil))
}

// companyFactsEntry is the rule for a companyfacts.zip: the SEC's holds
// only CIK##########.json documents, so any other entry means the archive
// is not one, and refuses it before anything is written.
func companyFactsEntry(entry string) (bool, error) {
	if companyfacts.IsDocumentName(entry) {
		return true, nil
	}
	return false, errors.New("not a companyfacts document: a companyfacts.zip holds only CIK##########.json files")
}

// IngestUSFinancials loads companyfacts documents (files, directories of
// them, or companyfacts.zip read entry by entry) and company_tickers.json
// files, or the bundled sample without files. It reads one file at a time
// and writes a batch of at most usfinancials.IngestBatch companies or
// usfinancials.IngestBatchBytes of facts at a time, so memory and open files
// stay bounded however many files there are; the first bad file stops the
// run, after the files before it are written (see usfinancials.Service.IngestEach).
// A file's retrieval time is its modification time (an archive entry's
// own): when it was downloaded from the SEC.
func IngestUSFinancials(ctx context.Context, fin *usfinancials.Service, files *Files) (int, error) {
	if files.none() {
		return LoadUSFinancialsSample(ctx, fin)
	}
	in, err := files.expand(companyFactsEntry)
	if err != nil {
		return 0, err
	}
	defer in.close()
	sources := make([]companyfacts.Source, len(in.files))
	for i, f := range in.files {
		sources[i] = companyfacts.Source{Name: f.name, RetrievedAt: f.modTime.UTC(),
			Open: func() (io.ReadCloser, error) { return in.openQuiet(f.name) }}
	}
	return fin.IngestEach(ctx, companyfacts.Stream(sources, in.progress.done))
}
