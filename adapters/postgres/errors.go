package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrydata/quarry/ports"
)

// SQLSTATE codes the adapter gives a meaning to.
const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
	undefinedTable      = "42P01"
	undefinedFunction   = "42883"
)

// errNotMigrated is what a query of a table or function this release's
// migrations add finds on a database that lacks them: the store answers,
// and cannot serve until an operator migrates it.
var errNotMigrated = fmt.Errorf("%w: %w", ports.ErrNotMigrated, ports.ErrUnavailable)

// translate turns a driver error into the ports sentinel it means, prefixed
// with what was being done. The driver error survives only as text so that
// no pgx type crosses a port; context errors stay matchable because callers
// tell a cancelled request from a failing store.
func translate(op string, err error) error {
	sentinel := classify(err)
	for _, ctxErr := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, ctxErr) {
			return fmt.Errorf("postgres: %s: %w: %w", op, sentinel, ctxErr)
		}
	}
	return fmt.Errorf("postgres: %s: %w: %v", op, sentinel, err)
}

// classify picks the sentinel for a driver error. Anything unrecognized is
// the store failing, which the caller can only report or retry.
func classify(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ports.ErrNotFound
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case uniqueViolation:
			return ports.ErrConflict
		case foreignKeyViolation:
			// The record refers to an account (or debit) that does not exist.
			return ports.ErrNotFound
		case undefinedTable, undefinedFunction:
			return errNotMigrated
		}
	}
	return ports.ErrUnavailable
}
