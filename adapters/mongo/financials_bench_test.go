package mongo_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	"github.com/quarrydata/quarry/adapters/memory"
	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// BenchmarkColdStatements measures one cold GET /us/financials (three
// statements, limit 4, nothing memoized) for the companyfacts document named
// by QUARRY_BENCH_COMPANYFACTS, on memory and on the embedded data
// directory's FerretDB: as of now, which reads the statements stored as
// known from the latest filing, and as of a year before the latest filing,
// which builds them from the facts.
func BenchmarkColdStatements(b *testing.B) {
	c := benchCompany(b)
	now := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	last, err := time.Parse(time.DateOnly, financials.LastFiled(c.Facts))
	if err != nil {
		b.Fatal(err)
	}
	for _, at := range []struct {
		name string
		asOf time.Time
	}{{"now", now}, {"year-before-latest-filing", last.AddDate(-1, 0, 0)}} {
		b.Run(at.name, func(b *testing.B) { benchStores(b, c, now, at.asOf) })
	}
}

// benchStores runs benchStatements on memory and on a data directory.
func benchStores(b *testing.B, c financials.Company, now, asOf time.Time) {
	b.Run("memory", func(b *testing.B) { benchStatements(b, memory.NewFinancials(), c, now, asOf) })
	b.Run("datadir", func(b *testing.B) {
		benchStatements(b, mongoadapter.NewFinancials(embeddedDB(b)), c, now, asOf)
	})
}

func benchStatements(b *testing.B, store ports.FinancialsStore, c financials.Company, now, asOf time.Time) {
	ctx := context.Background()
	if err := store.UpsertCompanies(ctx, []financials.Company{c}); err != nil {
		b.Fatal(err)
	}
	fin := usfinancials.New(store, func() time.Time { return now }, nil)
	q, err := fin.Query(usfinancials.Params{CIK: c.CIK, Limit: 4, AsOf: asOf.Format(time.DateOnly)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		st, err := fin.Statements(ctx, q, financials.Income, financials.Balance, financials.CashFlow)
		if err != nil || len(st.Pages[financials.Income].Rows) == 0 {
			b.Fatal(err, st)
		}
	}
}

// benchCompany reads the companyfacts document QUARRY_BENCH_COMPANYFACTS
// names, or skips: real-size documents are not committed (see
// docs/capacity.md).
func benchCompany(b *testing.B) financials.Company {
	path := os.Getenv("QUARRY_BENCH_COMPANYFACTS")
	if path == "" {
		b.Skip("QUARRY_BENCH_COMPANYFACTS names no companyfacts document")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	c, err := companyfacts.Parse(path, raw, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		b.Fatal(err)
	}
	c.Tickers = []string{"BENCH"}
	b.Logf("%s: %d mapped facts", c.Name, len(c.Facts))
	return c
}

// BenchmarkHistoryOf measures what ingestion computes per filer: every
// statement's history through its filing dates (financials.HistoryOf) for
// the companyfacts document named by QUARRY_BENCH_COMPANYFACTS.
func BenchmarkHistoryOf(b *testing.B) {
	c := benchCompany(b)
	b.ReportAllocs()
	for b.Loop() {
		if len(financials.HistoryOf(c)[0].Versions) == 0 {
			b.Fatal("no annual income statement")
		}
	}
}
