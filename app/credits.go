package app

import (
	"context"
	"fmt"

	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// Page bounds of the credits statement.
const (
	DefaultStatementLimit = 50
	MaxStatementLimit     = 500
)

// Credits reads an account's balance and the ledger that explains it.
type Credits struct {
	ledger ports.Ledger
}

// NewCredits wires the credits use case.
func NewCredits(l ports.Ledger) *Credits { return &Credits{ledger: l} }

// Statement returns the balance and a page of entries, newest first.
func (s *Credits) Statement(ctx context.Context, accountID string, limit, offset int) (ledger.Statement, error) {
	if limit < 1 || limit > MaxStatementLimit || offset < 0 {
		return ledger.Statement{}, fmt.Errorf("%w: limit must be 1 to %d and offset at least 0", ErrValidation, MaxStatementLimit)
	}
	return s.ledger.Statement(ctx, accountID, limit, offset)
}
