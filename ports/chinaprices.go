package ports

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
)

// BarQuery asks for one page of a listing's bars as known at AsOf.
type BarQuery struct {
	// Code is canonical ("SSE.600519").
	Code string
	// From and To bound the trade dates, inclusive, as YYYY-MM-DD; empty
	// means unbounded.
	From, To      string
	AsOf          time.Time
	Offset, Limit int
}

// ChinaPriceStore holds A-share daily bars as versions, each identified by
// its code, trade date and KnownAt, and each listing's adjustment steps
// (ashare.Steps). Versions are never overwritten by later ones: a bar
// corrected later keeps its first published values for readers before the
// correction's KnownAt. KnownAt is kept to the millisecond, the precision
// of a BSON date.
type ChinaPriceStore interface {
	// UpdateSeries changes one listing's history: change is handed every
	// version held for code (none for a new code) and returns the versions
	// to add and the listing's steps after them, which replace those held.
	// Adding a version already held (same trade date and KnownAt) replaces
	// it, so applying the same change twice leaves the store unchanged.
	// Updates of one code do not interleave.
	UpdateSeries(ctx context.Context, code string, change func(held []ashare.Bar) (add []ashare.Bar, steps []ashare.Step, err error)) error
	// Bars returns one page of the code's bars known at q.AsOf whose trade
	// dates fall in [q.From, q.To], oldest first: for each date, the version
	// with the latest KnownAt not after q.AsOf. It skips q.Offset bars,
	// returns at most q.Limit, and more says whether another follows.
	Bars(ctx context.Context, q BarQuery) (bars []ashare.Bar, more bool, err error)
	// Versions returns every version held for code, in trade date then
	// KnownAt order; none when no bar of the code is held.
	Versions(ctx context.Context, code string) ([]ashare.Bar, error)
	// Steps returns every step version of the code, or ErrNotFound when no
	// bar of the code is held.
	Steps(ctx context.Context, code string) ([]ashare.Step, error)
	// CountSeries returns how many listings have bars.
	CountSeries(ctx context.Context) (int64, error)
}
