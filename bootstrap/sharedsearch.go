package bootstrap

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/ports"
)

// searchDB is the pool of the database that keeps the shared search
// indexes (QUARRY_SEARCH=postgres), apart from the platform's own pool:
// `quarry ingest` has no platform, and search's long queries do not queue
// the debits' hot path.
type searchDB struct {
	pool *pgxpool.Pool
}

// searchWriter makes a Refresh of an index the one writer of it. A nil
// lock is an index of the process's own (bleve), which Refresh writes
// directly.
type searchWriter struct {
	lock *postgres.SearchWriter
}

// searchWriters are the writers of the section and judgment indexes.
type searchWriters struct {
	sections, judgments searchWriter
}

// refresh runs refresh as the index's one writer. On the shared index it
// holds the index's lock, waiting for it when wait, else doing nothing
// while another process writes; when another process saved the checkpoint
// since, forget is called under the lock first, so refresh goes on from
// the checkpoint the last writer saved and reads only what no node
// indexed.
func (w searchWriter) refresh(ctx context.Context, wait bool, forget func(), refresh func(context.Context) (int, error)) (int, error) {
	if w.lock == nil {
		return refresh(ctx)
	}
	n := 0
	_, err := w.lock.Hold(ctx, wait, func(ctx context.Context, moved bool) error {
		if moved {
			forget()
		}
		var err error
		n, err = refresh(ctx)
		return err
	})
	return n, err
}

// sharedSearchPlace names the shared index where a run reports what it
// indexed, as it names an index directory.
const sharedSearchPlace = "the shared PostgreSQL index"

// searchDatabase provides, with QUARRY_SEARCH=postgres, the search pool
// (closed on stop, migrated at start with QUARRY_AUTO_MIGRATE) and the
// indexes' writer locks; otherwise writers without locks.
func searchDatabase(cfg Config) fx.Option {
	if !cfg.sharedSearch() {
		return fx.Supply(searchWriters{})
	}
	return fx.Provide(
		func(lc fx.Lifecycle) (searchDB, error) {
			pool, err := postgres.ConnectWithin(context.Background(), cfg.PostgresURL, cfg.StoreTimeout)
			if err != nil {
				return searchDB{}, err
			}
			lc.Append(fx.StopHook(pool.Close))
			if cfg.MigrateOnStart {
				lc.Append(fx.StartHook(func(ctx context.Context) error { return postgres.Migrate(ctx, pool) }))
			}
			return searchDB{pool: pool}, nil
		},
		func(db searchDB) searchWriters {
			return searchWriters{
				sections:  searchWriter{postgres.NewSearchWriter(db.pool, "sections")},
				judgments: searchWriter{postgres.NewSearchWriter(db.pool, "judgments")},
			}
		},
	)
}

// sharedIndex provides the shared index newIndex makes on the search pool
// as port.
func sharedIndex[X any](newIndex func(*pgxpool.Pool) X, port any) fx.Option {
	return fx.Provide(fx.Annotate(func(db searchDB) X { return newIndex(db.pool) }, fx.As(port)))
}

var (
	_ ports.SectionIndex  = (*postgres.SectionSearch)(nil)
	_ ports.JudgmentIndex = (*postgres.JudgmentSearch)(nil)
)
