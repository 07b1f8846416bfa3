package bootstrap

import (
	"slices"
	"strings"

	"go.uber.org/fx"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/domain/dataset"
)

// sliceModules are the service's slices, one fx module each, in catalog order:
// adding a dataset is adding its slice (app/<dataset> and its wiring
// function) and one line here. A test holds the order to
// dataset.Catalog().
var sliceModules = []wiring{
	usFinancials(),
	usFilings(),
	fundHolders(),
	chinaSecurities(),
	chinaPrices(),
	indiaPrices(),
	indiaJudgments(),
	indiaExports(),
	askSlice(),
}

// wiring is how one slice joins the binary: a dataset `quarry ingest`
// loads, or a route over other slices' stores (exports, Ask), which has no
// ingester. Its parts join the service through fx value groups (handlers,
// probes, readiness checks, ingesters, exports).
type wiring struct {
	// name is the slice's module name and, for a dataset, its name on the
	// command line, as in `quarry ingest us_filing_indexes`: the catalog id
	// of the first dataset in fills, so a dataset has one name (B66). The
	// securities master fills no catalog dataset of its own and is
	// us_securities.
	name string
	// alias is the dataset's ingest name before B66, still taken on the
	// command line until the next release.
	alias string
	// sources says in a few words which files `quarry ingest` reads.
	sources string
	// stores wires the dataset's stores alone, for `quarry ingest`; nil
	// for a slice with none of its own.
	stores func(Config) fx.Option
	// served wires the stores as the service reads them (behind the read
	// cache on MongoDB); stores when nil.
	served func(Config) fx.Option
	// provide lists the slice's constructors: its use case, probes,
	// handlers and exports.
	provide []any
	// extra wires what else the slice needs (a search index, start hooks,
	// background jobs); nil when nothing.
	extra func(Config) fx.Option
	// ingester provides the dataset's Ingester, in the "ingesters" group,
	// from its stores: `quarry ingest` runs it, and the service runs it
	// at start on the files Config.Files names. It is given the dataset's
	// name, so the name is written once, in name. nil for a route.
	ingester func(name string) fx.Option
	// search wires, for `quarry ingest` and `quarry sync`, the dataset's
	// search index kept on disk and its use case's Refresh (searched):
	// after a load they bring the index up to date with what they wrote,
	// so the first `quarry serve` resumes it instead of building it
	// (B161). It is given the dataset's name; nil for a dataset that
	// feeds no search index.
	search func(name string, cfg Config) fx.Option
	// fills lists the catalog datasets whose probes this one's ingest
	// makes available: a 503 on one of them names the command.
	fills []dataset.ID
	// sample loads the dataset's bundled sample at start when the
	// configuration asks for it (see sampleOf); nil when it has none. It
	// is given the dataset's name too.
	sample func(cfg Config, name string) fx.Option
	// parts are datasets ingested on their own into this one's stores
	// (the securities master into the fund holdings store): their modules
	// sit inside this one, so they see its stores as it does.
	parts []wiring
}

// module wires the slice into the service as one fx module: its stores,
// use case, probes, handlers, ingester, sample and parts.
func (w wiring) module(cfg Config) fx.Option {
	var opts []fx.Option
	if w.served != nil {
		opts = append(opts, w.served(cfg))
	} else if w.stores != nil {
		opts = append(opts, w.stores(cfg))
	}
	opts = append(opts, fx.Provide(w.provide...))
	if w.extra != nil {
		opts = append(opts, w.extra(cfg))
	}
	if w.ingester != nil {
		opts = append(opts, w.ingester(w.name))
	}
	if w.sample != nil {
		opts = append(opts, w.sample(cfg, w.name))
	}
	for _, p := range w.parts {
		opts = append(opts, p.module(cfg))
	}
	return fx.Module(w.name, opts...)
}

// documents returns the wiring of a slice's document store S, in memory or
// on the document database: stores for `quarry ingest`, served for the
// service, which puts cache, when given, in front of the database's store.
func documents[S any](newMemory func() S, newDurable func(DocumentStores) S,
	cache func(S, *readcache.Cache) S) (stores, served func(Config) fx.Option) {
	stores = func(cfg Config) fx.Option { return documentStore(cfg, newMemory, newDurable) }
	if cache == nil {
		return stores, stores
	}
	return stores, func(cfg Config) fx.Option { return fx.Options(stores(cfg), documentCache(cfg, cache)) }
}

// datasets lists every dataset `quarry ingest` loads, parts included, in
// name order.
func datasets() []wiring {
	var out []wiring
	var walk func([]wiring)
	walk = func(ws []wiring) {
		for _, w := range ws {
			if w.ingester != nil {
				out = append(out, w)
			}
			walk(w.parts)
		}
	}
	walk(sliceModules)
	slices.SortFunc(out, func(a, b wiring) int { return strings.Compare(a.name, b.name) })
	return out
}
