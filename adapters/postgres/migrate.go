package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the pg_advisory_xact_lock key every migrator takes, so
// that replicas starting together apply each migration exactly once.
const migrationLock int64 = 0x7175_6172_7279 // "quarry"

// Migrate applies the embedded migrations that the database has not seen, in
// file-name order, each in its own transaction. Applied versions are recorded
// in schema_migrations, so running it again is a no-op, and concurrent
// migrators wait for one another instead of racing.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("postgres: list migrations: %w", err)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := applyMigration(ctx, pool, name); err != nil {
			return err
		}
	}
	return nil
}

// applyMigration runs one migration file unless its version is recorded.
func applyMigration(ctx context.Context, pool *pgxpool.Pool, name string) error {
	version := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
	script, err := migrations.ReadFile(name)
	if err != nil {
		return fmt.Errorf("postgres: read migration %s: %w", version, err)
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		applied, err := lockAndCheck(ctx, tx, version)
		if err != nil || applied {
			return err
		}
		// No arguments: pgx sends the script with the simple protocol, which
		// accepts several statements.
		if _, err := tx.Exec(ctx, string(script)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, version)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: apply migration %s: %w", version, err)
	}
	return nil
}

// lockAndCheck takes the migration lock, creating the bookkeeping table under
// it (creating it before would race), and reports whether version is applied.
func lockAndCheck(ctx context.Context, tx pgx.Tx, version string) (bool, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
		return false, err
	}
	_, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    text PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now())`)
	if err != nil {
		return false, err
	}
	var applied bool
	err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, version).Scan(&applied)
	return applied, err
}
