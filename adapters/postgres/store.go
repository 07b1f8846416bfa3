// Package postgres implements the account-side ports (accounts, sessions, API
// keys and the credit ledger) on PostgreSQL through pgx. It owns the schema,
// shipped as embedded migrations, and translates every driver error into the
// ports sentinels.
package postgres

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/ports"
)

// Store holds accounts, sessions, API keys and the ledger in one database, so
// that provisioning an account and writing its grant share a transaction.
type Store struct {
	pool *pgxpool.Pool
}

var (
	_ ports.AccountStore = (*Store)(nil)
	_ ports.SessionStore = (*Store)(nil)
	_ ports.KeyStore     = (*Store)(nil)
	_ ports.Ledger       = (*Store)(nil)
)

// New returns a Store on pool, whose database Migrate has brought up to date.
func New(pool *pgxpool.Pool) *Store {
	return &Store{pool: pool}
}
