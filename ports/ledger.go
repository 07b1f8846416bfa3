package ports

import (
	"context"

	"github.com/quarrydata/quarry/domain/ledger"
)

// Ledger is the append-only credit ledger with its cached balances.
// Implementations keep "balance equals the sum of entries" under any
// concurrency.
type Ledger interface {
	// Debit appends a debit entry (negative amount) if and only if the balance
	// covers it, and returns the balance after it. It returns
	// ErrInsufficientCredits, writing nothing, when it does not.
	Debit(ctx context.Context, e ledger.Entry) (int64, error)
	// Refund appends a refund entry that reverses the debit it names and
	// returns the balance after it. A debit can be refunded once: a second
	// refund is ErrConflict. An unknown debit is ErrNotFound.
	Refund(ctx context.Context, e ledger.Entry) (int64, error)
	// Balance returns the account's balance, or ErrNotFound.
	Balance(ctx context.Context, accountID string) (int64, error)
	// Entries returns a page of the account's entries, newest first, and the
	// total number of entries.
	Entries(ctx context.Context, accountID string, limit, offset int) ([]ledger.Entry, int, error)
	// Verify compares every account's balance with the sum of its entries and
	// returns the accounts where they differ.
	Verify(ctx context.Context) ([]ledger.Mismatch, error)
}
