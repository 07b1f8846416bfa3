package ports

import (
	"context"

	"github.com/quarrydata/quarry/domain/financials"
)

// FinancialsStore holds US filers and their XBRL facts, keyed by 10-digit
// CIK, and the tickers that name them. A company's RetrievedAt is kept to
// the millisecond, the precision of a BSON date.
type FinancialsStore interface {
	// UpsertCompanies replaces each company, facts and all, by CIK and points
	// each of its tickers at it, and keeps its statements through its
	// filing dates (financials.HistoryOf) for StatementHistory, and as known
	// from its latest filing date for LatestStatement. Applying the same
	// batch twice leaves the store unchanged.
	UpsertCompanies(ctx context.Context, companies []financials.Company) error
	// LatestStatement returns one statement of one period kind of the
	// company with that 10-digit CIK as financials.LatestStatement computes it from
	// the company's stored facts, and the company without its facts (CIK,
	// tickers, name, RetrievedAt); ErrNotFound when no company has that CIK.
	LatestStatement(ctx context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.Latest, error)
	// StatementHistory returns one statement of one period kind of the
	// company with that 10-digit CIK through its filing dates, as
	// financials.HistoryOf computes it from the company's stored facts, and
	// the company without its facts; ErrNotFound when no company has that
	// CIK.
	StatementHistory(ctx context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.History, error)
	// Company returns the company with that 10-digit CIK, or ErrNotFound.
	Company(ctx context.Context, cik string) (financials.Company, error)
	// CIKForTicker returns the CIK an upper-case ticker names, or ErrNotFound.
	CIKForTicker(ctx context.Context, ticker string) (string, error)
	// CIKsForName returns, sorted, the CIKs of the companies that name
	// names by financials.NameMatches (its whole name or its first words,
	// compared by financials.NameKey); none is an empty result, not an error.
	CIKsForName(ctx context.Context, name string) ([]string, error)
	// SearchCompanies returns, by CIK, the companies from offset on that q
	// matches (financials.CompanySearch.Matches), without their facts (CIK,
	// tickers, name, RetrievedAt), at most limit of them, and whether more
	// match after them; none is not an error.
	SearchCompanies(ctx context.Context, q financials.CompanySearch, offset, limit int) ([]financials.Company, bool, error)
	// CountCompanies returns how many companies are held.
	CountCompanies(ctx context.Context) (int64, error)
}
