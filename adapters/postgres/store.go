// Package postgres implements the account-side ports (accounts, sessions, API
// keys and the credit ledger) on PostgreSQL through pgx. It owns the schema,
// shipped as embedded migrations, and translates every driver error into the
// ports sentinels.
package postgres

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/adapters/internal/groupcommit"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// Store holds accounts, sessions, API keys and the ledger in one database, so
// that provisioning an account and writing its grant share a transaction.
//
// A Store group-commits debits with one goroutine per busy account; call
// Close before closing the pool to stop them (Module does).
type Store struct {
	pool *pgxpool.Pool
	// debits queues debits by account id for group commit (batch.go).
	debits *groupcommit.Queue[string, ledger.Entry, debitResult]
	// timeout bounds a ledger write, learning its outcome included.
	timeout time.Duration
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
	s := &Store{pool: pool, timeout: defaultTimeout}
	s.debits = groupcommit.New(maxBatch, s.commitDebits)
	return s
}

// WithTimeout bounds each ledger write, the learning of a lost outcome
// included, to d: past it the write is ports.ErrOutcomeUnknown, which the
// caller settles (ports.Ledger.Settle). Zero keeps the default of 10 s.
func (s *Store) WithTimeout(d time.Duration) *Store {
	if d > 0 {
		s.timeout = d
	}
	return s
}
