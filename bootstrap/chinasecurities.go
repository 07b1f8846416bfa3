package bootstrap

import (
	"context"
	"errors"
	"path"
	"strings"

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
			return fx.Options(securityStore(cfg), ingester("china-securities", func(s ports.SecurityStore) func(context.Context, *IngestFiles) (int, error) {
				return func(ctx context.Context, files *IngestFiles) (int, error) {
					return ingestListings(ctx, s, files)
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

// csvEntry is the rule for an archive of CSV files (listings, bars): CSV
// entries are read, anything else refuses the archive.
func csvEntry(entry string) (bool, error) {
	if strings.EqualFold(path.Ext(entry), ".csv") {
		return true, nil
	}
	return false, errors.New("not a CSV file")
}

// ingestListings loads listing CSVs one file at a time, each written as
// one batch before the next is opened; the first bad file stops the run
// after the files before it are written.
func ingestListings(ctx context.Context, s ports.SecurityStore, files *IngestFiles) (int, error) {
	if files.none() {
		return LoadSample(ctx, s)
	}
	in, err := files.expand(csvEntry)
	if err != nil {
		return 0, err
	}
	defer in.close()
	total := 0
	for _, name := range in.names() {
		n, err := ingestListingFile(ctx, s, in, name)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

func ingestListingFile(ctx context.Context, s ports.SecurityStore, in *inputs, name string) (int, error) {
	f, err := in.openQuiet(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	secs, err := chinalistings.Parse(name, f)
	if err != nil {
		return 0, err
	}
	if err := s.UpsertSecurities(ctx, secs); err != nil {
		return 0, err
	}
	in.progress.done(name, len(secs))
	return len(secs), nil
}
