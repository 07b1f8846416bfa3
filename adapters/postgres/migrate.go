package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/ports"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the pg_advisory_xact_lock key every migrator takes, so
// that replicas starting together apply each migration exactly once.
const migrationLock int64 = 0x7175_6172_7279 // "quarry"

// versions are the embedded migrations' versions, in the order they apply.
func versions() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("postgres: list migrations: %w", err)
	}
	slices.Sort(names)
	for i, name := range names {
		names[i] = strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
	}
	return names, nil
}

// Pending returns the versions of the embedded migrations the database has
// not applied, in order: every one on a database never migrated.
func Pending(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	all, err := versions()
	if err != nil {
		return nil, err
	}
	var applied []string
	rows, err := pool.Query(ctx, `SELECT version FROM schema_migrations`)
	if err == nil {
		applied, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == undefinedTable: // never migrated
		return all, nil
	case err != nil:
		return nil, translate("read applied migrations", err)
	}
	return slices.DeleteFunc(all, func(v string) bool { return slices.Contains(applied, v) }), nil
}

// Ready pings the database and reports, as an error wrapping
// ports.ErrNotMigrated that names `quarry migrate`, a database lacking
// migrations this release applies: on such a database every sign-in would
// fail.
func Ready(ctx context.Context, pool *pgxpool.Pool) error {
	if err := pool.Ping(ctx); err != nil {
		return err
	}
	pending, err := Pending(ctx, pool)
	if err != nil || len(pending) == 0 {
		return err
	}
	return fmt.Errorf("the database lacks %d migration(s) of this release (%s to %s): "+
		"run `quarry migrate` with QUARRY_POSTGRES_URL set, or start with QUARRY_AUTO_MIGRATE=true: %w",
		len(pending), pending[0], pending[len(pending)-1], ports.ErrNotMigrated)
}

// Migrate applies the embedded migrations that the database has not seen, in
// file-name order, each in its own transaction. Applied versions are recorded
// in schema_migrations, so running it again is a no-op, and concurrent
// migrators wait for one another instead of racing.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	all, err := versions()
	if err != nil {
		return err
	}
	for _, version := range all {
		if err := applyMigration(ctx, pool, version); err != nil {
			return err
		}
	}
	return nil
}

// applyMigration runs one migration file unless its version is recorded.
func applyMigration(ctx context.Context, pool *pgxpool.Pool, version string) error {
	script, err := migrations.ReadFile("migrations/" + version + ".sql")
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
