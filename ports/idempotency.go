package ports

import (
	"context"
	"io"
	"time"

	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
)

// Begun is what Begin answers: either the request was charged (Started,
// with the balance after its debit) or its key holds a complete response of
// the same request (Replay), which costs nothing.
type Begun struct {
	Started bool
	Balance int64
	Replay  idempotency.Record
}

// IdempotencyStore holds Idempotency-Key claims and the responses they
// replay. It shares the ledger's store: a claim is taken in the same
// transaction as the debit it is charged with, so there is never a debit
// without its claim nor a claim without its debit.
type IdempotencyStore interface {
	// Begin claims c.Key for c.AccountID and applies debit (whose id is
	// c.DebitID) atomically, when no live record holds the key; a record
	// that has expired at c.At is dropped first. When a live record holds
	// it, nothing is written and idempotency.Decide says the answer:
	// ErrKeyReused (wrapped), ErrInProgress (wrapped), or, for a complete
	// record of the same request, Begun.Replay. Begin is idempotent by
	// debit id: when the record is c's own (a retry after a lost answer)
	// it answers Started with the current balance. The debit's refusals are
	// the Ledger's: ErrInsufficientCredits, ErrKeyRevoked, ErrNotFound,
	// and nothing is claimed then.
	Begin(ctx context.Context, c idempotency.Claim, debit ledger.Entry) (Begun, error)
	// Complete records the response of c's request, with its body read
	// from body when resp.Stored, and the key is replayed from then on.
	// It returns ErrNotFound when c no longer holds the key (its lease
	// lapsed and another request took it).
	Complete(ctx context.Context, c idempotency.Claim, resp idempotency.Response, body io.Reader) error
	// Release drops c's claim, when it still holds the key, so that the
	// key can be used again: the request failed and was refunded.
	Release(ctx context.Context, c idempotency.Claim) error
	// WriteBody writes the kept body of a complete record to w, in order.
	// ErrNotFound when the record or its body is gone.
	WriteBody(ctx context.Context, r idempotency.Record, w io.Writer) error
	// Sweep deletes the records, bodies included, that expired before
	// now, and says how many.
	Sweep(ctx context.Context, now time.Time) (int, error)
}
