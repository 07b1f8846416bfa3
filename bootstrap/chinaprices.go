package bootstrap

import (
	"context"

	"go.uber.org/fx"

	"github.com/quarrydata/quarry/ingest"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// chinaPrices is the China A-share daily prices slice: its store (memory,
// or MongoDB keeping the series documents and year buckets it reads in the
// read cache, behind a read cache of each listing's steps), use case,
// probe and handler.
func chinaPrices() wiring {
	stores, _ := documents(
		func() ports.ChinaPriceStore { return memory.NewChinaPrices() },
		DocumentStores.ChinaPrices,
		nil)
	// When documents are cached, the database's store keeps the buckets it
	// reads itself, unpacked, since only it knows their layout.
	served := func(cfg Config) fx.Option {
		if !cachesDocuments(cfg) {
			return stores(cfg)
		}
		return fx.Provide(func(d DocumentStores, c *readcache.Cache) ports.ChinaPriceStore {
			return chinaprices.NewCache(d.CachedChinaPrices(c), c)
		})
	}
	return wiring{
		name:    string(dataset.ChinaPrices),
		alias:   "china-prices",
		fills:   []dataset.ID{dataset.ChinaPrices},
		sources: "A-share daily bars: Tushare daily CSV (ts_code,trade_date,...,vol,amount) or AKShare stock_zh_a_hist CSV named after its listing (sh600519.csv)",
		sample:  sampleOf(ingest.LoadChinaPricesSample),
		stores:  stores,
		served:  served,
		provide: []any{chinaprices.New, probe((*chinaprices.Service).Probe), handlers(httpadapter.ChinaPricesHandlers)},
		ingester: skippingIngester(func(s ports.ChinaPriceStore) func(context.Context, *ingest.Files) (ingest.Outcome, error) {
			return func(ctx context.Context, files *ingest.Files) (ingest.Outcome, error) {
				return ingest.IngestChinaPrices(ctx, chinaprices.New(s, usecase.SystemClock), files)
			}
		}),
	}
}
