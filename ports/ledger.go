package ports

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/ledger"
)

// Ledger is the append-only credit ledger with its cached balances.
// Implementations keep "balance equals the sum of entries" under any
// concurrency.
//
// Writes are idempotent by entry id: writing an entry whose id is already
// held with the same contents (ledger.Entry.SameAs) is "already applied" and
// returns the current balance with no error, so a write whose outcome was
// lost can be retried safely; a different entry under a taken id is
// ErrConflict. A write's answer is the truth: no error means the entry is
// kept, an error means it is not, except ErrOutcomeUnknown, returned only when
// the store stayed unreachable for as long as the adapter tried to learn the
// outcome.
type Ledger interface {
	// Debit appends a debit entry (negative amount) if and only if the balance
	// covers it and the API key it names (KeyID) is a key of the account
	// that is live at the entry's CreatedAt (not revoked, and for a browser
	// credential not expired), and returns the balance after it. It returns
	// ErrInsufficientCredits or ErrKeyRevoked, writing nothing, when not.
	// The key is checked in the debit's own atomic step, so a debit can
	// never be applied after the revocation of its key has returned: that
	// is what lets callers authenticate keys from a cache. A caller whose
	// context ends once the debit has been sent still gets the debit's true
	// outcome.
	Debit(ctx context.Context, e ledger.Entry) (int64, error)
	// Refund appends a refund entry that reverses the debit it names and
	// returns the balance after it. A debit can be refunded once: a second
	// refund under another id is ErrConflict. An unknown debit is ErrNotFound.
	Refund(ctx context.Context, e ledger.Entry) (int64, error)
	// Grant appends an operator's grant (a positive amount naming its
	// reason) to an existing account and returns the balance after it. An
	// unknown account is ErrNotFound.
	Grant(ctx context.Context, e ledger.Entry) (int64, error)
	// Balance returns the account's balance, or ErrNotFound.
	Balance(ctx context.Context, accountID string) (int64, error)
	// Statement returns the account's balance, a page of its entries
	// (newest first) and their total number, all read at one instant: a
	// concurrent debit is in all three or in none. An unknown account is
	// ErrNotFound.
	Statement(ctx context.Context, accountID string, limit, offset int) (ledger.Statement, error)
	// Usage returns what the account spent per UTC day and route on the
	// days from since (a UTC midnight) on: debits less refunds, by the day
	// each entry was written, ordered by day then route, omitting a day and
	// route whose sum is zero. An unknown account has none.
	Usage(ctx context.Context, accountID string, since time.Time) ([]ledger.Usage, error)
	// Settle learns the outcome of a write of e whose answer was lost
	// (ErrOutcomeUnknown): it reports whether e is held. It reads after any
	// write of e's account still in flight has ended, so that write cannot
	// change the answer afterwards. A different entry under e's id is
	// ErrConflict; a store that cannot answer is ErrUnavailable.
	Settle(ctx context.Context, e ledger.Entry) (bool, error)
	// Verify compares every account's balance with the sum of its entries and
	// returns the accounts where they differ.
	Verify(ctx context.Context) ([]ledger.Mismatch, error)
}
