package bootstrap

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/adapters/nsebhavcopy"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

func init() {
	register(wiring{
		name:    string(dataset.IndiaPrices),
		alias:   "india-prices",
		fills:   []dataset.ID{dataset.IndiaPrices, dataset.IndiaExports},
		sources: "NSE capital-market bhavcopy: legacy cmDDMONYYYYbhav.csv, UDiFF BhavCopy_NSE_CM_…csv or full sec_bhavdata_full_DDMMYYYY.csv (ISINs from same-day bhavcopy rows or an EQUITY_L.csv in the run), zipped or not",
		sample:  sampleOf(LoadIndiaPricesSample),
		serve:   indiaPrices,
		stores:  indiaPriceStore,
		ingester: skippingIngester(func(s ports.IndiaPriceStore) func(context.Context, *IngestFiles) (Ingested, error) {
			return func(ctx context.Context, files *IngestFiles) (Ingested, error) {
				return ingestIndiaPrices(ctx, indiaprices.New(s, usecase.SystemClock), files)
			}
		}),
	})
}

// indiaPrices wires the India prices dataset: its store (memory, or
// MongoDB keeping what it reads in the read cache), use case, probe,
// handlers and export (india.prices).
func indiaPrices(cfg Config) fx.Option {
	return fx.Options(
		servedIndiaPriceStore(cfg),
		fx.Provide(
			indiaprices.New,
			probe((*indiaprices.Service).Probe),
			handlers(httpadapter.IndiaPricesHandlers),
			exportDataset((*indiaprices.Service).ExportDataset),
		),
	)
}

// servedIndiaPriceStore is the store the server reads: when documents are
// cached, the MongoDB store keeps what it reads of its index and year
// buckets in the shared ReadCache, since only it knows that layout.
func servedIndiaPriceStore(cfg Config) fx.Option {
	if !cachesDocuments(cfg) {
		return indiaPriceStore(cfg)
	}
	return fx.Provide(func(db *mongodrv.Database, c *readcache.Cache) ports.IndiaPriceStore {
		return mongo.NewCachedIndiaPrices(db, c)
	})
}

func indiaPriceStore(cfg Config) fx.Option {
	return documentStore(cfg,
		func() ports.IndiaPriceStore { return memory.NewIndiaPrices() },
		func(db *mongodrv.Database) ports.IndiaPriceStore { return mongo.NewIndiaPrices(db) })
}

// LoadIndiaPricesSample ingests the bundled zips of real NSE files,
// retrieved at sampledata.IndiaPricesRetrievedAt, and returns how many
// versions it added (none when they are held already).
func LoadIndiaPricesSample(ctx context.Context, prices *indiaprices.Service) (int, error) {
	res, err := ingestIndiaPricesSample(ctx, prices)
	return res.Records, err
}

func ingestIndiaPricesSample(ctx context.Context, prices *indiaprices.Service) (Ingested, error) {
	entries, err := fs.ReadDir(sampledata.IndiaPrices, sampledata.IndiaPricesDir)
	if err != nil {
		return Ingested{}, err
	}
	var files []nsebhavcopy.File
	for _, e := range entries {
		name := path.Join(sampledata.IndiaPricesDir, e.Name())
		data, err := fs.ReadFile(sampledata.IndiaPrices, name)
		if err != nil {
			return Ingested{}, err
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return Ingested{}, fmt.Errorf("%s: %w", name, err)
		}
		for _, entry := range zr.File {
			files = append(files, nsebhavcopy.File{Name: name + ":" + entry.Name, Open: entry.Open, RetrievedAt: sampledata.IndiaPricesRetrievedAt})
		}
	}
	return ingestNSE(ctx, prices, files)
}

// ingestIndiaPrices loads NSE files, or the bundled sample without files.
// A file's retrieval time is its modification time: its rows are known
// from then, or from their day's close when that is later (nse.KnownAt).
func ingestIndiaPrices(ctx context.Context, prices *indiaprices.Service, given *IngestFiles) (Ingested, error) {
	if given.none() {
		return ingestIndiaPricesSample(ctx, prices)
	}
	in, err := given.expand(csvEntry)
	if err != nil {
		return Ingested{}, err
	}
	defer in.close()
	var files []nsebhavcopy.File
	for _, f := range in.files {
		open := func() (io.ReadCloser, error) { return in.open(f.name) }
		files = append(files, nsebhavcopy.File{Name: f.name, Open: open, RetrievedAt: f.modTime.UTC()})
	}
	return ingestNSE(ctx, prices, files)
}

// ingestNSE reads every file before it writes anything, so a bad file
// leaves the store as it was.
func ingestNSE(ctx context.Context, prices *indiaprices.Service, files []nsebhavcopy.File) (Ingested, error) {
	set, err := nsebhavcopy.Read(files)
	if err != nil {
		return Ingested{}, err
	}
	res, err := prices.Ingest(ctx, set.Rows, set.Listings)
	out := Ingested{Read: res.Added + res.Unchanged, Records: res.Added}
	var notes []string
	if res.NoISIN > 0 {
		notes = append(notes, fmt.Sprintf("%d full-bhavcopy rows without an ISIN (no same-day bhavcopy row or EQUITY_L entry for their symbol)", res.NoISIN))
	}
	out.Skipped = strings.Join(notes, "; ")
	return out, err
}
