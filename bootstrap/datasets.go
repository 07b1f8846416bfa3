package bootstrap

import (
	"context"
	"fmt"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app"
)

// documentStore provides the port P of a dataset: from newMemory when no
// MongoDB is configured, otherwise from the MongoDB Store, which implements
// every document port.
func documentStore[P any](cfg Config, newMemory func() P) fx.Option {
	if cfg.MongoURI == "" {
		return fx.Provide(newMemory)
	}
	return fx.Provide(func(s *mongo.Store) P { return any(s).(P) })
}

// documentCacheSize is how many reference records an instance keeps in
// memory in front of MongoDB, each for Config.MongoRefresh.
const documentCacheSize = 10_000

// documentCache puts a read-through cache in front of a dataset's MongoDB
// store: reference data changes only on ingest, and a round trip per request
// would make the document store the hot path. Memory stores need none.
func documentCache[P any](cfg Config, wrap func(P, app.Clock) P) fx.Option {
	if cfg.MongoURI == "" {
		return fx.Options()
	}
	return fx.Decorate(wrap)
}

// sampleOnStart loads a dataset's bundled sample through its dependency T
// at start, when the configuration asks for sample data. Start hooks run in
// registration order and the listener opens last, so no request sees an
// empty store.
func sampleOnStart[T any](cfg Config, name string, load func(context.Context, T) (int, error)) fx.Option {
	if !cfg.SampleData {
		return fx.Options()
	}
	return fx.Invoke(func(lc fx.Lifecycle, dep T, log *zap.Logger) {
		lc.Append(fx.StartHook(func(ctx context.Context) error {
			n, err := load(ctx, dep)
			if err != nil {
				return fmt.Errorf("load %s sample: %w", name, err)
			}
			log.Info("sample data loaded", zap.String("dataset", name), zap.Int("records", n))
			return nil
		}))
	})
}
