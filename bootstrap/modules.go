package bootstrap

import (
	"context"
	"fmt"

	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"
	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/ports"
)

// Options returns the fx options of the whole service for cfg: the storage
// modules it names, the use cases and the HTTP server.
func Options(cfg Config, log *zap.Logger) fx.Option {
	if err := refuseVault(cfg); err != nil {
		return fx.Error(err)
	}
	if err := checkStorage(cfg); err != nil {
		return fx.Error(err)
	}
	return fx.Options(
		fx.Supply(cfg, log),
		fx.WithLogger(func() fxevent.Logger { return &fxevent.ZapLogger{Logger: log.Named("fx")} }),
		dataDirectory(cfg),
		indexDirectory(cfg),
		searchDatabase(cfg),
		platformStores(cfg),
		keyCache,
		documentDatabase(cfg),
		readCache(cfg),
		useCases,
		sweepSessions,
		// Sample data loads before the server listens, so no request sees
		// an empty store.
		servedDatasets(cfg),
		indexDocumentIDs(cfg, cfg.MongoRefresh),
		fx.Supply(httpadapter.Config{Addr: cfg.HTTPAddr, Listener: cfg.Listener}, storage(cfg)),
		httpadapter.Module,
		httpadapter.Run,
		fx.Supply(httpadapter.ProfileConfig{Addr: cfg.PprofAddr}),
		httpadapter.RunProfiler,
	)
}

// MetricsListener serves GET /metrics on cfg.MetricsAddr, apart from the API
// (none when it is empty). Serve adds it to Options; so does an embedding
// program that wants the exposition, with an address of its own.
func MetricsListener(cfg Config) fx.Option {
	return fx.Options(fx.Supply(httpadapter.MetricsConfig{Addr: cfg.MetricsAddr}), httpadapter.RunMetrics)
}

// refuseVault keeps the vault's connection and key out of the serving
// process: nothing in its graph needs them (wiring_test.go proves no
// constructor takes a ports.Vault), and refusing them, rather than
// ignoring them, tells the operator that the environment of `quarry serve`
// holds a secret it must not.
func refuseVault(cfg Config) error {
	for _, set := range []struct {
		name string
		set  bool
	}{{EnvVaultURL, cfg.VaultPostgresURL != ""}, {EnvVaultKey, len(cfg.VaultKey) > 0}} {
		if set.set {
			return fmt.Errorf("%s is set: the serving process must never hold the PII vault's connection or key; unset it for quarry serve (quarry vault and quarry ingest use it)", set.name)
		}
	}
	return nil
}

// platformStores picks PostgreSQL when a URL is set, else SQLite in the
// data directory when one is named (both wired by the durable Storage),
// memory otherwise.
func platformStores(cfg Config) fx.Option {
	if cfg.PostgresURL != "" || cfg.EmbeddedPlatform() {
		return durableOption(EnvPostgresURL+" or "+EnvDataDir, func(s Storage) fx.Option { return s.Platform(cfg) })
	}
	return fx.Provide(
		fx.Annotate(memory.NewPlatform,
			fx.As(new(ports.AccountStore)), fx.As(new(ports.SessionStore)),
			fx.As(new(ports.KeyStore)), fx.As(new(ports.Ledger)), fx.As(new(ports.KeyWatch)),
			fx.As(new(ports.IdempotencyStore))),
		fx.Annotate(memory.NewLimits, fx.As(new(ports.RateBuckets)), fx.As(new(ports.SigninHistory))),
	)
}

// keyCache puts an platform.KeyCache in front of the key store, so requests are
// authenticated from memory, and keeps it with the store's KeyWatch from
// start to stop. The watch stops before the stores close: its hook is
// registered after theirs.
var keyCache = fx.Decorate(func(lc fx.Lifecycle, store ports.KeyStore, watch ports.KeyWatch, now usecase.Clock) (ports.KeyStore, error) {
	cache, err := platform.NewKeyCache(store, now)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				watch.WatchKeys(ctx, cache)
			}()
			return nil
		},
		OnStop: func(context.Context) error {
			cancel()
			<-done
			return nil
		},
	})
	return cache, nil
})

// documentDatabase wires the document database when a MongoDB URI or a
// data directory is set; each dataset then keeps its documents there
// rather than in memory.
func documentDatabase(cfg Config) fx.Option {
	if !cfg.OnMongo() {
		return fx.Options()
	}
	what := EnvMongoURI
	if cfg.MongoURI == "" {
		what = EnvDataDir
	}
	return durableOption(what, func(s Storage) fx.Option { return s.Documents(cfg) })
}

// servedDatasets wires every slice into the service, as its module, with its
// Ingester, and loads the source files cfg names at start. The files load
// first, so a dataset's own start hooks (the US search index is built
// from the stored sections) see them.
func servedDatasets(cfg Config) fx.Option {
	if err := checkDatasetNames(cfg); err != nil {
		return fx.Error(err)
	}
	opts := []fx.Option{filesOnStart(cfg)}
	for _, w := range sliceModules {
		opts = append(opts, w.module(cfg))
	}
	// The sources' sync reads no store of a slice's own: it loads what it
	// fetches through the slices' ingesters.
	opts = append(opts, syncService(cfg))
	return fx.Options(opts...)
}

// Readiness turns a dependency's ping into a member of the readiness group.
func Readiness[T any](name string, check func(T) func(context.Context) error) any {
	return fx.Annotate(func(dep T) httpadapter.Readiness {
		return httpadapter.Readiness{Name: name, Check: check(dep)}
	}, fx.ResultTags(`group:"readiness"`))
}

var useCases = fx.Module("app",
	fx.Provide(
		func(cfg Config) usecase.Clock {
			if cfg.Clock != nil {
				return cfg.Clock
			}
			return usecase.SystemClock
		},
		func(cfg Config) platform.AccountsConfig {
			return platform.AccountsConfig{InitialCredits: cfg.InitialCredits, SessionTTL: cfg.SessionTTL, SignupsPerHour: cfg.SignupsPerHour}
		},
		func(cfg Config, buckets ports.RateBuckets, now usecase.Clock) *platform.RateLimiter {
			return platform.NewRateLimiter(buckets, cfg.RateLimitRPS, cfg.RateLimitBurst, now)
		},
		func(cfg Config, k ports.KeyStore, l ports.Ledger, now usecase.Clock) *platform.Metering {
			return platform.NewMetering(k, l, now).WithStoreTimeout(cfg.StoreTimeout)
		},
		func(cfg Config) httpadapter.StoreTimeout { return httpadapter.StoreTimeout(cfg.StoreTimeout) },
		platform.NewAccounts, platform.NewKeys, platform.NewCredits, platform.NewIdempotency,
		fx.Annotate(func(probes []usecase.DatasetProbe) *usecase.Availability {
			return usecase.NewAvailability(probes, remedies()...)
		},
			fx.ParamTags(`group:"probes"`)),
	),
)
