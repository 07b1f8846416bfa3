package ports

import (
	"context"

	"github.com/quarrydata/quarry/domain/holdings"
)

// FundHoldingStore holds the US securities master and the 13F filings that
// report funds' positions. Rows are read per security, the only way the
// funds lookup reads them; filtering, ordering and paging are the caller's.
type FundHoldingStore interface {
	// UpsertMasterSecurities inserts or replaces securities under every
	// key of each (ticker, CUSIP, CIK). Later entries of the batch win a
	// shared key, so the caller orders the batch.
	UpsertMasterSecurities(ctx context.Context, secs []holdings.Security) error
	// MasterSecurity returns the security stored under key, or ErrNotFound.
	MasterSecurity(ctx context.Context, key holdings.Key) (holdings.Security, error)
	// ReplaceThirteenFFilings stores each filing whole: rows a previous load of the
	// same accession number held and this one lacks are removed, so loading
	// the same filing twice changes nothing. The filings are one batch: a
	// reader sees each of them in its version before the call or after it,
	// whole, even when the write stops part way; loading them again
	// completes it.
	ReplaceThirteenFFilings(ctx context.Context, filings []holdings.Filing) error
	// FundHoldingsOf returns every row in the CUSIP whose report period lies in
	// [from, to] (YYYY-MM-DD, inclusive; empty is unbounded), in no order,
	// and the reports of every fund and period those rows belong to: each
	// filing the fund made for the period, whether or not it reports the
	// CUSIP (a restatement may drop a position), so the caller can tell
	// which of them was current at an instant.
	FundHoldingsOf(ctx context.Context, cusip, from, to string) ([]holdings.Holding, []holdings.Report, error)
	// ThirteenFFilingCUSIPs returns the CUSIPs the filing reports, sorted, or
	// ErrNotFound for a filing that is not held.
	ThirteenFFilingCUSIPs(ctx context.Context, accession string) ([]string, error)
	// CountThirteenFFilings returns how many filings are held.
	CountThirteenFFilings(ctx context.Context) (int64, error)
}
