package ports

import (
	"context"

	"github.com/quarrydata/quarry/domain/holdings"
)

// FundHoldingStore holds the US securities master and the 13F filings that
// report funds' positions. Rows are read per security, one page at a time,
// the only way the funds lookup reads them.
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
	// FundHolders returns one page of the CUSIP's holders and the number of
	// positions matched, exactly as holdings.Select chooses them from every
	// row in the CUSIP and every report of the funds and periods those rows
	// belong to. A store reads what the page needs, not every holder ever.
	FundHolders(ctx context.Context, cusip string, q holdings.Query) ([]holdings.Holding, int, error)
	// ThirteenFFilingCUSIPs returns the CUSIPs the filing reports, sorted, or
	// ErrNotFound for a filing that is not held.
	ThirteenFFilingCUSIPs(ctx context.Context, accession string) ([]string, error)
	// HoldsThirteenFFilings reports whether any filing is held, reading
	// one, as FilingStore.HoldsFilings does.
	HoldsThirteenFFilings(ctx context.Context) (bool, error)
}
