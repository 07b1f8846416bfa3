package ports

import (
	"context"
	"iter"
	"time"

	"github.com/quarrydata/quarry/domain/nse"
)

// IndiaRowQuery asks for one security's rows in one series as known at
// AsOf.
type IndiaRowQuery struct {
	ISIN, Series string
	// From and To bound the dates, inclusive, as YYYY-MM-DD; empty means
	// unbounded.
	From, To string
	AsOf     time.Time
}

// IndiaPriceStore holds NSE daily rows as versions, each identified by its
// ISIN, series, date and KnownAt (kept to the millisecond). Versions are
// never overwritten by later ones: a row corrected later keeps its first
// published values for readers before the correction's KnownAt.
type IndiaPriceStore interface {
	// Add stores versions in bulk. Adding a version already held (same
	// ISIN, series, date and KnownAt) replaces it, so adding the same rows
	// twice leaves the store unchanged.
	Add(ctx context.Context, rows []nse.Row) error
	// OnDate returns every version held for a date, of every security, in
	// no particular order: ingestion compares a day's file with it.
	OnDate(ctx context.Context, date string) ([]nse.Row, error)
	// Rows yields the rows of q.ISIN in q.Series known at q.AsOf whose
	// dates fall in [q.From, q.To], oldest first: for each date the version
	// with the latest KnownAt not after q.AsOf. It streams: however many
	// rows the range holds, it keeps a bounded number in memory. Stopping
	// early releases what it holds.
	Rows(ctx context.Context, q IndiaRowQuery) iter.Seq2[nse.Row, error]
	// ISINOf returns the ISIN of the latest version, by date, carrying
	// symbol in series (any series when empty) with a date on or before
	// onOrBefore and a KnownAt not after asOf; ErrNotFound when there is
	// none.
	ISINOf(ctx context.Context, symbol, series, onOrBefore string, asOf time.Time) (string, error)
	// Holds reports whether any version of isin in series is held.
	Holds(ctx context.Context, isin, series string) (bool, error)
	// Count returns how many versions are held.
	Count(ctx context.Context) (int64, error)
}
