package sqlite

// Transactions, and learning the outcome of a ledger write. On the writer
// handle every transaction starts with BEGIN IMMEDIATE, so it holds the
// write lock from its first statement and never fails half-way for want of
// it. A transaction whose function fails is rolled back and wrote nothing.
// A COMMIT that fails inside SQLite (an I/O error while the WAL is written
// or synced) may still be found committed once the file is recovered, so
// its outcome is unknown: ledger writes are idempotent by entry id, and such
// a write is sent again until an answer says what the database holds, as
// the PostgreSQL adapter does when a connection breaks.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/ports"
)

// settleTimeout bounds how long a write of unknown outcome is retried
// before ports.ErrOutcomeUnknown is answered.
const settleTimeout = 10 * time.Second

// settleBackoff is the first pause between attempts; it doubles up to
// settleMaxBackoff.
const (
	settleBackoff    = 20 * time.Millisecond
	settleMaxBackoff = time.Second
)

// commitError is a COMMIT that SQLite itself failed: the transaction may or
// may not be in the file.
type commitError struct{ err error }

func (e *commitError) Error() string { return "commit: " + e.err.Error() }
func (e *commitError) Unwrap() error { return e.err }

// inTx runs fn in one transaction on db and commits it. A COMMIT refused
// before it reached SQLite (the context ended first, so database/sql rolls
// the transaction back) wrote nothing; one SQLite failed is a *commitError.
func inTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	err = tx.Commit()
	if err == nil || errors.Is(err, sql.ErrTxDone) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &commitError{err}
}

// write runs fn in a write transaction and translates its error.
func (s *Store) write(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	return translate(op, inTx(ctx, s.writer, fn))
}

// attempt makes one try at an idempotent ledger write in the transaction
// it is given and returns the balance after it. Its errors are port
// sentinels (a refusal: nothing is written) or driver errors.
type attempt func(ctx context.Context, tx *sql.Tx) (int64, error)

// writeLedger runs try in a write transaction on the caller's context and,
// if its COMMIT failed, settles it on a context of its own: the caller may
// have given up, but the answer still has to be the truth.
func (s *Store) writeLedger(ctx context.Context, op string, try attempt) (int64, error) {
	bal, err := s.once(ctx, try)
	if !outcomeUnknown(err) {
		return bal, translate(op, err)
	}
	settleCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
	defer cancel()
	return s.settle(settleCtx, op, try)
}

// once runs try in one write transaction.
func (s *Store) once(ctx context.Context, try attempt) (int64, error) {
	var bal int64
	err := inTx(ctx, s.writer, func(tx *sql.Tx) error {
		var err error
		bal, err = try(ctx, tx)
		return err
	})
	return bal, err
}

// settle runs try until an attempt completes or ctx ends, pausing between
// attempts. An attempt after a lost COMMIT finds the entry held (already
// applied) or applies it; one that fails in another way says nothing of
// the attempts before it.
func (s *Store) settle(ctx context.Context, op string, try attempt) (int64, error) {
	pause := settleBackoff
	for {
		bal, err := s.once(ctx, try)
		if err == nil || isSentinel(err) {
			return bal, translate(op, err)
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("sqlite: %s: %w (last error: %v)", op, ports.ErrOutcomeUnknown, err)
		case <-time.After(pause):
		}
		pause = min(2*pause, settleMaxBackoff)
	}
}

// outcomeUnknown reports whether err leaves open whether the write was
// applied.
func outcomeUnknown(err error) bool {
	var c *commitError
	return errors.As(err, &c)
}
