package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/quarrydata/quarry/adapters/sqlite"
	"github.com/quarrydata/quarry/ports"
)

// TestModule builds the module with fx: every port is provided by one
// Store on the configured file, which is open while the application runs
// and closed once it stops.
func TestModule(t *testing.T) {
	path := filepath.Join(t.TempDir(), "platform.db")
	var store *sqlite.Store
	var ledger ports.Ledger
	app := fxtest.New(t,
		fx.Supply(sqlite.Config{Path: path}),
		sqlite.Module,
		fx.Invoke(func(s *sqlite.Store, _ ports.AccountStore, _ ports.SessionStore, _ ports.KeyStore, l ports.Ledger,
			_ ports.KeyWatch, _ ports.RateBuckets, _ ports.SigninHistory, _ ports.IdempotencyStore) {
			store, ledger = s, l
		}),
	)
	app.RequireStart()
	if ledger != ports.Ledger(store) {
		t.Fatal("the ledger is not the Store")
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the database file: %v", err)
	}
	if mismatches, err := ledger.Verify(context.Background()); err != nil || len(mismatches) != 0 {
		t.Fatalf("Verify = %+v, %v", mismatches, err)
	}
	app.RequireStop()
	if _, err := ledger.Verify(context.Background()); err == nil {
		t.Fatal("the store still answers after the application stopped")
	}
}

// TestModuleBadPath stops start-up when the file cannot be opened.
func TestModuleBadPath(t *testing.T) {
	app := fx.New(fx.NopLogger, fx.Supply(sqlite.Config{Path: filepath.Join(t.TempDir(), "missing", "platform.db")}), sqlite.Module,
		fx.Invoke(func(ports.Ledger) {}))
	if err := app.Err(); err == nil {
		t.Fatal("the module built on a directory that does not exist")
	}
}
