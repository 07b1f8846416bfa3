package bootstrap

import (
	"context"

	"github.com/quarrydata/quarry/ingest"

	"go.uber.org/fx"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// indiaPrices is the India prices slice: its store (memory, or MongoDB
// keeping what it reads in the read cache), use case, probe, handlers and
// export (india.prices).
func indiaPrices() wiring {
	stores, _ := documents(
		func() ports.IndiaPriceStore { return memory.NewIndiaPrices() },
		DocumentStores.IndiaPrices,
		nil)
	return wiring{
		name:    string(dataset.IndiaPrices),
		alias:   "india-prices",
		fills:   []dataset.ID{dataset.IndiaPrices, dataset.IndiaExports},
		sources: "NSE capital-market bhavcopy: legacy cmDDMONYYYYbhav.csv, UDiFF BhavCopy_NSE_CM_…csv or full sec_bhavdata_full_DDMMYYYY.csv (ISINs from same-day bhavcopy rows or an EQUITY_L.csv in the run), zipped or not",
		sample:  sampleOf(ingest.LoadIndiaPricesSample),
		stores:  stores,
		// When documents are cached, the MongoDB store keeps what it reads
		// of its index and year buckets in the shared read cache, since
		// only it knows that layout.
		served: func(cfg Config) fx.Option {
			if !cachesDocuments(cfg) {
				return stores(cfg)
			}
			return fx.Provide(func(d DocumentStores, c *readcache.Cache) ports.IndiaPriceStore {
				return d.CachedIndiaPrices(c)
			})
		},
		provide: []any{
			indiaprices.New,
			probe((*indiaprices.Service).Probe),
			handlers(httpadapter.IndiaPricesHandlers),
			exportDataset((*indiaprices.Service).ExportDataset),
		},
		ingester: skippingIngester(func(s ports.IndiaPriceStore) func(context.Context, *ingest.Files) (ingest.Outcome, error) {
			return func(ctx context.Context, files *ingest.Files) (ingest.Outcome, error) {
				return ingest.IngestIndiaPrices(ctx, indiaprices.New(s, usecase.SystemClock), files)
			}
		}),
	}
}
