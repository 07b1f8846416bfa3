package app

import (
	"slices"
	"sync"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/quarrydata/quarry/domain/financials"
)

// statementMemoBytes bounds the companies (each at one knowledge day) whose
// statements are kept, by about the memory they hold (twice the company's
// facts: Know keeps the known ones by key); a day's worth of requests for
// one company is one entry, since the default as_of (now) changes its last
// known day daily.
const statementMemoBytes = 64 << 20

// statementMemo keeps a company's statements as computed from its facts
// for one last known day: Know depends on as_of only through that day
// (financials.LastKnownDay), and its rows only on Know, so building them
// once per company, facts and day answers every request of that day alike.
// An entry is used only for the very facts it was computed from, compared
// on every use, so a company ingested again is computed afresh however it
// reached the store.
type statementMemo struct {
	entries *otter.Cache[string, *knownStatements]
}

// knownStatements is one company's facts as known on one day, and the
// statement rows built from them so far.
type knownStatements struct {
	facts []financials.Fact
	known financials.Known

	mu   sync.Mutex
	rows map[statementKind][]financials.Row
}

type statementKind struct {
	statement financials.Statement
	period    financials.Period
}

func newStatementMemo() *statementMemo {
	return &statementMemo{entries: otter.Must(&otter.Options[string, *knownStatements]{
		MaximumWeight: statementMemoBytes,
		Weigher: func(_ string, k *knownStatements) uint32 {
			return uint32(min(2*companyWeight(financials.Company{Facts: k.facts}), 1<<31))
		},
	})}
}

// know returns the company's facts known at asOf, from the memo when it
// holds them for the same facts and day.
func (m *statementMemo) know(c financials.Company, asOf time.Time) *knownStatements {
	key := c.CIK + " " + financials.LastKnownDay(asOf)
	if e, ok := m.entries.GetIfPresent(key); ok && slices.Equal(e.facts, c.Facts) {
		return e
	}
	e := &knownStatements{facts: c.Facts, known: financials.Know(c, asOf), rows: map[statementKind][]financials.Row{}}
	m.entries.Set(key, e)
	return e
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
