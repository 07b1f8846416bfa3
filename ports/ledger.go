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
	// Statement returns the account's balance, a page of its entries
	// (newest first) and their total number, all read at one instant: a
	// concurrent debit is in all three or in none. An unknown account is
	// ErrNotFound.
	Statement(ctx context.Context, accountID string, limit, offset int) (ledger.Statement, error)
	// Verify compares every account's balance with the sum of its entries and
	// returns the accounts where they differ.
	Verify(ctx context.Context) ([]ledger.Mismatch, error)
}
