package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/quarrydata/quarry/ingest"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/dig"
	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/adapters/sqlite"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// InterfaceVersion is the version of the interface the binary serves.
const InterfaceVersion = dataset.Version

// Serve runs the service, and its metrics listener (MetricsListener), until
// ctx is cancelled, then shuts down gracefully.
func Serve(ctx context.Context, cfg Config) error {
	log, err := NewLogger(cfg)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	fxApp := fx.New(Options(cfg, log), MetricsListener(cfg), fx.NopLogger)
	if err := fxApp.Start(ctx); err != nil {
		return startError(err)
	}
	<-ctx.Done()
	return fxApp.Stop(context.Background())
}

// startError reduces a start-up failure to its cause on one line: the
// dependency chain fx reports says nothing an operator can act on.
func startError(err error) error {
	msg := dig.RootCause(err).Error()
	return errors.New(strings.Join(strings.Fields(msg), " "))
}

// NewLogger builds the JSON logger at the configured level.
func NewLogger(cfg Config) (*zap.Logger, error) {
	zc := zap.NewProductionConfig()
	zc.Level = zap.NewAtomicLevelAt(cfg.LogLevel)
	zc.Sampling = nil // one line per request, never sampled away
	zc.DisableStacktrace = true
	zc.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	return zc.Build()
}

var errNoPostgres = errors.New(EnvPostgresURL + " is not set: this command works on PostgreSQL")

// Migrate applies the embedded migrations.
func Migrate(ctx context.Context, cfg Config, out io.Writer) error {
	return withPostgres(ctx, cfg, func(pool *pgxpool.Pool) error {
		if err := postgres.Migrate(ctx, pool); err != nil {
			return err
		}
		fmt.Fprintln(out, "migrations applied")
		return nil
	})
}

// withPostgres runs fn on a pool of the configured database.
func withPostgres(ctx context.Context, cfg Config, fn func(*pgxpool.Pool) error) error {
	if cfg.PostgresURL == "" {
		return errNoPostgres
	}
	pool, err := postgres.Connect(ctx, cfg.PostgresURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	return fn(pool)
}

// VerifyLedger checks every account's balance against its entries and fails
// when any differ. On the embedded backend it reads beside a running server.
func VerifyLedger(ctx context.Context, cfg Config, out io.Writer) error {
	var mismatches []ledger.Mismatch
	err := withPlatform(ctx, cfg, false, func(store operatorStore) (err error) {
		mismatches, err = store.Verify(ctx)
		return err
	})
	if err != nil {
		return err
	}
	for _, m := range mismatches {
		fmt.Fprintf(out, "MISMATCH account %s: balance %d, sum of entries %d\n", m.AccountID, m.Balance, m.Sum)
	}
	if len(mismatches) > 0 {
		return fmt.Errorf("ledger verify: %d account(s) out of balance", len(mismatches))
	}
	fmt.Fprintln(out, "ledger verify: every balance equals the sum of its entries")
	return nil
}

// operatorStore is what the operator commands need of the platform store.
type operatorStore interface {
	ports.AccountStore
	ports.KeyStore
	ports.Ledger
	Verify(ctx context.Context) ([]ledger.Mismatch, error)
}

// errNoPlatform refuses an operator command with no durable platform store.
var errNoPlatform = errors.New("neither " + EnvPostgresURL + " nor " + EnvDataDir + " is set: this command works on PostgreSQL or on the data directory")

// withPlatform runs fn on the configured platform store: PostgreSQL, else
// SQLite in the data directory. A command that writes takes the data
// directory's lock, so it is refused while a server holds it: that
// server's key cache would not hear of the change.
func withPlatform(ctx context.Context, cfg Config, writes bool, fn func(operatorStore) error) error {
	switch {
	case cfg.PostgresURL != "":
		return withPostgres(ctx, cfg, func(pool *pgxpool.Pool) error {
			store := postgres.New(pool)
			defer store.Close()
			return fn(store)
		})
	case cfg.embeddedPlatform():
		// A reader never creates the directory: a mistyped path should
		// say so, not open an empty store.
		if !writes && !exists(cfg.DataDir) {
			return fmt.Errorf("%s=%s: no such directory (quarry serve creates it)", EnvDataDir, cfg.DataDir)
		}
		if writes {
			unlock, err := lockDataDir(cfg.DataDir)
			if err != nil {
				return err
			}
			defer func() { _ = unlock() }()
		}
		store, err := sqlite.Open(ctx, filepath.Join(cfg.DataDir, dataDirPlatform))
		if err != nil {
			return err
		}
		defer func() { _ = store.Close() }()
		return fn(store)
	}
	return errNoPlatform
}

// withOperators runs fn with the operator use cases on the configured
// platform store.
func withOperators(ctx context.Context, cfg Config, fn func(*platform.Operators) error) error {
	return withPlatform(ctx, cfg, true, func(store operatorStore) error {
		return fn(platform.NewOperators(store, store, store, usecase.SystemClock))
	})
}

// GrantCredits tops up the account of email with a grant naming reason.
func GrantCredits(ctx context.Context, cfg Config, email string, amount int64, reason string, out io.Writer) error {
	return withOperators(ctx, cfg, func(o *platform.Operators) error {
		bal, err := o.GrantCredits(ctx, email, amount, reason)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "granted %d credits to %s (%s); balance %d\n", amount, email, reason, bal)
		return nil
	})
}

// SetKeyScope grants a permission to a key (held) or revokes it, such as
// resale:read, which self-serve keys never carry.
func SetKeyScope(ctx context.Context, cfg Config, keyID, permission string, held bool, out io.Writer) error {
	return withOperators(ctx, cfg, func(o *platform.Operators) error {
		k, err := o.SetKeyScope(ctx, keyID, permission, held)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "key %s scopes: %s\n", k.ID, strings.Join(k.Scopes, " "))
		return nil
	})
}

// Ingest loads source files of the named dataset into MongoDB; without
// files it loads the bundled sample. The dataset "all" loads every sample.
// It reports what it wrote on out and its progress on progressOut: a bar
// when that is a terminal, else one line per file; nil shows none (quarry
// ingest --quiet). A run that fails part way says how many records it
// wrote before the failure.
func Ingest(ctx context.Context, cfg Config, what string, files []string, out, progressOut io.Writer) error {
	if !cfg.onMongo() {
		return errors.New("neither " + EnvMongoURI + " nor " + EnvDataDir + " is set: ingest writes to MongoDB or to the data directory")
	}
	names, err := ingestNames(what, files)
	if err != nil {
		return err
	}
	return withIngesters(ctx, cfg, func(byName map[string]Ingester) error {
		p := ingest.NewProgress(progressOut, progressOut == nil)
		defer p.Finish()
		for _, n := range names {
			got, err := byName[n].Load(ctx, &ingest.Files{Names: files, MaxBytes: cfg.IngestMaxFileBytes, Progress: p})
			p.Finish()
			if err != nil {
				if got.Records > 0 {
					fmt.Fprintf(out, "wrote %d records of %s into %s before the error; the rest were not written\n", got.Records, n, cfg.MongoDB)
				}
				return fmt.Errorf("ingest %s: %w", n, err)
			}
			skipped := ""
			if got.Skipped != "" {
				skipped = "; " + got.Skipped
			}
			fmt.Fprintf(out, "ingested %s into %s: %s%s\n", n, cfg.MongoDB, got.Counts(), skipped)
		}
		return nil
	})
}

// ingestNames checks the dataset named on the command line, before any
// connection is made, and expands "all".
func ingestNames(what string, files []string) ([]string, error) {
	switch {
	case what == "all" && len(files) > 0:
		return nil, errors.New("ingest all takes no files: it loads every bundled sample")
	case what == "all":
		return IngestNames(), nil
	}
	name, err := ingestName(what)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	return []string{name}, nil
}

// ingestion wires every dataset's ingester on the configured document
// store.
func ingestion(cfg Config) fx.Option {
	opts := []fx.Option{fx.Supply(cfg), dataDirectory(cfg), documentDatabase(cfg)}
	for _, d := range datasets() {
		if d.stores != nil {
			opts = append(opts, d.stores(cfg))
		}
		opts = append(opts, d.ingester(d.name))
	}
	return fx.Options(opts...)
}

// withIngesters connects to MongoDB, wires every dataset's ingester and runs
// fn with them by dataset name.
func withIngesters(ctx context.Context, cfg Config, fn func(map[string]Ingester) error) error {
	log, err := NewLogger(cfg)
	if err != nil {
		return err
	}
	var in ingesterGroup
	// The documents are indexed by id after the ingesters' stores have
	// made their collections (their start hooks run first), and again
	// every QUARRY_MONGO_REFRESH for collections a long run makes: without
	// it, every upsert by id on the data directory scans its collection.
	fxApp := fx.New(fx.NopLogger, fx.Supply(log), ingestion(cfg), fx.Populate(&in), indexDocumentIDs(cfg))
	if err := fxApp.Start(ctx); err != nil {
		return startError(err)
	}
	defer func() { _ = fxApp.Stop(context.Background()) }()
	byName := map[string]Ingester{}
	for _, ing := range in.Ingesters {
		byName[ing.Dataset] = ing
	}
	return fn(byName)
}
