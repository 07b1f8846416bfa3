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

// Statement is a balance and one page of the entries behind it.
type Statement struct {
	Balance int64
	Entries []ledger.Entry
	Total   int
}

// Statement returns the balance and a page of entries, newest first.
func (s *Credits) Statement(ctx context.Context, accountID string, limit, offset int) (Statement, error) {
	if limit < 1 || limit > MaxStatementLimit || offset < 0 {
		return Statement{}, fmt.Errorf("%w: limit must be 1 to %d and offset at least 0", ErrValidation, MaxStatementLimit)
	}
	bal, err := s.ledger.Balance(ctx, accountID)
	if err != nil {
		return Statement{}, err
	}
	entries, total, err := s.ledger.Entries(ctx, accountID, limit, offset)
	if err != nil {
		return Statement{}, err
	}
	return Statement{Balance: bal, Entries: entries, Total: total}, nil
}
