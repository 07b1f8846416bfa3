package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	modernc "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// translate turns a driver error into the ports sentinel it means, prefixed
// with what was being done; a sentinel passes through as it is. The driver
// error survives only as text so that no driver type crosses a port;
// context errors stay matchable because callers tell a cancelled request
// from a failing store.
func translate(op string, err error) error {
	if err == nil || isSentinel(err) {
		return err
	}
	sentinel := classify(err)
	for _, ctxErr := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, ctxErr) {
			return fmt.Errorf("sqlite: %s: %w: %w", op, sentinel, ctxErr)
		}
	}
	return fmt.Errorf("sqlite: %s: %w: %v", op, sentinel, err)
}

// classify picks the sentinel for a driver error by its extended result
// code. Anything unrecognized is the store failing, which the caller can
// only report or retry.
func classify(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ports.ErrNotFound
	}
	var sqlErr *modernc.Error
	if !errors.As(err, &sqlErr) {
		return ports.ErrUnavailable
	}
	switch sqlErr.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return ports.ErrConflict
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		// The record refers to an account (or debit) that does not exist.
		return ports.ErrNotFound
	case sqlite3.SQLITE_CONSTRAINT_TRIGGER:
		// The append-only ledger refused to rewrite an entry.
		return ports.ErrConflict
	}
	return ports.ErrUnavailable // SQLITE_BUSY and SQLITE_LOCKED among them
}

// isSentinel reports whether err already carries the answer a port gives.
func isSentinel(err error) bool {
	for _, s := range []error{ports.ErrNotFound, ports.ErrConflict, ports.ErrInsufficientCredits, ports.ErrKeyRevoked,
		ports.ErrLimitReached, ports.ErrUnavailable, ledger.ErrInvalidEntry, idempotency.ErrKeyReused, idempotency.ErrInProgress} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
