// Package durable wires Quarry's durable storage backends into the
// service: PostgreSQL (the platform stores, the sources' leases, the
// shared search), MongoDB, and the data directory (the platform in SQLite,
// the documents in an embedded FerretDB). Package bootstrap wires memory
// storage alone, so that what serves on memory (quarrytest, a binary
// built with the quarry_memory tag) compiles none of these drivers;
// importing this package, for its side effect, installs the backends:
//
//	import _ "github.com/quarrydata/quarry/bootstrap/durable"
package durable

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"
	"go.uber.org/zap/zapcore"

	"github.com/quarrydata/quarry/adapters/ferretdb"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/adapters/sqlite"
	"github.com/quarrydata/quarry/bootstrap"
)

func init() { bootstrap.UseStorage(backends{}) }

// backends is the bootstrap.Storage of this package.
type backends struct{}

// Platform provides the platform stores on PostgreSQL when a URL is set,
// else in the data directory's SQLite file.
func (backends) Platform(cfg bootstrap.Config) fx.Option {
	if cfg.PostgresURL == "" {
		return fx.Options(
			fx.Provide(func(dir bootstrap.DataDir) sqlite.Config {
				return sqlite.Config{Path: dir.File(bootstrap.DataDirPlatform)}
			}),
			sqlite.Module,
			fx.Provide(bootstrap.Readiness("sqlite", func(s *sqlite.Store) func(context.Context) error { return s.Ping })),
		)
	}
	return fx.Options(
		fx.Supply(postgres.Config{URL: cfg.PostgresURL, Timeout: cfg.StoreTimeout}),
		postgres.Module,
		migrateOnStart(cfg),
		fx.Provide(bootstrap.Readiness("postgres", func(p *pgxpool.Pool) func(context.Context) error {
			return func(ctx context.Context) error { return postgres.Ready(ctx, p) }
		})),
	)
}

// SyncLeases provides PostgreSQL's leases (its module's) to `quarry sync`.
func (backends) SyncLeases(cfg bootstrap.Config) fx.Option {
	return fx.Options(fx.Supply(postgres.Config{URL: cfg.PostgresURL}), postgres.Module, migrateOnStart(cfg))
}

// migrateOnStart applies the embedded migrations before serving when asked.
func migrateOnStart(cfg bootstrap.Config) fx.Option {
	if !cfg.MigrateOnStart {
		return fx.Options()
	}
	return fx.Invoke(func(lc fx.Lifecycle, pool *pgxpool.Pool) {
		lc.Append(fx.StartHook(func(ctx context.Context) error { return postgres.Migrate(ctx, pool) }))
	})
}

// Documents connects to the MongoDB-wire database and provides the
// datasets' stores on it.
func (backends) Documents(cfg bootstrap.Config) fx.Option {
	return fx.Options(
		mongoConfig(cfg),
		mongo.Module,
		fx.Provide(
			func(db *mongodrv.Database) bootstrap.DocumentStores { return documents{db} },
			bootstrap.Readiness("mongodb", func(c *mongodrv.Client) func(context.Context) error {
				return func(ctx context.Context) error { return c.Ping(ctx, nil) }
			})),
	)
}

// mongoConfig says which MongoDB-wire database the documents use: the
// server at QUARRY_MONGO_URI, else FerretDB embedded over SQLite files in
// the data directory.
func mongoConfig(cfg bootstrap.Config) fx.Option {
	if cfg.MongoURI != "" {
		return fx.Supply(mongo.Config{URI: cfg.MongoURI, Database: cfg.MongoDB, Timeout: cfg.MongoTimeout})
	}
	return fx.Provide(
		fx.Annotate(startDocuments, fx.As(fx.Self()), fx.As(new(bootstrap.EmbeddedDocuments))),
		func(s *ferretdb.Server) mongo.Config { return mongo.Config{URI: s.URI(), Database: cfg.MongoDB} },
	)
}

// startDocuments starts the embedded FerretDB before the MongoDB client
// connects to it and stops it after the client has disconnected: it is
// built first, so its stop hook runs last.
func startDocuments(lc fx.Lifecycle, dir bootstrap.DataDir, log *zap.Logger) (*ferretdb.Server, error) {
	// FerretDB logs every connection at info and every refused command at
	// warn (an absent collection, endSessions); its errors are what an
	// operator needs from it.
	quiet := log.Named("ferretdb").WithOptions(zap.IncreaseLevel(zapcore.ErrorLevel))
	s, err := ferretdb.Start(dir.File(bootstrap.DataDirDocuments), slog.New(zapslog.NewHandler(quiet.Core())))
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(s.Close))
	return s, nil
}

// SharedSearch connects the pool of the database that keeps the shared
// search indexes, apart from the platform's own pool (`quarry ingest` has
// no platform, and search's long queries do not queue the debits' hot
// path), closes it on stop and migrates it at start with
// QUARRY_AUTO_MIGRATE.
func (backends) SharedSearch(cfg bootstrap.Config) fx.Option {
	return fx.Provide(func(lc fx.Lifecycle) (bootstrap.SharedSearch, error) {
		pool, err := postgres.ConnectWithin(context.Background(), cfg.PostgresURL, cfg.StoreTimeout)
		if err != nil {
			return bootstrap.SharedSearch{}, err
		}
		lc.Append(fx.StopHook(pool.Close))
		if cfg.MigrateOnStart {
			lc.Append(fx.StartHook(func(ctx context.Context) error { return postgres.Migrate(ctx, pool) }))
		}
		return bootstrap.SharedSearch{
			Sections:        postgres.NewSectionSearch(pool),
			Judgments:       postgres.NewJudgmentSearch(pool),
			SectionsWriter:  postgres.NewSearchWriter(pool, "sections"),
			JudgmentsWriter: postgres.NewSearchWriter(pool, "judgments"),
		}, nil
	})
}
