package bootstrap

import (
	"context"
	"io"
	"io/fs"
	"path"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/ashareprices"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

func init() {
	register(wiring{
		name:    string(dataset.ChinaPrices),
		alias:   "china-prices",
		fills:   []dataset.ID{dataset.ChinaPrices},
		sources: "A-share daily bars: Tushare daily CSV (ts_code,trade_date,...,vol,amount) or AKShare stock_zh_a_hist CSV named after its listing (sh600519.csv)",
		sample:  sampleOf(LoadChinaPricesSample),
		serve:   chinaPrices,
		stores:  chinaPriceStore,
		ingester: skippingIngester(func(s ports.ChinaPriceStore) func(context.Context, *IngestFiles) (Ingested, error) {
			return func(ctx context.Context, files *IngestFiles) (Ingested, error) {
				return ingestChinaPrices(ctx, chinaprices.New(s, usecase.SystemClock), files)
			}
		}),
	})
}

// chinaPrices wires the China A-share daily prices dataset: its store
// (memory, or MongoDB behind a read cache of each listing's versions), use
// case, probe and handler.
func chinaPrices(cfg Config) fx.Option {
	return fx.Options(
		chinaPriceStore(cfg),
		documentCache(cfg, func(s ports.ChinaPriceStore, c *readcache.Cache) ports.ChinaPriceStore {
			return chinaprices.NewCache(s, c)
		}),
		fx.Provide(
			chinaprices.New,
			probe((*chinaprices.Service).Probe),
			handlers(httpadapter.ChinaPricesHandlers),
		),
	)
}

func chinaPriceStore(cfg Config) fx.Option {
	return documentStore(cfg,
		func() ports.ChinaPriceStore { return memory.NewChinaPrices() },
		func(db *mongodrv.Database) ports.ChinaPriceStore { return mongo.NewChinaPrices(db) })
}

// LoadChinaPricesSample ingests the bundled bars, retrieved at
// sampledata.ChinaPricesRetrievedAt, and returns how many versions it
// added (none when they are held already).
func LoadChinaPricesSample(ctx context.Context, prices *chinaprices.Service) (int, error) {
	res, err := ingestChinaPricesSample(ctx, prices)
	return res.Records, err
}

func ingestChinaPricesSample(ctx context.Context, prices *chinaprices.Service) (Ingested, error) {
	entries, err := fs.ReadDir(sampledata.ChinaPrices, sampledata.ChinaPricesDir)
	if err != nil {
		return Ingested{}, err
	}
	var files []ashareprices.File
	for _, e := range entries {
		name := path.Join(sampledata.ChinaPricesDir, e.Name())
		open := func() (io.ReadCloser, error) { return sampledata.ChinaPrices.Open(name) }
		files = append(files, ashareprices.File{Name: name, Open: open, RetrievedAt: sampledata.ChinaPricesRetrievedAt})
	}
	return ingestBars(ctx, prices, files)
}

// ingestChinaPrices loads bar files, or the bundled sample without files.
// A file's retrieval time is its modification time: when it was
// downloaded. Its bars are known from then, or from their day's close when
// that is later (ashare.KnownAt).
func ingestChinaPrices(ctx context.Context, prices *chinaprices.Service, given *IngestFiles) (Ingested, error) {
	if given.none() {
		return ingestChinaPricesSample(ctx, prices)
	}
	in, err := given.expand(csvEntry)
	if err != nil {
		return Ingested{}, err
	}
	defer in.close()
	var files []ashareprices.File
	for _, f := range in.files {
		open := func() (io.ReadCloser, error) { return in.open(f.name) }
		files = append(files, ashareprices.File{Name: f.name, Open: open, RetrievedAt: f.modTime.UTC()})
	}
	return ingestBars(ctx, prices, files)
}

// ingestBars reads every file before it writes anything, so a bad file
// leaves the store as it was.
func ingestBars(ctx context.Context, prices *chinaprices.Service, files []ashareprices.File) (Ingested, error) {
	bars, err := ashareprices.Read(files)
	if err != nil {
		return Ingested{}, err
	}
	res, err := prices.Ingest(ctx, bars)
	return Ingested{Read: len(bars), Records: res.Added}, err
}
