package bootstrap

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/fx"

	"github.com/quarrydata/quarry/ingest"
)

// searchRefresh brings a dataset's search index kept on disk up to date
// with its store, by the paged and checkpointed Refresh the server runs.
// `quarry ingest` and `quarry sync` run it after each load, so the first
// `quarry serve` finds a whole checkpoint and resumes the index instead of
// reading every document before /readyz (B161).
type searchRefresh struct {
	// Dataset is the ingest name of the dataset whose store feeds it.
	Dataset string
	// Holds names what the index holds, in the plural: sections.
	Holds string
	// Dir is the directory the index is kept in.
	Dir     string
	Refresh func(context.Context) (int, error)
}

// searched puts the Refresh of a dataset's use case S, whose index is kept
// in the index directory or shared in PostgreSQL, in the "searches"
// group; on the shared index it runs as the index's writer (writer),
// waiting for a node writing it.
func searched[S any](name, holds string, writer func(searchWriters) searchWriter, forget func(S), refresh func(S, context.Context) (int, error)) fx.Option {
	return fx.Provide(fx.Annotate(func(s S, dir indexDir, ws searchWriters) searchRefresh {
		return searchRefresh{Dataset: name, Holds: holds, Dir: dir.path, Refresh: func(ctx context.Context) (int, error) {
			return writer(ws).refresh(ctx, true, func() { forget(s) }, func(ctx context.Context) (int, error) { return refresh(s, ctx) })
		}}
	}, fx.ResultTags(`group:"searches"`)))
}

// after returns ing indexing what it wrote once it has loaded it. A load
// that fails leaves the index as it was: the next run or the server's
// catching up indexes what the load wrote before failing.
func (s searchRefresh) after(ing Ingester) Ingester {
	load := ing.Load
	ing.Load = func(ctx context.Context, files *ingest.Files) (ingest.Outcome, error) {
		got, err := load(ctx, files)
		if err != nil {
			return got, err
		}
		n, err := s.Refresh(ctx)
		if err != nil {
			return got, fmt.Errorf("every record written, but the search index in %s not brought up to date (quarry serve does it at start): %w", s.Dir, err)
		}
		got.Indexed = fmt.Sprintf("%d %s indexed for search in %s", n, s.Holds, s.Dir)
		return got, nil
	}
	return ing
}

// ingestSearch wires, for `quarry ingest` and `quarry sync`, the index
// directory and the searchRefresh of every dataset that feeds a search
// index, when the indexes are kept on disk: in the data directory, whose
// lock the run holds, or in QUARRY_INDEX_DIR unless a running server holds
// that, since it indexes what the run writes itself, within
// QUARRY_MONGO_REFRESH. In memory, on MongoDB without QUARRY_INDEX_DIR,
// there is nothing to keep.
func ingestSearch(cfg Config) fx.Option {
	if cfg.sharedSearch() {
		return fx.Options(append(datasetSearches(cfg), fx.Supply(indexDir{path: sharedSearchPlace}))...)
	}
	if cfg.indexDir() == "" || (cfg.IndexDir != "" && dirInUse(EnvIndexDir, cfg.IndexDir)) {
		return fx.Options()
	}
	return fx.Options(append(datasetSearches(cfg), indexDirectory(cfg))...)
}

// datasetSearches are the search options of every dataset that feeds a
// search index.
func datasetSearches(cfg Config) []fx.Option {
	var opts []fx.Option
	for _, d := range datasets() {
		if d.search != nil {
			opts = append(opts, d.search(d.name, cfg))
		}
	}
	return opts
}

// dirInUse says whether another process holds the lock of the directory
// path, named by the variable env. Any other failure to lock it is left
// to the run's own lock, which reports it.
func dirInUse(env, path string) bool {
	unlock, err := lockDir(env, path, "")
	if err != nil {
		return errors.Is(err, errDirInUse)
	}
	_ = unlock()
	return false
}

// byName returns the ingesters by dataset, each of a dataset whose search
// index the run keeps on disk indexing what it wrote after each load.
func (g ingesterGroup) byName() map[string]Ingester {
	out := make(map[string]Ingester, len(g.Ingesters))
	for _, ing := range g.Ingesters {
		out[ing.Dataset] = ing
	}
	for _, s := range g.Searches {
		if ing, ok := out[s.Dataset]; ok {
			out[s.Dataset] = s.after(ing)
		}
	}
	return out
}
