// Command ferretdb runs FerretDB v1 (SQLite backend) embedded in-process.
//
// It exists because no image registry is reachable from our machines, so the
// end-to-end tests use a local FROM-scratch image built around this binary by
// scripts/images/ferretdb.sh. FerretDB's own cmd/ferretdb is not built
// directly: as a main module it panics without a generated
// build/version/version.txt, whereas the embeddable package does not need it.
//
// Environment (names match upstream FerretDB's flags):
//
//	FERRETDB_LISTEN_ADDR  TCP listen address (default 0.0.0.0:27017)
//	FERRETDB_SQLITE_URL   SQLite directory URI (default file:/state/)
//	FERRETDB_LOG_LEVEL    debug, info, warn or error (default info)
//
// There is no authentication: FerretDB v1 with SQLite accepts any client.
// On start it logs `Listening on TCP <addr>...`; tests can wait for that.
package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func getenv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func main() {
	var level slog.Level
	if err := level.UnmarshalText([]byte(getenv("FERRETDB_LOG_LEVEL", "info"))); err != nil {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	// As PID 1 in a container, SIGTERM/SIGINT are ignored unless handled, so
	// `docker stop` would wait for its timeout without this.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: getenv("FERRETDB_LISTEN_ADDR", "0.0.0.0:27017")},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: getenv("FERRETDB_SQLITE_URL", "file:/state/"),
	})
	if err != nil {
		logger.Error("cannot start FerretDB", "error", err)
		os.Exit(1)
	}

	if err := f.Run(ctx); err != nil {
		logger.Error("FerretDB stopped with an error", "error", err)
		os.Exit(1)
	}
}
