package platform

import (
	"context"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// Page bounds of the credits statement.
const (
	DefaultStatementLimit = 50
	MaxStatementLimit     = 500
)

// UsageDays is how many days, today included, the usage chart covers.
const UsageDays = 30

// Credits reads an account's balance and the ledger that explains it.
type Credits struct {
	ledger ports.Ledger
	now    usecase.Clock
}

// NewCredits wires the credits use case.
func NewCredits(l ports.Ledger, now usecase.Clock) *Credits { return &Credits{ledger: l, now: now} }

// Usage is what an account spent per day and route over the UsageDays days
// ending today (UTC), and the first of those days.
type Usage struct {
	From time.Time
	Rows []ledger.Usage
}

// Usage returns what the account spent per UTC day and route over the last
// UsageDays days, today included.
func (s *Credits) Usage(ctx context.Context, accountID string) (Usage, error) {
	from := ledger.Day(s.now()).AddDate(0, 0, 1-UsageDays)
	rows, err := s.ledger.Usage(ctx, accountID, from)
	return Usage{From: from, Rows: rows}, err
}

// Statement returns the balance and a page of entries, newest first.
func (s *Credits) Statement(ctx context.Context, accountID string, limit, offset int) (ledger.Statement, error) {
	if limit < 1 || limit > MaxStatementLimit || offset < 0 {
		return ledger.Statement{}, fmt.Errorf("%w: limit must be 1 to %d and offset at least 0", usecase.ErrValidation, MaxStatementLimit)
	}
	return s.ledger.Statement(ctx, accountID, limit, offset)
}
