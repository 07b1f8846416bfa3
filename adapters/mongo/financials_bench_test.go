package mongo_test

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	"github.com/quarrydata/quarry/adapters/ferretdb"
	"github.com/quarrydata/quarry/adapters/memory"
	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// BenchmarkColdStatements measures one cold GET /us/financials (three
// statements, limit 4, nothing memoized) for the companyfacts document named
// by QUARRY_BENCH_COMPANYFACTS, on memory and on the embedded data
// directory's FerretDB. Without the variable it skips: real-size documents
// are not committed (see docs/capacity.md).
func BenchmarkColdStatements(b *testing.B) {
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
	b.Run("memory", func(b *testing.B) { benchStatements(b, memory.NewFinancials(), c) })
	b.Run("datadir", func(b *testing.B) {
		srv, err := ferretdb.Start(b.TempDir(), slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
		if err != nil {
			b.Fatal(err)
		}
		defer client.Disconnect(context.Background())
		benchStatements(b, mongoadapter.NewFinancials(client.Database("bench")), c)
	})
}

func benchStatements(b *testing.B, store ports.FinancialsStore, c financials.Company) {
	ctx := context.Background()
	if err := store.UpsertCompanies(ctx, []financials.Company{c}); err != nil {
		b.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC) }
	fin := usfinancials.New(store, now, nil)
	q, err := fin.Query(usfinancials.Params{CIK: c.CIK, Limit: 4})
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
