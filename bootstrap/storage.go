package bootstrap

import (
	"context"
	"fmt"

	"go.uber.org/fx"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/ports"
)

// Storage wires the durable backends: PostgreSQL, MongoDB and the data
// directory (SQLite and an embedded FerretDB). This package wires memory
// storage alone, so a program serving on memory (quarrytest, a binary
// built with the quarry_memory tag) compiles none of their drivers;
// package bootstrap/durable implements Storage and installs it with
// UseStorage when it is imported.
type Storage interface {
	// Platform provides the platform stores (accounts, sessions, keys,
	// ledger, limits, idempotency; on PostgreSQL the sources' leases too)
	// and their readiness check, on PostgreSQL or in the data directory's
	// SQLite file (given as DataDir).
	Platform(cfg Config) fx.Option
	// Documents provides DocumentStores and the readiness check of the
	// database behind them: MongoDB, or FerretDB embedded in the data
	// directory, which also provides EmbeddedDocuments.
	Documents(cfg Config) fx.Option
	// SharedSearch provides the SharedSearch of QUARRY_SEARCH=postgres.
	SharedSearch(cfg Config) fx.Option
	// SyncLeases provides PostgreSQL's leases to `quarry sync`, which
	// wires no platform stores.
	SyncLeases(cfg Config) fx.Option
	// WithPlatform is the package's WithPlatform.
	WithPlatform(ctx context.Context, cfg Config, writes bool, fn func(OperatorStore) error) error
	// BackupStores is the package's BackupStores.
	BackupStores(ctx context.Context, cfg Config, dst string) ([]string, error)
	// MigratePostgres is the package's MigratePostgres.
	MigratePostgres(ctx context.Context, cfg Config) error
	// MigrateVault is the package's MigrateVault.
	MigrateVault(ctx context.Context, cfg Config) error
	// WithVault is the package's WithVault.
	WithVault(ctx context.Context, cfg Config, fn func(v ports.Vault, role string) error) error
}

// durable is the Storage UseStorage installed; nil in a program that
// serves on memory only.
var durable Storage

// UseStorage installs s as the durable backends. Package bootstrap/durable
// calls it from its init, so importing that package (for its side effect,
// as a database/sql driver is) is what gives a program every storage.
func UseStorage(s Storage) { durable = s }

// storageFor returns the durable backends for what cfg sets (the variable
// named what), or an error saying this program was built without them.
func storageFor(what string) (Storage, error) {
	if durable == nil {
		return nil, fmt.Errorf("%s is set, but this program serves on memory storage only: it was built without package bootstrap/durable (`go tool task run` builds bin/quarry with the quarry_memory tag; `go tool task build` builds it with every storage)", what)
	}
	return durable, nil
}

// checkStorage refuses, once and before anything is wired, a
// configuration naming a durable backend in a program without them.
func checkStorage(cfg Config) error {
	for _, set := range []struct {
		name string
		set  bool
	}{
		{EnvPostgresURL, cfg.PostgresURL != ""}, {EnvMongoURI, cfg.MongoURI != ""},
		{EnvDataDir, cfg.DataDir != ""}, {EnvSearch + "=" + SearchPostgres, cfg.sharedSearch()},
	} {
		if set.set {
			if _, err := storageFor(set.name); err != nil {
				return err
			}
		}
	}
	return nil
}

// durableOption is the option of the durable backends that wire builds,
// or an fx.Error when the program has none.
func durableOption(what string, wire func(Storage) fx.Option) fx.Option {
	s, err := storageFor(what)
	if err != nil {
		return fx.Error(err)
	}
	return wire(s)
}

// DocumentStores makes each dataset's store on the configured document
// database. Storage.Documents provides it; memory stores are made here.
type DocumentStores interface {
	ChinaPrices() ports.ChinaPriceStore
	// CachedChinaPrices is ChinaPrices keeping the buckets it reads in
	// cache, unpacked, since only the store knows their layout.
	CachedChinaPrices(cache *readcache.Cache) ports.ChinaPriceStore
	Securities() ports.SecurityStore
	FundHoldings() ports.FundHoldingStore
	Judgments() ports.JudgmentStore
	IndiaPrices() ports.IndiaPriceStore
	// CachedIndiaPrices is IndiaPrices keeping what it reads in cache.
	CachedIndiaPrices(cache *readcache.Cache) ports.IndiaPriceStore
	Filings() FilingStores
	Financials() ports.FinancialsStore
	SyncStates() ports.SyncStates
}

// FilingStores is the one store that keeps both the US filings and their
// sections.
type FilingStores interface {
	ports.FilingStore
	ports.SectionStore
}

// EmbeddedDocuments is the FerretDB embedded in a data directory: its
// collections are indexed by the expression its reads by _id filter on
// (see indexDocumentIDs).
type EmbeddedDocuments interface {
	IndexIDs(ctx context.Context, database string) error
}

// SharedSearch is the search kept in PostgreSQL for every node
// (QUARRY_SEARCH=postgres): the two indexes and the lock that makes one
// process at a time the writer of each.
type SharedSearch struct {
	Sections        ports.SectionIndex
	Judgments       ports.JudgmentIndex
	SectionsWriter  WriterLock
	JudgmentsWriter WriterLock
}

// WriterLock makes its holder the one writer of a shared index. Hold runs
// fn holding it, waiting for it when wait, else doing nothing (false)
// while another process holds it; moved says another process saved the
// index's checkpoint since this one last held it.
type WriterLock interface {
	Hold(ctx context.Context, wait bool, fn func(ctx context.Context, moved bool) error) (bool, error)
}
