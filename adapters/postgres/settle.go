package postgres

// Learning the outcome of a ledger write. A statement's answer can be lost:
// the connection breaks, or the server ends the session (pg_terminate_backend
// sends FATAL 57P01) after COMMIT ran. Reading any such error as "rolled
// back" tells a caller it was not charged when it was. Ledger writes are
// idempotent by entry id instead, so a write whose outcome is unknown is
// simply sent again: if the first attempt committed, the second finds the
// same entry held and answers "already applied"; if it did not, the second
// applies it. Either way the answer matches the database. The first attempt
// cannot commit after the second answers, because both need the account's
// row lock and the id's unique index entry.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// defaultTimeout bounds a ledger write, the learning of its outcome
// included, on a Store no Config.Timeout was given to (the operator
// commands): past it the write is ports.ErrOutcomeUnknown.
const defaultTimeout = 10 * time.Second

// settleBackoff is the first pause between attempts; it doubles up to
// settleMaxBackoff, leaving a restarting server time to accept sessions.
const (
	settleBackoff    = 20 * time.Millisecond
	settleMaxBackoff = time.Second
)

// attempt makes one try at an idempotent ledger write and returns the
// balance after it. Its errors are port sentinels or raw driver errors.
type attempt func(ctx context.Context) (int64, error)

// write runs try and, if its outcome is lost, settles it, both within the
// Store's timeout and on a context no caller can cancel: the caller may
// have given up, but the answer still has to be the truth, and a database
// that does not answer must not hold the caller past the bound.
func (s *Store) write(ctx context.Context, op string, try attempt) (int64, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
	defer cancel()
	bal, err := try(ctx)
	if !outcomeUnknown(err) {
		return bal, finish(op, err)
	}
	return s.settle(ctx, op, try)
}

// settle runs try until its outcome is known or ctx ends, pausing between
// attempts.
func (s *Store) settle(ctx context.Context, op string, try attempt) (int64, error) {
	pause := settleBackoff
	for {
		bal, err := try(ctx)
		if !outcomeUnknown(err) {
			return bal, finish(op, err)
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("postgres: %s: %w (last error: %v)", op, ports.ErrOutcomeUnknown, err)
		case <-time.After(pause):
		}
		pause = min(2*pause, settleMaxBackoff)
	}
}

// finish translates a raw driver error; sentinels pass through.
func finish(op string, err error) error {
	if err == nil || isSentinel(err) {
		return err
	}
	return translate(op, err)
}

func isSentinel(err error) bool {
	for _, s := range []error{ports.ErrNotFound, ports.ErrConflict, ports.ErrInsufficientCredits, ports.ErrKeyRevoked, ports.ErrUnavailable,
		ledger.ErrInvalidEntry, idempotency.ErrKeyReused, idempotency.ErrInProgress} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// outcomeUnknown reports whether err leaves open whether the write was
// applied. Only an error the server reported for the statement on a session
// it kept open (severity ERROR, outside the connection and operator
// intervention classes) says the statement failed and wrote nothing.
func outcomeUnknown(err error) bool {
	if err == nil || isSentinel(err) {
		return false
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return true // a broken connection, a timeout, a cancelled context
	}
	class := pgErr.Code[:min(2, len(pgErr.Code))]
	return pgErr.Severity != "ERROR" || class == "08" || class == "57"
}

// isUniqueViolation reports whether err is the server refusing a duplicate.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == uniqueViolation
}
