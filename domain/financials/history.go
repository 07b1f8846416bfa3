package financials

import (
	"cmp"
	"maps"
	"slices"
	"time"
)

// History is one statement of one period kind of a company through its
// filing dates: what each filing date changed in its rows. The rows Build
// gives at any instant are the versions of the filing dates it knows,
// applied in order (At), so a request for any as_of reads this rather than
// every fact the company ever filed.
type History struct {
	Statement Statement
	Period    Period
	// Through is the latest filing date among the company's facts
	// (LastFiled), whether or not it changed this statement.
	Through string
	// Versions are in filing date order, one for each date that changed a
	// row of the statement.
	Versions []Version
}

// Version is what one filing date changed in a statement: from the end of
// Filed on (KnownFrom), each row of Rows is the row of its report period
// (RowKey), new or replacing the one before, and the periods of Gone have
// no row any more.
type Version struct {
	Filed string
	Rows  []Row
	Gone  []Span
}

// Span is a row's report period: start and end for a flow, end alone
// for a balance sheet. A trailing twelve months row is one per end, so its
// Span has no start (see RowKey).
type Span struct{ Start, End string }

// RowKey is the report period a row of that period kind stands for.
func RowKey(p Period, r Row) Span {
	if p == TTM {
		return Span{End: r.End}
	}
	return Span{r.Start, r.End}
}

// At returns the rows known at asOf, newest report period first: the rows
// Build gives for the statement at asOf.
func (h History) At(asOf time.Time) []Row {
	return h.through(LastKnownDay(asOf))
}

// Latest returns the statement as known from the latest filing date on.
func (h History) Latest() Latest {
	return Latest{Statement: h.Statement, Period: h.Period, Through: h.Through, Rows: h.through(h.Through)}
}

// through applies the versions filed on or before the day.
func (h History) through(last string) []Row {
	rows := map[Span]Row{}
	for _, v := range h.Versions {
		if v.Filed > last {
			break
		}
		for _, r := range v.Rows {
			rows[RowKey(h.Period, r)] = r
		}
		for _, s := range v.Gone {
			delete(rows, s)
		}
	}
	out := slices.Collect(maps.Values(rows))
	sortRows(out)
	return out
}

// sortRows orders rows newest report period first, as Statement does.
func sortRows(rows []Row) {
	slices.SortFunc(rows, func(a, b Row) int { return cmp.Or(cmp.Compare(b.End, a.End), cmp.Compare(b.Start, a.Start)) })
}

// HistoryOf returns the history of every statement of every period kind of
// the company, statements in the order of Statements and, within each,
// periods in the order of Periods. It learns the facts one filing date at
// a time and rebuilds only the rows the facts of that date can change, so
// it costs about what one Know does, not one per filing date; each version
// applied in turn gives what Build gives at that date (see history_test.go,
// which checks it at every filing date).
func HistoryOf(c Company) []History {
	l := newLearner(c)
	var books []*book
	out := make([]History, 0, len(Statements)*len(Periods))
	for _, st := range Statements {
		for _, p := range Periods {
			books = append(books, newBook(st, p))
			out = append(out, History{Statement: st, Period: p, Through: LastFiled(c.Facts)})
		}
	}
	for _, d := range l.days {
		ch := l.learn(d)
		for i, b := range books {
			if v, ok := b.update(l, ch, d); ok {
				out[i].Versions = append(out[i].Versions, v)
			}
		}
	}
	return out
}

// HistoryStatement returns the history of one statement and period kind of
// HistoryOf; one it does not list has no version.
func HistoryStatement(c Company, st Statement, p Period) History {
	for _, h := range HistoryOf(c) {
		if h.Statement == st && h.Period == p {
			return h
		}
	}
	return History{Statement: st, Period: p, Through: LastFiled(c.Facts)}
}
