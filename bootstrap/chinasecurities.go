package bootstrap

import (
	"context"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/chinalistings"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

func init() {
	register(wiring{
		name:    "china-securities",
		sources: "exchange-listing CSV: exchange,code,company_name,listing_date,delisting_date",
		serve:   chinaSecurities,
		ingest: func(cfg Config) fx.Option {
			return fx.Options(securityStore(cfg), ingester("china-securities", func(s ports.SecurityStore) func(context.Context, app.OpenFile, []string) (int, error) {
				return func(ctx context.Context, open app.OpenFile, files []string) (int, error) {
					return ingestListings(ctx, s, open, files)
				}
			}))
		},
	})
}

// chinaSecurities wires the China A-share securities dataset: its store
// (memory, or MongoDB behind a read cache), use case, probe, handler and
// the bundled listings when asked.
func chinaSecurities(cfg Config) fx.Option {
	return fx.Options(
		securityStore(cfg),
		documentCache(cfg, func(s ports.SecurityStore, c *app.ReadCache) ports.SecurityStore {
			return app.NewSecurityCache(s, c)
		}),
		fx.Provide(
			app.NewChina,
			probe((*app.China).Probe),
			handlers(httpadapter.ChinaHandlers),
		),
		sampleOnStart(cfg, "china_securities", LoadSample),
	)
}

func securityStore(cfg Config) fx.Option {
	return documentStore(cfg,
		func() ports.SecurityStore { return memory.NewSecurities() },
		func(db *mongodrv.Database) ports.SecurityStore { return mongo.NewSecurities(db) })
}

// LoadSample upserts the bundled China listings into s and returns how many.
func LoadSample(ctx context.Context, s ports.SecurityStore) (int, error) {
	f, err := sampledata.Files.Open(sampledata.ChinaSecurities)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	secs, err := chinalistings.Parse(sampledata.ChinaSecurities, f)
	if err != nil {
		return 0, err
	}
	return len(secs), s.UpsertSecurities(ctx, secs)
}

func ingestListings(ctx context.Context, s ports.SecurityStore, open app.OpenFile, files []string) (int, error) {
	if len(files) == 0 {
		return LoadSample(ctx, s)
	}
	total := 0
	for _, name := range files {
		n, err := ingestListingFile(ctx, s, open, name)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

func ingestListingFile(ctx context.Context, s ports.SecurityStore, open app.OpenFile, name string) (int, error) {
	f, err := open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	secs, err := chinalistings.Parse(name, f)
	if err != nil {
		return 0, err
	}
	return len(secs), s.UpsertSecurities(ctx, secs)
}
