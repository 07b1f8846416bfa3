// Package ports declares the interfaces the use cases need from storage, and
// the sentinel errors every adapter translates its driver errors into.
// Adapters wrap these with %w; callers test them with errors.Is.
package ports

import (
	"errors"
	"fmt"
)

// Sentinel errors shared by every port.
var (
	// ErrNotFound: the requested record does not exist (or is not the caller's).
	ErrNotFound = errors.New("not found")
	// ErrConflict: a record with the same unique identity already exists.
	ErrConflict = errors.New("conflict")
	// ErrInsufficientCredits: a debit would take the balance below zero.
	ErrInsufficientCredits = errors.New("insufficient credits")
	// ErrKeyRevoked: the API key a debit names is revoked, or is not a key
	// of the debited account; the debit wrote nothing.
	ErrKeyRevoked = errors.New("API key revoked")
	// ErrLimitReached: the write would exceed a limit the store enforces.
	ErrLimitReached = errors.New("limit reached")
	// ErrUnavailable: the backing store cannot be reached or failed.
	ErrUnavailable = errors.New("store unavailable")
	// ErrNotMigrated: the store answers but lacks the schema this release
	// needs; an operator applies its migrations.
	ErrNotMigrated = errors.New("not migrated")
	// ErrOutcomeUnknown: a write was sent but the store stayed unreachable
	// for as long as the adapter tried to learn whether it was applied. It
	// also wraps ErrUnavailable.
	ErrOutcomeUnknown = fmt.Errorf("outcome unknown: %w", ErrUnavailable)
)
