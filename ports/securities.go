package ports

import (
	"context"

	"github.com/quarrydata/quarry/domain/ashare"
)

// SecurityStore holds China A-share listings keyed by canonical code.
type SecurityStore interface {
	// Security returns the listing with that canonical code, or ErrNotFound.
	Security(ctx context.Context, code string) (ashare.Security, error)
	// UpsertSecurities inserts or replaces listings by code; applying the same
	// batch twice leaves the store unchanged.
	UpsertSecurities(ctx context.Context, s []ashare.Security) error
	// SecuritiesByName returns the listings whose company_name is exactly
	// name, ordered by code; none is not an error.
	SecuritiesByName(ctx context.Context, name string) ([]ashare.Security, error)
	// SearchSecurities returns, by code, the listings from offset on that
	// q matches (ashare.Search.Matches), at most limit of them, and whether
	// more match after them; none is not an error.
	SearchSecurities(ctx context.Context, q ashare.Search, offset, limit int) ([]ashare.Security, bool, error)
	// CountSecurities returns how many listings are held.
	CountSecurities(ctx context.Context) (int64, error)
}
