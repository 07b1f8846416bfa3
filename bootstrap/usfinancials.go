package bootstrap

import (
	"context"
	"io/fs"
	"os"
	"path"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

func init() {
	register(wiring{
		name:    "us-financials",
		sources: "SEC companyfacts JSON (CIK##########.json) plus SEC company_tickers.json",
		serve:   usFinancials,
		ingest: func(cfg Config) fx.Option {
			return fx.Options(financialsStore(cfg), ingester("us-financials", func(s ports.FinancialsStore) func(context.Context, app.OpenFile, []string) (int, error) {
				return func(ctx context.Context, open app.OpenFile, files []string) (int, error) {
					return ingestUSFinancials(ctx, app.NewFinancials(s, app.SystemClock), open, files)
				}
			}))
		},
	})
}

// usFinancials wires the US financial statements dataset: its store (memory,
// or the MongoDB Store), its use case, probe and handlers, and the bundled
// sample when asked.
func usFinancials(cfg Config) fx.Option {
	return fx.Options(
		financialsStore(cfg),
		documentCache(cfg, func(s ports.FinancialsStore, c *app.ReadCache) ports.FinancialsStore {
			return app.NewFinancialsCache(s, c)
		}),
		fx.Provide(
			app.NewFinancials,
			probe((*app.Financials).Probe),
			handlers(httpadapter.USFinancialsHandlers),
		),
		sampleOnStart(cfg, "us_financials", LoadUSFinancialsSample),
	)
}

func financialsStore(cfg Config) fx.Option {
	return documentStore(cfg,
		func() ports.FinancialsStore { return memory.NewFinancials() },
		func(db *mongodrv.Database) ports.FinancialsStore { return mongo.NewFinancials(db) })
}

// LoadUSFinancialsSample ingests the bundled companyfacts sample and returns
// how many companies it holds.
func LoadUSFinancialsSample(ctx context.Context, fin *app.Financials) (int, error) {
	entries, err := fs.ReadDir(sampledata.USFinancials, sampledata.USFinancialsDir)
	if err != nil {
		return 0, err
	}
	var files []companyfacts.File
	for _, e := range entries {
		name := path.Join(sampledata.USFinancialsDir, e.Name())
		f, err := sampledata.USFinancials.Open(name)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		files = append(files, companyfacts.File{Name: name, Body: f, RetrievedAt: sampledata.USFinancialsRetrievedAt})
	}
	return ingestCompanyFacts(ctx, fin, files)
}

// ingestUSFinancials loads companyfacts documents and company_tickers.json
// files, or the bundled sample without files. A file's retrieval time is its
// modification time: when it was downloaded from the SEC.
func ingestUSFinancials(ctx context.Context, fin *app.Financials, open app.OpenFile, names []string) (int, error) {
	if len(names) == 0 {
		return LoadUSFinancialsSample(ctx, fin)
	}
	var files []companyfacts.File
	for _, name := range names {
		st, err := os.Stat(name)
		if err != nil {
			return 0, err
		}
		f, err := open(name)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		files = append(files, companyfacts.File{Name: name, Body: f, RetrievedAt: st.ModTime().UTC()})
	}
	return ingestCompanyFacts(ctx, fin, files)
}

// ingestCompanyFacts reads every file before it writes anything, so a bad
// file leaves the store as it was.
func ingestCompanyFacts(ctx context.Context, fin *app.Financials, files []companyfacts.File) (int, error) {
	companies, err := companyfacts.Read(files)
	if err != nil {
		return 0, err
	}
	return fin.Ingest(ctx, companies)
}
