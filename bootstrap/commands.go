package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// InterfaceVersion is the version of the interface the binary serves.
const InterfaceVersion = dataset.Version

// Serve runs the service until ctx is cancelled, then shuts down gracefully.
func Serve(ctx context.Context, cfg Config) error {
	log, err := NewLogger(cfg)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	fxApp := fx.New(Options(cfg, log))
	if err := fxApp.Start(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	return fxApp.Stop(context.Background())
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
// when any differ.
func VerifyLedger(ctx context.Context, cfg Config, out io.Writer) error {
	var mismatches []ledger.Mismatch
	err := withPostgres(ctx, cfg, func(pool *pgxpool.Pool) (err error) {
		store := postgres.New(pool)
		defer store.Close()
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

// Ingest loads a source file of the named dataset into the configured
// document store. Without a file it loads the bundled sample.
func Ingest(ctx context.Context, cfg Config, what string, files []string, out io.Writer) error {
	if what != "china-securities" {
		return fmt.Errorf("ingest: unknown dataset %q (known: china-securities)", what)
	}
	if cfg.MongoURI == "" {
		return errors.New(EnvMongoURI + " is not set: ingest writes to MongoDB")
	}
	client, err := mongo.Connect(ctx, cfg.MongoURI)
	if err != nil {
		return err
	}
	defer func() { _ = client.Disconnect(context.Background()) }()
	store, err := mongo.New(ctx, client.Database(cfg.MongoDB))
	if err != nil {
		return err
	}
	n, err := ingestListings(ctx, store, files)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "ingested %d China A-share listings into %s\n", n, cfg.MongoDB)
	return nil
}

func ingestListings(ctx context.Context, s ports.SecurityStore, files []string) (int, error) {
	if len(files) == 0 {
		return LoadSample(ctx, s)
	}
	f, err := os.Open(files[0])
	if err != nil {
		return 0, err
	}
	defer f.Close()
	secs, err := app.ParseListings(files[0], f)
	if err != nil {
		return 0, err
	}
	return len(secs), s.UpsertSecurities(ctx, secs)
}
