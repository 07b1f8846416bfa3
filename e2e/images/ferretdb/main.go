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
// Every two seconds it also indexes each collection by the expression
// FerretDB v1.24.2's SQLite backend filters `_id` by (quarry's
// adapters/ferretdb.IndexIDsIn): as published, FerretDB indexes another
// expression, so each read by `_id` scans its table, where MongoDB, which
// this image stands in for, reads through the `_id` index.
//
// There is no authentication: FerretDB v1 with SQLite accepts any client.
// On start it logs `Listening on TCP <addr>...`; tests can wait for that.
package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"

	quarrydocs "github.com/quarrydata/quarry/adapters/ferretdb"
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

	sqliteURL := getenv("FERRETDB_SQLITE_URL", "file:/state/")
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: getenv("FERRETDB_LISTEN_ADDR", "0.0.0.0:27017")},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		logger.Error("cannot start FerretDB", "error", err)
		os.Exit(1)
	}

	go indexIDs(ctx, stateDir(sqliteURL), logger)
	if err := f.Run(ctx); err != nil {
		logger.Error("FerretDB stopped with an error", "error", err)
		os.Exit(1)
	}
}

// stateDir is the directory a FerretDB SQLite URL such as file:/state/
// names.
func stateDir(sqliteURL string) string {
	dir, _, _ := strings.Cut(strings.TrimPrefix(sqliteURL, "file:"), "?")
	return dir
}

// indexIDs indexes every database's collections by `_id` every two seconds
// until ctx ends.
func indexIDs(ctx context.Context, dir string, logger *slog.Logger) {
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.sqlite"))
		for _, file := range files {
			db := strings.TrimSuffix(filepath.Base(file), ".sqlite")
			if err := quarrydocs.IndexIDsIn(ctx, dir, db); err != nil && ctx.Err() == nil {
				logger.Warn("cannot index collections by _id", "database", db, "error", err)
			}
		}
	}
}
