package cli

import (
	"context"
	"fmt"
	"io"

	"go.uber.org/fx"

	"github.com/quarrydata/quarry/bootstrap"
)

// Serve runs the service, and its metrics listener
// (bootstrap.MetricsListener), until ctx is cancelled, then shuts down
// gracefully.
func Serve(ctx context.Context, cfg bootstrap.Config) error {
	log, err := bootstrap.NewLogger(cfg)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	stop, err := bootstrap.Start(ctx, bootstrap.Options(cfg, log), bootstrap.MetricsListener(cfg), fx.NopLogger)
	if err != nil {
		return err
	}
	<-ctx.Done()
	return stop()
}

// Migrate applies the embedded migrations.
func Migrate(ctx context.Context, cfg bootstrap.Config, out io.Writer) error {
	if err := bootstrap.MigratePostgres(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintln(out, "migrations applied")
	return nil
}
