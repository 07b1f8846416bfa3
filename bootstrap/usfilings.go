package bootstrap

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/quarrydata/quarry/ingest"

	"go.uber.org/fx"
	"go.uber.org/zap"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/adapters/edgarsource"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// usFilings is the US filing index and filing-text search slice: the
// filing and section stores (memory, or MongoDB with the sections behind a
// read cache), the bleve index, the use case, its probes and handlers, and
// a start hook that loads the sample when asked and then builds the search
// index from the stored sections.
func usFilings() wiring {
	return wiring{
		name:    string(dataset.USFilingIndexes),
		alias:   "us-filings",
		fills:   []dataset.ID{dataset.USFilingIndexes, dataset.USSearch, dataset.AskRetrieval},
		sources: "EDGAR filing folders: index.json, the filing's files and the company's submissions JSON",
		stores:  usFilingStores,
		served: func(cfg Config) fx.Option {
			return fx.Options(usFilingStores(cfg), documentCache(cfg, func(s ports.SectionStore, c *readcache.Cache) ports.SectionStore {
				return usfilings.NewSectionCache(s, c)
			}))
		},
		provide: []any{
			usfilings.New,
			probe((*usfilings.Service).IndexProbe),
			probe((*usfilings.Service).SearchProbe),
			handlers(httpadapter.USFilingHandlers),
		},
		extra: func(cfg Config) fx.Option {
			return fx.Options(
				sectionIndex(cfg),
				fx.Invoke(func(lc fx.Lifecycle, f *usfilings.Service, w searchWriters, log *zap.Logger) {
					lc.Append(fx.StartHook(func(ctx context.Context) error { return startUSFilings(ctx, cfg, f, w.sections, log) }))
					// A schedule writes sections in this process; on memory
					// too, the search index follows them.
					if cfg.OnMongo() || slices.Contains(cfg.Sync.Sources, edgarsource.Name) {
						refreshSearch(lc, cfg.MongoRefresh, f, w.sections, log)
					}
				}))
		},
		search: func(name string, cfg Config) fx.Option {
			return fx.Options(sectionIndex(cfg), fx.Provide(usfilings.New), searched(name, "sections", func(w searchWriters) searchWriter { return w.sections }, (*usfilings.Service).Forget, (*usfilings.Service).Refresh))
		},
		// Filing folders are hashed file by file as they are read; they
		// draw no bar.
		ingester: ingester(func(s ports.FilingStore) func(context.Context, *ingest.Files) (int, error) {
			return func(ctx context.Context, files *ingest.Files) (int, error) {
				return ingest.IngestUSFilings(ctx, s, files)
			}
		}),
	}
}

// sectionIndex provides the search index of the 10-K sections: the one
// every node shares in PostgreSQL, or bleve's in memory or kept on disk as
// "sections".
func sectionIndex(cfg Config) fx.Option {
	if cfg.sharedSearch() {
		return fx.Provide(func(s SharedSearch) ports.SectionIndex { return s.Sections })
	}
	return searchIndex(cfg, "sections", bleveadapter.New, bleveadapter.Open, new(ports.SectionIndex))
}

// refreshSearch looks every period for sections that `quarry ingest` wrote
// to the shared store since it last looked, and indexes those in the
// background, from start (a first look at once) until stop. The
// period is the one the document caches keep, so newly ingested data of
// every kind is served within it. On the shared index a node looks only
// when no other node is writing it (w).
func refreshSearch(lc fx.Lifecycle, every time.Duration, f *usfilings.Service, w searchWriter, log *zap.Logger) {
	catchingUp(lc, every, func(ctx context.Context) {
		n, err := w.refresh(ctx, false, f.Forget, f.Refresh)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("US filing search index not refreshed", zap.Error(err))
		case n > 0:
			log.Info("US filing sections indexed", zap.Int("sections", n))
		}
	})
}

func usFilingStores(cfg Config) fx.Option {
	as := []fx.Annotation{fx.As(new(ports.FilingStore)), fx.As(new(ports.SectionStore))}
	if !cfg.OnMongo() {
		return fx.Provide(fx.Annotate(memory.NewFilings, as...))
	}
	return fx.Provide(fx.Annotate(DocumentStores.Filings, as...))
}

func startUSFilings(ctx context.Context, cfg Config, f *usfilings.Service, w searchWriter, log *zap.Logger) error {
	if cfg.samples(string(dataset.USFilingIndexes)) {
		filings, sections, err := ingest.LoadUSFilingsSample()
		if err != nil {
			return fmt.Errorf("load US filings sample: %w", err)
		}
		if err := f.Store(ctx, filings, sections); err != nil {
			return fmt.Errorf("store US filings sample: %w", err)
		}
	}
	resumed, err := f.Resume(ctx)
	if err != nil {
		return fmt.Errorf("resume the US filing search index: %w", err)
	}
	n := 0
	if !resumed {
		// A first start builds the index before serving, so search never
		// answers from part of it as though from all of it; on the
		// shared index, it waits for a node building it and then finds
		// it built.
		if n, err = w.refresh(ctx, true, f.Forget, f.Refresh); err != nil {
			return fmt.Errorf("build the US filing search index: %w", err)
		}
	}
	held, err := f.Indexed(ctx)
	if err != nil {
		return fmt.Errorf("count the US filing search index: %w", err)
	}
	log.Info("US filing search index ready", zap.Int64("sections", held), zap.Int("newly_indexed", n), zap.Bool("resumed", resumed))
	return nil
}
