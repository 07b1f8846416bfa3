package bootstrap

import (
	"context"

	"github.com/quarrydata/quarry/ingest"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// chinaSecurities is the China A-share securities slice: its store
// (memory, or MongoDB behind a read cache), use case, probe and handler.
func chinaSecurities() wiring {
	stores, served := documents(
		func() ports.SecurityStore { return memory.NewSecurities() },
		DocumentStores.Securities,
		func(s ports.SecurityStore, c *readcache.Cache) ports.SecurityStore {
			return chinasecurities.NewCache(s, c)
		})
	return wiring{
		name:    string(dataset.ChinaSecurities),
		alias:   "china-securities",
		fills:   []dataset.ID{dataset.ChinaSecurities, dataset.AskRetrieval},
		sources: "A-share listings: Tushare stock_basic CSV or the SZSE's A股列表.xlsx, detected by header; B-shares, codes outside the A-share ranges and rows without a listing date are skipped and counted",
		sample:  sampleOf(ingest.LoadChinaSecuritiesSample),
		stores:  stores,
		served:  served,
		provide: []any{chinasecurities.New, probe((*chinasecurities.Service).Probe), handlers(httpadapter.ChinaHandlers)},
		ingester: skippingIngester(func(s ports.SecurityStore) func(context.Context, *ingest.Files) (ingest.Outcome, error) {
			return func(ctx context.Context, files *ingest.Files) (ingest.Outcome, error) {
				return ingest.IngestListings(ctx, s, files)
			}
		}),
	}
}
