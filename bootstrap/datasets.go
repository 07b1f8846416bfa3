package bootstrap

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/ingest"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
)

// Ingester loads one dataset's source files, or its bundled sample when
// given none, into the dataset's store, and says how many records it wrote
// and what it left out (when it fails, how many it wrote before the
// failure). It reads files one at a time through files, which shows the
// progress of the run.
type Ingester struct {
	Dataset string
	Load    func(ctx context.Context, files *ingest.Files) (ingest.Outcome, error)
}

// ingester contributes an Ingester to the "ingesters" group, built by
// newLoad from the dataset's dependencies (its store, typically), for a
// dataset that takes every record of its files.
func ingester[D any](newLoad func(D) func(context.Context, *ingest.Files) (int, error)) func(name string) fx.Option {
	return skippingIngester(func(dep D) func(context.Context, *ingest.Files) (ingest.Outcome, error) {
		load := newLoad(dep)
		return func(ctx context.Context, files *ingest.Files) (ingest.Outcome, error) {
			n, err := load(ctx, files)
			return ingest.Outcome{Read: n, Records: n}, err
		}
	})
}

// skippingIngester is ingester for a dataset whose files may hold records
// it skips and counts.
func skippingIngester[D any](newLoad func(D) func(context.Context, *ingest.Files) (ingest.Outcome, error)) func(name string) fx.Option {
	return func(name string) fx.Option {
		return fx.Provide(fx.Annotate(func(dep D) Ingester {
			return Ingester{Dataset: name, Load: newLoad(dep)}
		}, fx.ResultTags(`group:"ingesters"`)))
	}
}

// probe puts a dataset's availability probe, a constructor or method
// returning usecase.DatasetProbe, in the "probes" group.
func probe(newProbe any) any { return fx.Annotate(newProbe, fx.ResultTags(`group:"probes"`)) }

// handlers puts a dataset's data handlers, a constructor returning
// []http.DataHandler, in the "handlers" group.
func handlers(newHandlers any) any {
	return fx.Annotate(newHandlers, fx.ResultTags(`group:"handlers,flatten"`))
}

// remedies say, for every catalog dataset some ingest fills, which
// commands fill it: one command, or any of several (Ask answers once any of
// the datasets it reads holds data).
func remedies() []usecase.Remedy {
	commands := map[dataset.ID][]string{}
	for _, d := range datasets() {
		for _, id := range d.fills {
			commands[id] = append(commands[id], "`quarry ingest "+d.name+"`")
		}
	}
	for _, src := range slices.Sorted(maps.Keys(sourceFills)) {
		for _, id := range sourceFills[src] {
			commands[id] = append(commands[id], "`quarry sync "+src+" --from YYYY-MM-DD`")
		}
	}
	for _, in := range slices.Sorted(maps.Keys(inboxFills)) {
		for _, id := range inboxFills[in] {
			commands[id] = append(commands[id], "`quarry sync "+in+"`")
		}
	}
	out := make([]usecase.Remedy, 0, len(commands))
	for _, id := range slices.Sorted(maps.Keys(commands)) {
		out = append(out, usecase.Remedy{Dataset: id, Text: "an operator loads it with " + orList(commands[id])})
	}
	return out
}

// orList joins items as "a", "a or b", "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// IngestDataset names a dataset `quarry ingest` loads and the source files
// it reads, with the other names the command takes for it.
type IngestDataset struct {
	Name, Sources string
	// Also lists the other catalog datasets the ingest alone fills, taken
	// as its name too: india_search for india_judgments.
	Also []string
	// Alias is the ingest name before B66, taken until the next release.
	Alias string
}

// IngestDatasets lists the datasets `quarry ingest` loads, by name.
func IngestDatasets() []IngestDataset {
	all := datasets()
	out := make([]IngestDataset, len(all))
	for i, d := range all {
		out[i] = IngestDataset{Name: d.name, Sources: d.sources, Alias: d.alias}
		for _, id := range d.fills {
			if string(id) != d.name && len(fillers(string(id))) == 1 {
				out[i].Also = append(out[i].Also, string(id))
			}
		}
	}
	return out
}

// fillers names the registered datasets whose ingest fills the catalog
// dataset id.
func fillers(id string) []string {
	var out []string
	for _, d := range datasets() {
		if slices.Contains(d.fills, dataset.ID(id)) {
			out = append(out, d.name)
		}
	}
	return out
}

// IngestName returns the name of the registered dataset that what names:
// its name, its alias, or a catalog dataset that its ingest alone fills.
// A catalog dataset several ingests fill (ask) names none of them, and the
// error lists them.
func IngestName(what string) (string, error) {
	for _, d := range datasets() {
		if what == d.name || (what == d.alias && d.alias != "") {
			return d.name, nil
		}
	}
	switch found := fillers(what); len(found) {
	case 0:
		return "", fmt.Errorf("unknown dataset %q (known: all, %s)", what, strings.Join(IngestNames(), ", "))
	case 1:
		return found[0], nil
	default:
		return "", fmt.Errorf("dataset %q is filled by several ingests: name one of %s", what, orList(found))
	}
}

// IngestNames lists the names of the registered datasets, in name order.
func IngestNames() []string {
	all := datasets()
	out := make([]string, len(all))
	for i, d := range all {
		out[i] = d.name
	}
	return out
}

// documentStore provides a dataset's store S: from newMemory when no
// document database is configured, otherwise from newDurable on the
// configured one (a method expression of DocumentStores).
func documentStore[S any](cfg Config, newMemory func() S, newDurable func(DocumentStores) S) fx.Option {
	if !cfg.OnMongo() {
		return fx.Provide(newMemory)
	}
	return fx.Provide(newDurable)
}

// cachesDocuments reports whether a read-through cache stands in front of
// the document stores: on MongoDB, unless QUARRY_CACHE_BYTES is 0. Memory
// stores need none.
func cachesDocuments(cfg Config) bool { return cfg.OnMongo() && cfg.CacheBytes > 0 }

// readCache provides the one ReadCache that the datasets' caches share,
// with one budget of QUARRY_CACHE_BYTES: a split per dataset would leave a
// quiet dataset's share idle while a busy one evicts. It is provided on
// memory storage too, for what is derived from the documents (rendered
// judgments, and the memos of statements, Ask's sentences and judgment
// digests), though documents themselves are cached only on MongoDB.
func readCache(cfg Config) fx.Option {
	if cfg.CacheBytes <= 0 {
		return fx.Options()
	}
	return fx.Provide(func(now usecase.Clock) (*readcache.Cache, error) {
		return readcache.New(cfg.CacheBytes, cfg.MongoRefresh, now)
	})
}

// sharedCache tags a parameter taking the ReadCache, which is nil when
// QUARRY_CACHE_BYTES is 0: what takes it then keeps nothing.
const sharedCache = `optional:"true"`

// documentCache puts a read-through cache in front of a dataset's MongoDB
// store: reference data changes only on ingest, and a round trip per request
// would make the document store the hot path.
func documentCache[P any](cfg Config, wrap func(P, *readcache.Cache) P) fx.Option {
	if !cachesDocuments(cfg) {
		return fx.Options()
	}
	return fx.Decorate(wrap)
}

// renderCache keeps what a dataset derives from its documents, such as
// rendered PDFs, in the shared ReadCache, on any storage, unless
// QUARRY_CACHE_BYTES is 0.
func renderCache[P any](cfg Config, wrap func(P, *readcache.Cache) P) fx.Option {
	if cfg.CacheBytes <= 0 {
		return fx.Options()
	}
	return fx.Decorate(wrap)
}

// sampleOf makes a dataset's sample wiring: at start, when the
// configuration asks for the dataset's sample, load fills its store through
// its dependency T. Start hooks run in registration order and the listener
// opens last, so no request sees an empty store.
func sampleOf[T any](load func(context.Context, T) (int, error)) func(Config, string) fx.Option {
	return func(cfg Config, name string) fx.Option {
		if !cfg.samples(name) {
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
}

// filesOnStart runs, at start, the Ingester of each dataset Config.Files
// names on its files, in dataset order.
func filesOnStart(cfg Config) fx.Option {
	if len(cfg.Files) == 0 {
		return fx.Options()
	}
	return fx.Invoke(func(in ingesterGroup, lc fx.Lifecycle, log *zap.Logger) {
		lc.Append(fx.StartHook(func(ctx context.Context) error {
			for _, ing := range in.sorted() {
				files, ok := cfg.Files[ing.Dataset]
				if !ok {
					continue
				}
				got, err := ing.Load(ctx, &ingest.Files{Names: files, MaxBytes: cfg.IngestMaxFileBytes})
				if err != nil {
					return fmt.Errorf("load %s from files: %w", ing.Dataset, err)
				}
				log.Info("source files loaded", zap.String("dataset", ing.Dataset), zap.Int("read", got.Read),
					zap.Int("written", got.Records), zap.String("skipped", got.Skipped))
			}
			return nil
		}))
	})
}

// ingesterGroup takes every dataset's Ingester.
type ingesterGroup struct {
	fx.In
	Ingesters []Ingester `group:"ingesters"`
	// Searches are the search indexes `quarry ingest` and `quarry sync`
	// keep on disk (ingestSearch); the service's graph has none.
	Searches []searchRefresh `group:"searches"`
}

// sorted returns the ingesters in dataset order: a group's order is not
// defined.
func (g ingesterGroup) sorted() []Ingester {
	out := slices.Clone(g.Ingesters)
	slices.SortFunc(out, func(a, b Ingester) int { return strings.Compare(a.Dataset, b.Dataset) })
	return out
}

// checkDatasetNames refuses a dataset name in Config.Files or Config.Empty
// that no dataset is registered under, and a dataset loaded from no files
// (which would load its sample: an Ingester without files does).
func checkDatasetNames(cfg Config) error {
	known := IngestNames()
	check := func(name string) error {
		if !slices.Contains(known, name) {
			return fmt.Errorf("unknown dataset %q (known: %s)", name, strings.Join(known, ", "))
		}
		return nil
	}
	for name, files := range cfg.Files {
		if err := check(name); err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("dataset %q: no source files given", name)
		}
	}
	for _, name := range cfg.Empty {
		if err := check(name); err != nil {
			return err
		}
	}
	return nil
}
