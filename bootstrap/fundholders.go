package bootstrap

import (
	"context"

	"github.com/quarrydata/quarry/ingest"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// SecuritiesMaster is the name `quarry ingest` takes for the securities
// master the fund-holders lookup resolves identifiers through: the one
// dataset that fills no catalog dataset of its own, so no catalog id names
// it (B66).
const SecuritiesMaster = "us_securities"

// fundHolders is the funds-holding-a-security slice: its store (memory or
// MongoDB), use case, availability probe and handler. The securities
// master the holder lookup resolves identifiers through is ingested on its
// own, into the same store, and its sample is loaded on its own: a test
// may give holdings files and keep the sample master, or the other way
// round.
func fundHolders() wiring {
	stores, served := documents(
		func() ports.FundHoldingStore { return memory.NewFundHoldings() },
		DocumentStores.FundHoldings,
		func(s ports.FundHoldingStore, c *readcache.Cache) ports.FundHoldingStore {
			return fundholders.NewCache(s, c)
		})
	return wiring{
		name:    string(dataset.USFundHolders),
		alias:   "us-holdings",
		fills:   []dataset.ID{dataset.USFundHolders},
		sources: "SEC Form 13F data sets, 13F-HR full submissions, information-table XMLs in their EDGAR folders",
		sample:  sampleOf(ingest.LoadSampleHoldings),
		stores:  stores,
		served:  served,
		provide: []any{fundholders.New, probe((*fundholders.Service).Probe), handlers(httpadapter.FundHoldersHandlers)},
		ingester: ingester(func(s ports.FundHoldingStore) func(context.Context, *ingest.Files) (int, error) {
			return func(ctx context.Context, files *ingest.Files) (int, error) {
				return ingest.IngestUSHoldings(ctx, s, files)
			}
		}),
		parts: []wiring{{
			name:    SecuritiesMaster,
			alias:   "us-securities",
			sources: "SEC company_tickers.json plus a cusip,ticker CSV",
			sample:  sampleOf(ingest.LoadSampleMaster),
			ingester: ingester(func(s ports.FundHoldingStore) func(context.Context, *ingest.Files) (int, error) {
				return func(ctx context.Context, files *ingest.Files) (int, error) {
					return ingest.IngestUSSecurities(ctx, s, files)
				}
			}),
		}},
	}
}
