// Package ledger holds the rules of the append-only credit ledger: the kinds of
// entry, their signs, and the invariant that a balance is the sum of entries.
package ledger

import (
	"errors"
	"time"
)

// Kind classifies a ledger entry.
type Kind string

// The three kinds of entry. A grant adds credits, a debit charges a request,
// and a refund reverses a debit whose request ended in an error.
const (
	Grant  Kind = "grant"
	Debit  Kind = "debit"
	Refund Kind = "refund"
)

// ErrInvalidEntry reports an entry whose amount has the wrong sign for its kind
// or that lacks the attribution its kind needs.
var ErrInvalidEntry = errors.New("invalid ledger entry")

// Entry is one immutable line of an account's ledger. Amount is signed:
// grants and refunds are positive, debits negative.
type Entry struct {
	ID        string
	AccountID string
	Kind      Kind
	Amount    int64
	Route     string
	KeyID     string
	RequestID string
	// RefundOf names the debit a refund reverses; empty for other kinds.
	RefundOf string
	// Reason says why an operator granted credits; empty for other entries.
	Reason    string
	CreatedAt time.Time
}

// SameAs reports whether o is e written again: the same id, account, kind,
// amount and attribution. An id is written once, so a second write of the
// same entry is "already applied" (as TigerBeetle answers "exists"), and a
// different entry under a taken id is a conflict. The time is not compared:
// it is the writer's clock, not part of what was agreed.
func (e Entry) SameAs(o Entry) bool {
	return e.ID == o.ID && e.AccountID == o.AccountID && e.Kind == o.Kind && e.Amount == o.Amount &&
		e.Route == o.Route && e.KeyID == o.KeyID && e.RequestID == o.RequestID &&
		e.RefundOf == o.RefundOf && e.Reason == o.Reason
}

// Validate checks the sign and attribution rules of the entry's kind.
func (e Entry) Validate() error {
	switch e.Kind {
	case Grant:
		if e.Amount <= 0 {
			return errors.Join(ErrInvalidEntry, errors.New("grant must be positive"))
		}
	case Debit:
		if e.Amount >= 0 || e.Route == "" || e.KeyID == "" {
			return errors.Join(ErrInvalidEntry, errors.New("debit must be negative and name its route and key"))
		}
	case Refund:
		if e.Amount <= 0 || e.RefundOf == "" {
			return errors.Join(ErrInvalidEntry, errors.New("refund must be positive and name its debit"))
		}
	default:
		return errors.Join(ErrInvalidEntry, errors.New("unknown kind"))
	}
	return nil
}

// NewRefund builds the entry that reverses debit, with the given id and time.
func NewRefund(debit Entry, id string, at time.Time) Entry {
	return Entry{
		ID:        id,
		AccountID: debit.AccountID,
		Kind:      Refund,
		Amount:    -debit.Amount,
		Route:     debit.Route,
		KeyID:     debit.KeyID,
		RequestID: debit.RequestID,
		RefundOf:  debit.ID,
		CreatedAt: at,
	}
}

// Sum returns the total of the entries' amounts: by the ledger's invariant,
// the balance they explain.
func Sum(entries []Entry) int64 {
	var total int64
	for _, e := range entries {
		total += e.Amount
	}
	return total
}

// Statement is a balance and one page of the entries behind it, read at a
// single instant, so that with every entry in the page the balance is the
// page's sum.
type Statement struct {
	Balance int64
	Entries []Entry
	Total   int
}

// Mismatch reports an account whose stored balance differs from the sum of
// its entries.
type Mismatch struct {
	AccountID string
	Balance   int64
	Sum       int64
}

// Usage is what an account spent on one route in one UTC day: the debits of
// that day less the refunds written that day of the route's debits.
type Usage struct {
	Day     time.Time // midnight UTC
	Route   string
	Credits int64
}

// Day returns the UTC midnight that starts t's day.
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
