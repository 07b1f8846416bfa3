package financials

import "time"

// Latest is one statement of one period kind of a company as known from
// its latest filing date on: the rows Build gives at any instant whose last
// known day (LastKnownDay) is Through or later, since by then every fact
// of the company is known. Computing it once per company, when its facts
// are written, lets a request for today's statements read its answer
// rather than the company's whole history.
type Latest struct {
	Statement Statement
	Period    Period
	// Through is the latest filing date among the facts, YYYY-MM-DD;
	// empty when no fact has one (then no instant knows any row).
	Through string
	// Rows are newest report period first, as Build orders them.
	Rows []Row
}

// Periods lists the period kinds of the interface.
var Periods = []Period{Annual, Quarterly, TTM}

// Statements lists the statement collections of the interface.
var Statements = []Statement{Income, Balance, CashFlow}

// LatestStatement returns one statement of one period kind of the company
// as known from its latest filing date on.
func LatestStatement(c Company, st Statement, p Period) Latest {
	through := LastFiled(c.Facts)
	return Latest{Statement: st, Period: p, Through: through, Rows: Know(c, latestInstant(through)).Statement(st, p)}
}

// latestInstant is an instant whose last known day is through: any such
// instant knows the same facts (see LastKnownDay). With no filing date,
// the zero time knows none, as every instant does.
func latestInstant(through string) time.Time {
	t, err := KnownFrom(through)
	if err != nil {
		return time.Time{}
	}
	return t
}

// LastFiled returns the latest filing date among the facts KnownAt can
// know, YYYY-MM-DD, or "" when there is none.
func LastFiled(facts []Fact) string {
	last := ""
	for _, f := range facts {
		if len(f.Filed) == len(time.DateOnly) && f.Filed > last {
			last = f.Filed
		}
	}
	return last
}

// Covers reports whether the rows known at asOf are l's: whether asOf's
// last known day is on or after l.Through. Before it, some fact of the
// company was not yet public and the rows must be built from the facts.
func (l Latest) Covers(asOf time.Time) bool {
	return LastKnownDay(asOf) >= l.Through
}
