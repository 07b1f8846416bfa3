// Package vault implements ports.Vault on PostgreSQL, in a schema of its
// own (`vault`) owned by a role of its own, with its own embedded
// migrations recorded in vault.schema_migrations, apart from the ledger's.
// It is reached only through QUARRY_VAULT_POSTGRES_URL, by `quarry vault`
// and `quarry ingest`; the serving process never constructs it.
package vault

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock differs from the ledger's, so the two migrators never wait
// on each other.
const migrationLock int64 = 0x7661_756c_74 // "vault"

// ErrNoSchema: the schema `vault` does not exist; the operator creates it,
// owned by the vault role, before the first migration.
var ErrNoSchema = errors.New("schema vault does not exist: create it owned by the vault role first (scripts/vault-roles.sql)")

// Migrate applies the vault's embedded migrations that the database has not
// seen, each in its own transaction, as the role pool connects with.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'vault')`).Scan(&exists); err != nil {
		return translate("migrate", err)
	}
	if !exists {
		return ErrNoSchema
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("vault: list migrations: %w", err)
	}
	slices.Sort(names)
	for _, name := range names {
		version := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
		script, err := migrations.ReadFile(name)
		if err != nil {
			return fmt.Errorf("vault: read migration %s: %w", version, err)
		}
		err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS vault.schema_migrations (
				version    text PRIMARY KEY,
				applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
				return err
			}
			var applied bool
			err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM vault.schema_migrations WHERE version = $1)`, version).Scan(&applied)
			if err != nil || applied {
				return err
			}
			if _, err := tx.Exec(ctx, string(script)); err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `INSERT INTO vault.schema_migrations (version) VALUES ($1)`, version)
			return err
		})
		if err != nil {
			return fmt.Errorf("vault: apply migration %s: %w", version, err)
		}
	}
	return nil
}

// Store is the vault on a pool connected as the vault role.
type Store struct {
	pool *pgxpool.Pool
}

var _ ports.Vault = (*Store)(nil)

// New returns the vault on pool, whose database Migrate has brought up to
// date.
func New(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Put records entries in one transaction. Rows another writer committed
// first are kept (ON CONFLICT DO NOTHING waits for it), and the batch is
// then compared with what is held: any difference is ErrConflict and rolls
// the whole batch back.
func (s *Store) Put(ctx context.Context, entries []pii.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	tokens := make([]string, len(entries))
	kinds := make([]string, len(entries))
	originals := make([]string, len(entries))
	for i, e := range entries {
		tokens[i], kinds[i], originals[i] = e.Token, string(e.Kind), e.Original
	}
	var conflicting string
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO vault.entries (token, kind, original)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
			ON CONFLICT (token) DO NOTHING`, tokens, kinds, originals)
		if err != nil {
			return err
		}
		err = tx.QueryRow(ctx, `SELECT e.token FROM vault.entries e
			JOIN unnest($1::text[], $2::text[], $3::text[]) AS g(token, kind, original) USING (token)
			WHERE e.kind <> g.kind OR e.original <> g.original LIMIT 1`, tokens, kinds, originals).Scan(&conflicting)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err == nil {
			return errConflict
		}
		return err
	})
	if errors.Is(err, errConflict) {
		return fmt.Errorf("vault: token %s is held for another original: %w", conflicting, ports.ErrConflict)
	}
	if err != nil {
		return translate("put", err)
	}
	return nil
}

// errConflict rolls back a Put whose batch disagrees with the vault.
var errConflict = errors.New("conflict")

// Reveal returns the entry of token.
func (s *Store) Reveal(ctx context.Context, token string) (pii.Entry, error) {
	e := pii.Entry{Token: token}
	err := s.pool.QueryRow(ctx, `SELECT kind, original FROM vault.entries WHERE token = $1`, token).Scan(&e.Kind, &e.Original)
	if err != nil {
		return pii.Entry{}, translate("reveal "+token, err)
	}
	return e, nil
}

// translate turns a driver error into the ports sentinel it means; the
// driver error survives only as text.
func translate(op string, err error) error {
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("vault: %s: %w", op, ports.ErrNotFound)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("vault: %s: %w: %w", op, ports.ErrUnavailable, err)
	}
	return fmt.Errorf("vault: %s: %w: %v", op, ports.ErrUnavailable, err)
}
