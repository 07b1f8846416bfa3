package bootstrap

import (
	"context"

	"go.uber.org/fx"
)

// searchWriter makes a Refresh of an index the one writer of it. A nil
// lock is an index of the process's own (bleve), which Refresh writes
// directly.
type searchWriter struct {
	lock WriterLock
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

// searchDatabase provides, with QUARRY_SEARCH=postgres, the shared
// search (its pool closed on stop, migrated at start with
// QUARRY_AUTO_MIGRATE) and the indexes' writer locks; otherwise writers
// without locks.
func searchDatabase(cfg Config) fx.Option {
	if !cfg.sharedSearch() {
		return fx.Supply(searchWriters{})
	}
	return fx.Options(
		durableOption(EnvSearch+"="+SearchPostgres, func(s Storage) fx.Option { return s.SharedSearch(cfg) }),
		fx.Provide(func(s SharedSearch) searchWriters {
			return searchWriters{sections: searchWriter{s.SectionsWriter}, judgments: searchWriter{s.JudgmentsWriter}}
		}),
	)
}
