package bootstrap

import (
	"context"

	"github.com/quarrydata/quarry/ingest"

	"go.uber.org/fx"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// usFinancials is the US financial statements slice: its store (memory,
// or MongoDB behind a read cache), its use case, probe and handlers.
func usFinancials() wiring {
	stores, served := documents(
		func() ports.FinancialsStore { return memory.NewFinancials() },
		DocumentStores.Financials,
		func(s ports.FinancialsStore, c *readcache.Cache) ports.FinancialsStore {
			return usfinancials.NewCache(s, c)
		})
	return wiring{
		name:    string(dataset.USFinancials),
		alias:   "us-financials",
		fills:   []dataset.ID{dataset.USFinancials, dataset.AskRetrieval},
		sources: "SEC companyfacts JSON (CIK##########.json) plus SEC company_tickers.json",
		sample:  sampleOf(ingest.LoadUSFinancialsSample),
		stores:  stores,
		served:  served,
		provide: []any{
			fx.Annotate(usfinancials.New, fx.ParamTags(``, ``, sharedCache)),
			probe((*usfinancials.Service).Probe),
			handlers(httpadapter.USFinancialsHandlers),
		},
		ingester: ingester(func(s ports.FinancialsStore) func(context.Context, *ingest.Files) (int, error) {
			return func(ctx context.Context, files *ingest.Files) (int, error) {
				return ingest.IngestUSFinancials(ctx, usfinancials.New(s, usecase.SystemClock, nil), files)
			}
		}),
	}
}
