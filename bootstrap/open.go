package bootstrap

import (
	"context"
	"errors"
	"strings"

	"go.uber.org/dig"
	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// The building blocks of the quarry commands (cmd/quarry/cli): each opens
// what a command works on for a configuration, runs the command's function
// on it and closes it.

// Start builds the application of opts and starts it; stop stops it. A
// start-up failure is reduced to its cause on one line: the dependency
// chain fx reports says nothing an operator can act on.
func Start(ctx context.Context, opts ...fx.Option) (stop func() error, err error) {
	fxApp := fx.New(opts...)
	if err := fxApp.Start(ctx); err != nil {
		return nil, startError(err)
	}
	return func() error { return fxApp.Stop(context.Background()) }, nil
}

// startError reduces a start-up failure to its cause on one line.
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

// MigratePostgres applies the embedded migrations to the configured
// PostgreSQL database.
func MigratePostgres(ctx context.Context, cfg Config) error {
	if cfg.PostgresURL == "" {
		return errNoPostgres
	}
	s, err := storageFor(EnvPostgresURL)
	if err != nil {
		return err
	}
	return s.MigratePostgres(ctx, cfg)
}

// OperatorStore is what the operator commands need of the platform store.
type OperatorStore interface {
	ports.AccountStore
	ports.KeyStore
	ports.Ledger
	Verify(ctx context.Context) ([]ledger.Mismatch, error)
}

// errNoPlatform refuses an operator command with no durable platform store.
var errNoPlatform = errors.New("neither " + EnvPostgresURL + " nor " + EnvDataDir + " is set: this command works on PostgreSQL or on the data directory")

// WithPlatform runs fn on the configured platform store: PostgreSQL, else
// SQLite in the data directory. A command that writes takes the data
// directory's lock, so it is refused while a server holds it: that
// server's key cache would not hear of the change.
func WithPlatform(ctx context.Context, cfg Config, writes bool, fn func(OperatorStore) error) error {
	what := EnvPostgresURL
	switch {
	case cfg.PostgresURL != "":
	case cfg.EmbeddedPlatform():
		what = EnvDataDir
	default:
		return errNoPlatform
	}
	s, err := storageFor(what)
	if err != nil {
		return err
	}
	return s.WithPlatform(ctx, cfg, writes, fn)
}

// ingestion wires every dataset's ingester on the configured document
// store, and the search indexes they bring up to date when those are kept
// on disk.
func ingestion(cfg Config) fx.Option {
	opts := []fx.Option{fx.Supply(cfg), dataDirectory(cfg), documentDatabase(cfg), searchDatabase(cfg)}
	for _, d := range datasets() {
		if d.stores != nil {
			opts = append(opts, d.stores(cfg))
		}
		opts = append(opts, d.ingester(d.name))
	}
	return fx.Options(append(opts, ingestSearch(cfg))...)
}

// WithIngesters connects to MongoDB or the data directory, wires every
// dataset's ingester and runs fn with them by dataset name. The data
// directory's documents are indexed by id once the ingesters' stores have
// made their collections (their start hooks run first), and again every
// second for collections the run makes: without it every upsert by id
// scans its collection. An ingester of a dataset whose search
// index is kept on disk brings it up to date after each load (B161).
func WithIngesters(ctx context.Context, cfg Config, fn func(map[string]Ingester) error) error {
	var in ingesterGroup
	return withApp(ctx, cfg, func() error { return fn(in.byName()) }, ingestion(cfg), fx.Populate(&in), indexDocumentIDs(cfg, writerIndexEvery))
}

// withApp starts an application of opts, with the configured logger, runs
// fn and stops it.
func withApp(ctx context.Context, cfg Config, fn func() error, opts ...fx.Option) error {
	if err := checkStorage(cfg); err != nil {
		return err
	}
	log, err := NewLogger(cfg)
	if err != nil {
		return err
	}
	stop, err := Start(ctx, append([]fx.Option{fx.NopLogger, fx.Supply(log)}, opts...)...)
	if err != nil {
		return err
	}
	defer func() { _ = stop() }()
	return fn()
}
