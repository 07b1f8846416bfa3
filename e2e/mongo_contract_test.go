package e2e

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/event"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestMongoContracts runs the document ports' contracts against the
// MongoDB adapters on FerretDB, a fresh database per test.
func TestMongoContracts(t *testing.T) {
	// The contract suites touch only stores of their own: they run beside
	// each other once the other tests are done, on the second core.
	t.Parallel()
	porttest.RunAll(t, mongoStores(mongoDatabase))
}

// mongoStores returns the MongoDB adapter of every document port, each on
// the database db gives the test.
func mongoStores(db func(*testing.T) *mongodrv.Database) porttest.Stores {
	return porttest.Stores{
		Securities:   func(t *testing.T) ports.SecurityStore { return mongo.NewSecurities(db(t)) },
		ChinaPrices:  func(t *testing.T) ports.ChinaPriceStore { return mongo.NewChinaPrices(db(t)) },
		IndiaPrices:  func(t *testing.T) ports.IndiaPriceStore { return mongo.NewIndiaPrices(db(t)) },
		FundHoldings: func(t *testing.T) ports.FundHoldingStore { return mongo.NewFundHoldings(db(t)) },
		Financials:   func(t *testing.T) ports.FinancialsStore { return mongo.NewFinancials(db(t)) },
		Filings:      func(t *testing.T) ports.FilingStore { return mongo.NewFilings(db(t)) },
		Sections:     func(t *testing.T) ports.SectionStore { return mongo.NewFilings(db(t)) },
		Judgments:    func(t *testing.T) ports.JudgmentStore { return mongo.NewJudgments(db(t)) },
		SyncStates:   func(t *testing.T) ports.SyncStates { return mongo.NewSyncStates(db(t)) },
	}
}

// writeCounter counts the commands of some names a client sends (the
// write commands unless told), by command name.
type writeCounter struct {
	mu     sync.Mutex
	names  []string
	counts map[string]int
}

func (w *writeCounter) started(_ context.Context, e *event.CommandStartedEvent) {
	if slices.Contains(w.names, e.CommandName) {
		w.mu.Lock()
		w.counts[e.CommandName]++
		w.mu.Unlock()
	}
}

// take returns the counts since the last call and starts again.
func (w *writeCounter) take() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.counts
	w.counts = map[string]int{}
	return out
}

// countedDatabase is a fresh database on a client whose write commands are
// counted.
func countedDatabase(t *testing.T) (*mongodrv.Database, *writeCounter) {
	t.Helper()
	return commandCountedDatabase(t, "insert", "update", "delete")
}

// commandCountedDatabase is a fresh database on a client whose commands
// named names are counted.
func commandCountedDatabase(t *testing.T, names ...string) (*mongodrv.Database, *writeCounter) {
	t.Helper()
	w := &writeCounter{names: names, counts: map[string]int{}}
	client, err := mongodrv.Connect(options.Client().ApplyURI(servers.mongoURI).
		SetMonitor(&event.CommandMonitor{Started: w.started}))
	if err != nil {
		t.Fatal(err)
	}
	db := client.Database(mongoDBName())
	t.Cleanup(func() {
		_ = db.Drop(context.Background())
		_ = client.Disconnect(context.Background())
	})
	return db, w
}

// TestMongoBulkWritesOnlyChanges checks the bulk writes of the dataset
// stores: new documents go in one insert, an unchanged batch written again
// sends no write at all, and only a changed document is replaced.
func TestMongoBulkWritesOnlyChanges(t *testing.T) {
	ctx := context.Background()
	t.Run("securities", func(t *testing.T) {
		db, w := countedDatabase(t)
		s := mongo.NewSecurities(db)
		moutai := ashare.Security{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "Kweichow Moutai Co., Ltd.", ListingDate: "2001-08-27", Listed: true}
		letv := ashare.Security{Code: "SZSE.300104", Exchange: "SZSE", Board: "chinext", CompanyName: "LeTV", ListingDate: "2010-08-12", DelistingDate: "2020-07-21"}
		batch := []ashare.Security{moutai, letv}
		must(t, s.UpsertSecurities(ctx, batch))
		wantWrites(t, w.take(), map[string]int{"insert": 1})
		must(t, s.UpsertSecurities(ctx, batch))
		wantWrites(t, w.take(), map[string]int{})
		renamed := moutai
		renamed.CompanyName = "Kweichow Moutai"
		must(t, s.UpsertSecurities(ctx, []ashare.Security{renamed, letv}))
		wantWrites(t, w.take(), map[string]int{"update": 1})
		got, err := s.Security(ctx, moutai.Code)
		must(t, err)
		if got != renamed {
			t.Fatalf("after the change: %+v", got)
		}
		if n, err := s.CountSecurities(ctx); err != nil || n != 2 {
			t.Fatalf("count = %d, %v", n, err)
		}
	})
	t.Run("financials", func(t *testing.T) {
		db, w := countedDatabase(t)
		s := mongo.NewFinancials(db)
		retrieved := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
		nvda := financials.Company{CIK: "0001045810", Tickers: []string{"NVDA"}, Name: "NVIDIA CORP", RetrievedAt: retrieved,
			Facts: []financials.Fact{{Concept: "Assets", Unit: "USD", End: "2025-01-26", Value: 111601000000,
				Accession: "0001045810-25-000023", FiscalYear: 2025, FiscalPeriod: "FY", Form: "10-K", Filed: "2025-02-26"}}}
		alphabet := financials.Company{CIK: "0001652044", Tickers: []string{"GOOGL", "GOOG"}, Name: "Alphabet Inc.", RetrievedAt: retrieved}
		batch := []financials.Company{nvda, alphabet}
		must(t, s.UpsertCompanies(ctx, batch))
		// One insert each for the companies, their statements' histories,
		// their latest statements, their names and their tickers.
		wantWrites(t, w.take(), map[string]int{"insert": 5})
		must(t, s.UpsertCompanies(ctx, batch))
		wantWrites(t, w.take(), map[string]int{})
		later := nvda
		later.RetrievedAt = retrieved.Add(24 * time.Hour)
		must(t, s.UpsertCompanies(ctx, []financials.Company{later, alphabet}))
		// The company, its histories, its statements and its entry in the
		// directory of names (GET /us/companies), which carry its
		// retrieval time.
		wantWrites(t, w.take(), map[string]int{"update": 4})
		got, err := s.Company(ctx, nvda.CIK)
		must(t, err)
		if !got.RetrievedAt.Equal(later.RetrievedAt) || len(got.Facts) != 1 {
			t.Fatalf("after the change: %+v", got)
		}
		if cik, err := s.CIKForTicker(ctx, "GOOG"); err != nil || cik != alphabet.CIK {
			t.Fatalf("GOOG = %q, %v", cik, err)
		}
	})
}

func wantWrites(t *testing.T, got, want map[string]int) {
	t.Helper()
	for _, name := range []string{"insert", "update", "delete"} {
		if got[name] != want[name] {
			t.Fatalf("write commands = %v, want %v", got, want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
