package usfilings_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

func TestParseUSSearch(t *testing.T) {
	n := func(i int) *int { return &i }
	cases := []struct {
		name string
		req  usfilings.SearchRequest
		want error
	}{
		{"query only", usfilings.SearchRequest{Query: "risk"}, nil},
		{"every filter", usfilings.SearchRequest{Query: "risk", Ticker: "aapl", CIK: "320193", FilingType: "10-k", ItemNumber: "1a", FiledFrom: "2024-01-01", FiledTo: "2024-12-31", Limit: n(100), Offset: n(5)}, nil},
		{"empty query", usfilings.SearchRequest{Query: ""}, usecase.ErrValidation},
		{"blank query", usfilings.SearchRequest{Query: " \t"}, usecase.ErrValidation},
		{"long query", usfilings.SearchRequest{Query: strings.Repeat("é", 513)}, usecase.ErrValidation},
		{"bad ticker", usfilings.SearchRequest{Query: "x", Ticker: "A B"}, usecase.ErrValidation},
		{"bad cik", usfilings.SearchRequest{Query: "x", CIK: "0"}, usecase.ErrValidation},
		{"bad item", usfilings.SearchRequest{Query: "x", ItemNumber: "1D"}, usecase.ErrValidation},
		{"bad date", usfilings.SearchRequest{Query: "x", FiledFrom: "2024-02-30"}, usecase.ErrValidation},
		{"limit 0", usfilings.SearchRequest{Query: "x", Limit: n(0)}, usecase.ErrValidation},
		{"negative offset", usfilings.SearchRequest{Query: "x", Offset: n(-1)}, usecase.ErrValidation},
		{"from after to", usfilings.SearchRequest{Query: "x", FiledFrom: "2024-12-01", FiledTo: "2024-11-01"}, usecase.ErrInvalidRequest},
	}
	for _, tc := range cases {
		q, err := usfilings.ParseSearch(tc.req)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
		if tc.name == "every filter" && (q.Ticker != "AAPL" || q.CIK != "0000320193" || q.Form != "10-K" || q.ItemNumber != "1A" || q.Limit != 100 || q.Offset != 5) {
			t.Errorf("parsed = %+v", q)
		}
	}
}

// newFilings returns the filings use case on an empty memory store and
// bleve index, and the store.
func newFilings(tb testing.TB) (*usfilings.Service, *memory.Filings) {
	tb.Helper()
	store := memory.NewFilings()
	idx, err := bleveadapter.New()
	if err != nil {
		tb.Fatal(err)
	}
	return usfilings.New(store, store, idx), store
}

func TestRefreshIndexesSectionsAnotherProcessStored(t *testing.T) {
	ctx := context.Background()
	f, store := newFilings(t)
	if n, err := f.Refresh(ctx); err != nil || n != 0 {
		t.Fatalf("first Refresh = %d, %v; want 0 sections", n, err)
	}
	search := func() int {
		t.Helper()
		_, total, err := f.Search(ctx, ports.SectionQuery{Text: "smartphone", Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return total
	}
	// Another process (quarry ingest) writes to the shared store directly.
	sec := filing.Section{
		ID: filing.SectionID("0000320193-24-000123", "1A"), Accession: "0000320193-24-000123", CIK: "0000320193",
		Ticker: "AAPL", Form: "10-K", Filed: time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC), ItemNumber: "1A",
		ItemName: "Risk Factors", Text: "Item 1A. Risk Factors\nThe Company has a minority market share in the global smartphone market.",
		RetrievedAt: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC),
	}
	if err := store.UpsertSections(ctx, []filing.Section{sec}); err != nil {
		t.Fatal(err)
	}
	if got := search(); got != 0 {
		t.Fatalf("before Refresh: %d hits, want 0 (the index follows the store through Refresh)", got)
	}
	if n, err := f.Refresh(ctx); err != nil || n != 1 {
		t.Fatalf("Refresh = %d, %v; want 1 section indexed", n, err)
	}
	if got := search(); got != 1 {
		t.Fatalf("after Refresh: %d hits, want 1", got)
	}
	if n, err := f.Refresh(ctx); err != nil || n != 0 {
		t.Fatalf("Refresh of an unchanged store = %d, %v; want 0", n, err)
	}
	if !f.RetrievedAt().Equal(sec.RetrievedAt) {
		t.Fatalf("RetrievedAt = %v, want %v", f.RetrievedAt(), sec.RetrievedAt)
	}
	// A second filing's section: Refresh indexes it alone, not every
	// stored section again.
	next := sec
	next.ID, next.ItemNumber, next.ItemName = filing.SectionID("0000320193-24-000123", "7"), "7", "Management's Discussion and Analysis"
	next.Text = "Item 7. Management's Discussion and Analysis\nSmartphone net sales rose."
	if err := store.UpsertSections(ctx, []filing.Section{next}); err != nil {
		t.Fatal(err)
	}
	if n, err := f.Refresh(ctx); err != nil || n != 1 {
		t.Fatalf("Refresh after one more section = %d, %v; want 1 section indexed", n, err)
	}
	if got := search(); got != 2 {
		t.Fatalf("after the second Refresh: %d hits, want 2", got)
	}
}

func TestSearchReadsHitsFromTheSectionStore(t *testing.T) {
	ctx := context.Background()
	f, store := newFilings(t)
	sec := filing.Section{
		ID: filing.SectionID("0000320193-24-000123", "1"), Accession: "0000320193-24-000123", CIK: "0000320193",
		Ticker: "AAPL", Form: "10-K", Filed: time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC), ItemNumber: "1",
		ItemName: "Business", Text: "Item 1. Business\nThe Company’s fiscal year ends on the last Saturday of September.",
		RetrievedAt: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC),
	}
	if err := f.Store(ctx, nil, []filing.Section{sec}); err != nil {
		t.Fatal(err)
	}
	hits, total, err := f.Search(ctx, ports.SectionQuery{Text: "last Saturday of September", Limit: 10})
	if err != nil || total != 1 || len(hits) != 1 || hits[0].Section != sec {
		t.Fatalf("Search = %+v, %d, %v", hits, total, err)
	}
	// Offsets count code points: the ’ before the passage is three bytes.
	if got := string([]rune(sec.Text)[hits[0].Start:hits[0].End]); got != "last Saturday of September" {
		t.Fatalf("passage = %q (%d to %d)", got, hits[0].Start, hits[0].End)
	}
	// Another process shortens the section; until Refresh indexes it
	// again, the indexed offsets are cut to the stored text.
	short := sec
	short.Text = "Item 1. Business"
	if err := store.UpsertSections(ctx, []filing.Section{short}); err != nil {
		t.Fatal(err)
	}
	hits, _, err = f.Search(ctx, ports.SectionQuery{Text: "last Saturday of September", Limit: 10})
	if err != nil || len(hits) != 1 || hits[0].Section.Text != short.Text || hits[0].End > len(short.Text) || hits[0].Start > hits[0].End {
		t.Fatalf("after another process shortened the section: %+v, %v", hits, err)
	}
}

// BenchmarkSearch runs the query of the load test over the bundled 10-K
// sections, as POST /us/search does.
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	f, _ := newFilings(b)
	filings, sections, err := ingest.LoadUSFilingsSample()
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Store(ctx, filings, sections); err != nil {
		b.Fatal(err)
	}
	q, err := usfilings.ParseSearch(usfilings.SearchRequest{Query: "iPhone services revenue"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if hits, _, err := f.Search(ctx, q); err != nil || len(hits) == 0 {
			b.Fatalf("%d hits, %v", len(hits), err)
		}
	}
}
