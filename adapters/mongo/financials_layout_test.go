package mongo_test

import (
	"context"
	"log/slog"
	"reflect"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/adapters/ferretdb"
	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// embeddedDB is a fresh database on FerretDB embedded over SQLite, as a data
// directory serves documents.
func embeddedDB(tb testing.TB) *mongo.Database {
	return embeddedDBWith(tb, options.Client())
}

// embeddedDBWith is embeddedDB with the client built from opts.
func embeddedDBWith(tb testing.TB, opts *options.ClientOptions) *mongo.Database {
	tb.Helper()
	srv, err := ferretdb.Start(tb.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatal(err)
	}
	client, err := mongo.Connect(opts.ApplyURI(srv.URI()))
	if err != nil {
		srv.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = client.Disconnect(context.Background())
		srv.Close()
	})
	return client.Database("layout")
}

// A company document written before facts were packed (an array of fact
// subdocuments) is still read as it was written, and writing the company
// again packs it without changing what is read.
func TestFinancialsReadsTheEarlierLayout(t *testing.T) {
	ctx := context.Background()
	db := embeddedDB(t)
	retrieved := time.Date(2026, 7, 20, 12, 0, 0, 0, time.UTC)
	old := bson.D{
		{Key: "_id", Value: "0000320193"}, {Key: "tickers", Value: bson.A{"AAPL"}}, {Key: "name", Value: "Apple Inc."},
		{Key: "retrieved_at", Value: retrieved},
		{Key: "facts", Value: bson.A{bson.D{
			{Key: "concept", Value: "Revenues"}, {Key: "unit", Value: "USD"}, {Key: "start", Value: "2023-10-01"},
			{Key: "end", Value: "2024-09-28"}, {Key: "val", Value: 391035000000.0}, {Key: "accn", Value: "0000320193-24-000123"},
			{Key: "fy", Value: 2024}, {Key: "fp", Value: "FY"}, {Key: "form", Value: "10-K"}, {Key: "filed", Value: "2024-11-01"},
		}}},
	}
	if _, err := db.Collection("us_financials").InsertOne(ctx, old); err != nil {
		t.Fatal(err)
	}
	want := financials.Company{CIK: "0000320193", Tickers: []string{"AAPL"}, Name: "Apple Inc.", RetrievedAt: retrieved,
		Facts: []financials.Fact{{Concept: "Revenues", Unit: "USD", Start: "2023-10-01", End: "2024-09-28", Value: 391035000000,
			Accession: "0000320193-24-000123", FiscalYear: 2024, FiscalPeriod: "FY", Form: "10-K", Filed: "2024-11-01"}}}
	store := mongoadapter.NewFinancials(db)
	got, err := store.Company(ctx, want.CIK)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("earlier layout read as %+v, %v; want %+v", got, err, want)
	}
	// Written before statements were stored, it has none: they are
	// computed from its facts.
	_, l, err := store.LatestStatement(ctx, want.CIK, financials.Income, financials.Annual)
	if err != nil || l.Through != "2024-11-01" || len(l.Rows) != 1 || l.Rows[0].Values["revenue"] != 391035000000 {
		t.Fatalf("earlier layout's latest income statement = %+v, %v", l, err)
	}
	co, h, err := store.StatementHistory(ctx, want.CIK, financials.Income, financials.Annual)
	if before := h.At(time.Date(2024, 11, 1, 12, 0, 0, 0, time.UTC)); err != nil || co.Name != want.Name || len(before) != 0 ||
		!reflect.DeepEqual(h.At(retrieved), l.Rows) {
		t.Fatalf("earlier layout's income statement history = %+v, %+v, %v", co, h, err)
	}
	if err := store.UpsertCompanies(ctx, []financials.Company{want}); err != nil {
		t.Fatal(err)
	}
	var raw bson.M
	if err := db.Collection("us_financials").FindOne(ctx, bson.D{{Key: "_id", Value: want.CIK}}).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	if _, packed := raw["facts_json"]; !packed || raw["facts"] != nil {
		t.Fatalf("written again, the document is not packed: %v", raw)
	}
	if got, err := store.Company(ctx, want.CIK); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("packed layout read as %+v, %v; want %+v", got, err, want)
	}
}

// The financials contract on the data directory's FerretDB, without the
// containers the e2e suite needs for the other stores.
func TestFinancialsContractEmbedded(t *testing.T) {
	porttest.RunFinancials(t, func(t *testing.T) ports.FinancialsStore { return mongoadapter.NewFinancials(embeddedDB(t)) })
}
