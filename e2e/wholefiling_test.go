package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ingest"
)

// TestMongoFilingBatchesCostOneReadOnce writes the bundled US filings and
// 13F filings through one store, as `quarry ingest` does, and reads them
// through another, as a server does: the reader reads the pending batches
// once, to learn that the batch its documents carry is published, and
// never again for them (B155). Writing the same filings again writes
// nothing.
func TestMongoFilingBatchesCostOneReadOnce(t *testing.T) {
	ctx := context.Background()
	db, w := commandCountedDatabase(t, "find", "insert", "update", "delete")
	t.Run("US filings", func(t *testing.T) {
		filings, sections, err := ingest.LoadUSFilingsSample()
		must(t, err)
		must(t, mongo.NewFilings(db).UpsertFilings(ctx, filings, sections))
		w.take()
		must(t, mongo.NewFilings(db).UpsertFilings(ctx, filings, sections))
		if got := w.take(); got["insert"]+got["update"]+got["delete"] != 0 {
			t.Fatalf("writing the same filings again sent %v", got)
		}
		reader := mongo.NewFilings(db)
		ids := []string{sections[0].ID, sections[1].ID}
		// A find per section, and the pending batches the first time.
		wantFinds(t, w, len(ids)+1, func() (int, error) { got, err := reader.SectionsByID(ctx, ids); return len(got), err }, len(ids))
		wantFinds(t, w, len(ids), func() (int, error) { got, err := reader.SectionsByID(ctx, ids); return len(got), err }, len(ids))
		wantFinds(t, w, 1, func() (int, error) { _, err := reader.Filing(ctx, sections[0].Accession); return 1, err }, 1)
	})
	t.Run("13F filings", func(t *testing.T) {
		writer := mongo.NewFundHoldings(db)
		_, err := ingest.LoadSampleHoldings(ctx, writer)
		must(t, err)
		w.take()
		_, err = ingest.LoadSampleHoldings(ctx, writer)
		must(t, err)
		if got := w.take(); got["insert"]+got["update"]+got["delete"] != 0 {
			t.Fatalf("writing the same 13F filings again sent %v", got)
		}
		reader := mongo.NewFundHoldings(db)
		const apple = "037833100"
		q := holdings.Query{AsOf: time.Now(), Limit: 1000}
		page, _, err := reader.FundHolders(ctx, apple, q)
		must(t, err)
		if len(page) == 0 {
			t.Fatal("no 13F holder of Apple in the sample")
		}
		pages := w.take()["find"] - 1 // the pending batches, then the ladder and its pages
		read := func() (int, error) { got, _, err := reader.FundHolders(ctx, apple, q); return len(got), err }
		wantFinds(t, w, pages, read, len(page))
	})
}

// wantFinds runs read, which must return want records, and checks it sent
// finds finds.
func wantFinds(t *testing.T, w *writeCounter, finds int, read func() (int, error), want int) {
	t.Helper()
	got, err := read()
	must(t, err)
	if sent := w.take()["find"]; sent != finds || got != want {
		t.Fatalf("read %d records with %d finds, want %d with %d", got, sent, want, finds)
	}
}
