// Package postgres implements the account-side ports (accounts, sessions, API
// keys and the credit ledger) on PostgreSQL through pgx. It owns the schema,
// shipped as embedded migrations, and translates every driver error into the
// ports sentinels.
package postgres

import (
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/ports"
)

// Store holds accounts, sessions, API keys and the ledger in one database, so
// that provisioning an account and writing its grant share a transaction.
//
// A Store group-commits debits with one goroutine per busy account; call
// Close before closing the pool to stop them (Module does).
type Store struct {
	pool *pgxpool.Pool

	// mu guards the batchers, their queues and closed; a batcher removes
	// itself under mu once its queue is empty, so enqueueing never races
	// with a batcher that is exiting.
	mu       sync.Mutex
	batchers map[string]*batcher // by account id, while it has work; made on first use
	closed   bool
	running  sync.WaitGroup // batcher goroutines, for Close to wait on
}

var (
	_ ports.AccountStore = (*Store)(nil)
	_ ports.SessionStore = (*Store)(nil)
	_ ports.KeyStore     = (*Store)(nil)
	_ ports.Ledger       = (*Store)(nil)
)

// New returns a Store on pool, whose database Migrate has brought up to date.
// Call Close when done with it, before closing the pool.
func New(pool *pgxpool.Pool) *Store {
	return &Store{pool: pool}
}
