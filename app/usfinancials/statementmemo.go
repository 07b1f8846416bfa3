package usfinancials

import (
	"slices"
	"sync"
	"time"

	"github.com/quarrydata/quarry/app/readcache"

	"github.com/quarrydata/quarry/domain/financials"
)

// statementMemo keeps a company's statements as computed from its facts
// for one last known day: Know depends on as_of only through that day
// (financials.LastKnownDay), and its rows only on Know, so building them
// once per company, facts and day answers every request of that day alike.
// A day's worth of requests for one company is one entry, since the
// default as_of (now) changes its last known day daily. An entry is used
// only for the very facts it was computed from, so a company ingested
// again is computed afresh however it reached the store.
type statementMemo struct {
	memo *readcache.Memo[[]financials.Fact, *knownStatements]
}

// knownStatements is one company's facts as known on one day, and the
// statement rows built from them so far.
type knownStatements struct {
	known financials.Known

	mu   sync.Mutex
	rows map[statementKind][]financials.Row
}

type statementKind struct {
	statement financials.Statement
	period    financials.Period
}

// newStatementMemo keeps statements in shared, nowhere when it is nil. An
// entry is weighed at twice the company's facts: Know keeps the known ones
// by key.
func newStatementMemo(shared *readcache.Cache) statementMemo {
	return statementMemo{memo: readcache.NewMemo(shared, slices.Equal[[]financials.Fact],
		func(facts []financials.Fact, _ *knownStatements) int {
			return 2 * companyWeight(financials.Company{Facts: facts})
		})}
}

// know returns the company's facts known at asOf, from the memo when it
// holds them for the same facts and day.
func (m statementMemo) know(c financials.Company, asOf time.Time) *knownStatements {
	return m.memo.Get(c.CIK+" "+financials.LastKnownDay(asOf), c.Facts, func([]financials.Fact) *knownStatements {
		return &knownStatements{known: financials.Know(c, asOf), rows: map[statementKind][]financials.Row{}}
	})
}

// statement returns the rows of one statement and period kind, newest
// first, building them on first use. Callers must not modify them.
func (k *knownStatements) statement(st financials.Statement, p financials.Period) []financials.Row {
	k.mu.Lock()
	defer k.mu.Unlock()
	kind := statementKind{st, p}
	rows, ok := k.rows[kind]
	if !ok {
		rows = k.known.Statement(st, p)
		k.rows[kind] = rows
	}
	return rows
}
