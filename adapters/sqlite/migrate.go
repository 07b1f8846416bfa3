package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrate applies the embedded migrations the database has not seen, in
// file-name order, each in its own write transaction with its version
// recorded in schema_migrations, so running it again is a no-op. BEGIN
// IMMEDIATE takes the write lock before the version is checked, so a
// migration is never applied twice.
func migrate(ctx context.Context, db *sql.DB) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("sqlite: list migrations: %w", err)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := applyMigration(ctx, db, name); err != nil {
			return err
		}
	}
	return nil
}

// applyMigration runs one migration file unless its version is recorded.
func applyMigration(ctx context.Context, db *sql.DB, name string) error {
	version := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
	script, err := migrations.ReadFile(name)
	if err != nil {
		return fmt.Errorf("sqlite: read migration %s: %w", version, err)
	}
	err = inTx(ctx, db, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    TEXT PRIMARY KEY,
			applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ'))) STRICT`)
		if err != nil {
			return err
		}
		var applied bool
		err = tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?)`, version).Scan(&applied)
		if err != nil || applied {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(script)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, version)
		return err
	})
	if err != nil {
		return translate("apply migration "+version, err)
	}
	return nil
}
