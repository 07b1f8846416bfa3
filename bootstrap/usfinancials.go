package bootstrap

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

func init() {
	register(wiring{
		name:    string(dataset.USFinancials),
		alias:   "us-financials",
		fills:   []dataset.ID{dataset.USFinancials, dataset.AskRetrieval},
		sources: "SEC companyfacts JSON (CIK##########.json) plus SEC company_tickers.json",
		sample:  sampleOf(LoadUSFinancialsSample),
		serve:   usFinancials,
		stores:  financialsStore,
		ingester: ingester(func(s ports.FinancialsStore) func(context.Context, *IngestFiles) (int, error) {
			return func(ctx context.Context, files *IngestFiles) (int, error) {
				return ingestUSFinancials(ctx, usfinancials.New(s, usecase.SystemClock, nil), files)
			}
		}),
	})
}

// usFinancials wires the US financial statements dataset: its store (memory,
// or MongoDB behind a read cache), its use case, probe and handlers.
func usFinancials(cfg Config) fx.Option {
	return fx.Options(
		financialsStore(cfg),
		documentCache(cfg, func(s ports.FinancialsStore, c *readcache.Cache) ports.FinancialsStore {
			return usfinancials.NewCache(s, c)
		}),
		fx.Provide(
			fx.Annotate(usfinancials.New, fx.ParamTags(``, ``, sharedCache)),
			probe((*usfinancials.Service).Probe),
			handlers(httpadapter.USFinancialsHandlers),
		),
	)
}

func financialsStore(cfg Config) fx.Option {
	return documentStore(cfg,
		func() ports.FinancialsStore { return memory.NewFinancials() },
		func(db *mongodrv.Database) ports.FinancialsStore { return mongo.NewFinancials(db) })
}

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

// ingestUSFinancials loads companyfacts documents (files, directories of
// them, or companyfacts.zip read entry by entry) and company_tickers.json
// files, or the bundled sample without files. It reads one file at a time
// and writes usfinancials.IngestBatch companies (or usfinancials.IngestBatchBytes)
// at a time, so memory and open files
// stay bounded however many files there are; the first bad file stops the
// run, after the files before it are written (see usfinancials.Service.IngestEach).
// A file's retrieval time is its modification time (an archive entry's
// own): when it was downloaded from the SEC.
func ingestUSFinancials(ctx context.Context, fin *usfinancials.Service, files *IngestFiles) (int, error) {
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
