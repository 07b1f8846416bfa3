package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

const indexJSON = `{"directory":{"item":[
{"name":"aapl-20240928.htm","type":"text.gif","size":""},
{"name":"aapl-20240928_htm.xml","type":"text.gif","size":"1234"}],
"name":"/Archives/edgar/data/320193/000032019324000123","parent-dir":"/Archives/edgar/data/320193"}}`

const submissionsJSON = `{"cik":"320193","name":"Apple Inc.","tickers":["AAPL"],"filings":{"recent":{
"accessionNumber":["0000320193-24-000123"],"filingDate":["2024-11-01"],"form":["10-K"],"primaryDocument":["aapl-20240928.htm"]}}}`

const report = `<html><body><ix:header><ix:hidden>Item 9. hidden fact</ix:hidden></ix:header>
<table><tr><td>Item 1.</td><td>Business</td><td>1</td></tr><tr><td>Item 1A.</td><td>Risk Factors</td><td>5</td></tr></table>
<div>PART I</div><div><span>Item 1.&#160;&#160;Business</span></div><div>The Company&#8217;s fiscal year ends in September.</div>
<div>See Item 1A below.</div><div><span>Item 1A.&#160;Risk Factors</span></div><div>Risks &amp; more.</div><div>PART II</div></body></html>`

func TestSplitItemsTakesTheBodyNotTheTableOfContents(t *testing.T) {
	items := app.SplitItems([]byte(report), true)
	want := []app.ItemText{
		{Number: "1", Text: "Item 1. Business\nThe Company’s fiscal year ends in September.\nSee Item 1A below."},
		{Number: "1A", Text: "Item 1A. Risk Factors\nRisks & more."},
	}
	if len(items) != len(want) {
		t.Fatalf("items = %q", items)
	}
	for i := range want {
		if items[i] != want[i] {
			t.Errorf("item %d = %q, want %q", i, items[i], want[i])
		}
	}
}

func TestSplitItemsReadsPlainText(t *testing.T) {
	items := app.SplitItems([]byte("ITEM 1. BUSINESS\nWe make things.\nITEM 7 - MANAGEMENT'S DISCUSSION\nSales rose.\n"), false)
	if len(items) != 2 || items[0].Number != "1" || items[1].Number != "7" || items[1].Text != "ITEM 7 - MANAGEMENT'S DISCUSSION\nSales rose." {
		t.Fatalf("items = %q", items)
	}
}

func TestLoadFiling(t *testing.T) {
	dir := fstest.MapFS{
		"index.json":         {Data: []byte(indexJSON)},
		"CIK0000320193.json": {Data: []byte(submissionsJSON)},
		"aapl-20240928.htm":  {Data: []byte(report)},
	}
	at := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	f, secs, err := app.LoadFiling(app.FilingSource{Label: "aapl", Dir: dir, Index: "index.json", Submissions: "CIK0000320193.json"}, at)
	if err != nil {
		t.Fatal(err)
	}
	if f.Accession != "0000320193-24-000123" || f.CIK != "0000320193" || f.Ticker != "AAPL" || f.Form != "10-K" || len(f.Files) != 2 {
		t.Fatalf("filing = %+v", f)
	}
	if p := f.Files[0]; !p.Stored || p.Role != filing.RolePrimary || p.Size != int64(len(report)) || len(p.SHA256) != 64 || p.ContentType != "text/html" {
		t.Errorf("primary = %+v", p)
	}
	if x := f.Files[1]; x.Stored || x.Role != filing.RoleXBRLInstance || x.Size != 1234 || x.SHA256 != "" {
		t.Errorf("instance = %+v", x)
	}
	if len(secs) != 2 || secs[1].ID != "0000320193-24-000123/1A" || secs[1].ItemName != "Risk Factors" || !secs[1].Filed.Equal(time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("sections = %+v", secs)
	}
}

func TestLoadFilingRefusesBadInput(t *testing.T) {
	cases := []struct {
		name, index, submissions, primary, says string
	}{
		{"truncated index", indexJSON[:40], submissionsJSON, report, "aapl/index.json:2"},
		{"bad folder", strings.Replace(indexJSON, "000032019324000123", "0000320193", 1), submissionsJSON, report, "directory.name"},
		{"bad size", strings.Replace(indexJSON, `"1234"`, `"12x"`, 1), submissionsJSON, report, "directory.item[1].size"},
		{"duplicate file", strings.Replace(indexJSON, "aapl-20240928_htm.xml", "aapl-20240928.htm", 1), submissionsJSON, report, "duplicate"},
		{"unknown filing", indexJSON, strings.Replace(submissionsJSON, "24-000123", "24-000124", 1), report, "no filing 0000320193-24-000123"},
		{"ragged arrays", indexJSON, strings.Replace(submissionsJSON, `"form":["10-K"]`, `"form":[]`, 1), report, "differ in length"},
		{"bad filing date", indexJSON, strings.Replace(submissionsJSON, "2024-11-01", "2024-11-31", 1), report, "filingDate"},
		{"report without items", indexJSON, submissionsJSON, "<html><body>No items here.</body></html>", "no item headings"},
	}
	for _, tc := range cases {
		dir := fstest.MapFS{
			"index.json":         {Data: []byte(tc.index)},
			"CIK0000320193.json": {Data: []byte(tc.submissions)},
			"aapl-20240928.htm":  {Data: []byte(tc.primary)},
		}
		_, _, err := app.LoadFiling(app.FilingSource{Label: "aapl", Dir: dir, Index: "index.json", Submissions: "CIK0000320193.json"}, time.Now())
		if !errors.Is(err, app.ErrBadInput) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: err = %v, want bad input saying %q", tc.name, err, tc.says)
		}
	}
}

func TestParseUSSearch(t *testing.T) {
	n := func(i int) *int { return &i }
	cases := []struct {
		name string
		req  app.SearchRequest
		want error
	}{
		{"query only", app.SearchRequest{Query: "risk"}, nil},
		{"every filter", app.SearchRequest{Query: "risk", Ticker: "aapl", CIK: "320193", FilingType: "10-k", ItemNumber: "1a", FiledFrom: "2024-01-01", FiledTo: "2024-12-31", Limit: n(100), Offset: n(5)}, nil},
		{"empty query", app.SearchRequest{Query: ""}, app.ErrValidation},
		{"blank query", app.SearchRequest{Query: " \t"}, app.ErrValidation},
		{"long query", app.SearchRequest{Query: strings.Repeat("é", 513)}, app.ErrValidation},
		{"bad ticker", app.SearchRequest{Query: "x", Ticker: "A B"}, app.ErrValidation},
		{"bad cik", app.SearchRequest{Query: "x", CIK: "0"}, app.ErrValidation},
		{"bad item", app.SearchRequest{Query: "x", ItemNumber: "1D"}, app.ErrValidation},
		{"bad date", app.SearchRequest{Query: "x", FiledFrom: "2024-02-30"}, app.ErrValidation},
		{"limit 0", app.SearchRequest{Query: "x", Limit: n(0)}, app.ErrValidation},
		{"negative offset", app.SearchRequest{Query: "x", Offset: n(-1)}, app.ErrValidation},
		{"from after to", app.SearchRequest{Query: "x", FiledFrom: "2024-12-01", FiledTo: "2024-11-01"}, app.ErrInvalidRequest},
	}
	for _, tc := range cases {
		q, err := app.ParseUSSearch(tc.req)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
		if tc.name == "every filter" && (q.Ticker != "AAPL" || q.CIK != "0000320193" || q.Form != "10-K" || q.ItemNumber != "1A" || q.Limit != 100 || q.Offset != 5) {
			t.Errorf("parsed = %+v", q)
		}
	}
}

func FuzzParseFilingIndex(f *testing.F) {
	f.Add(indexJSON)
	f.Fuzz(func(t *testing.T, s string) {
		l, err := app.ParseFilingIndex("index.json", strings.NewReader(s))
		if err != nil && !errors.Is(err, app.ErrBadInput) {
			t.Fatalf("error %v is not ErrBadInput", err)
		}
		if err == nil && (len(l.Items) == 0 || len(l.Accession) != 20) {
			t.Fatalf("accepted a listing without files or accession: %+v", l)
		}
	})
}

func FuzzSplitItems(f *testing.F) {
	f.Add(report, true)
	f.Fuzz(func(t *testing.T, doc string, isHTML bool) {
		for _, it := range app.SplitItems([]byte(doc), isHTML) {
			if _, ok := filing.ItemName(it.Number); !ok || !strings.HasPrefix(strings.ToUpper(it.Text), "ITEM") {
				t.Fatalf("item %q does not open with its heading: %q", it.Number, it.Text)
			}
		}
	})
}

// newFilings returns the filings use case on an empty memory store and
// bleve index, and the store.
func newFilings(tb testing.TB) (*app.Filings, *memory.Filings) {
	tb.Helper()
	store := memory.NewFilings()
	idx, err := bleveadapter.New()
	if err != nil {
		tb.Fatal(err)
	}
	return app.NewFilings(store, store, idx), store
}

func TestRefreshIndexesSectionsAnotherProcessStored(t *testing.T) {
	ctx := context.Background()
	f, store := newFilings(t)
	if n, err := f.RebuildIndex(ctx); err != nil || n != 0 {
		t.Fatalf("RebuildIndex = %d, %v; want 0 sections", n, err)
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
		t.Fatalf("before Refresh: %d hits, want 0 (the index is only rebuilt by Refresh)", got)
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
}

// BenchmarkSearch runs the query of the load test over the bundled 10-K
// sections, as POST /us/search does.
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	f, _ := newFilings(b)
	filings, sections, err := bootstrap.LoadUSFilingsSample()
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Store(ctx, filings, sections); err != nil {
		b.Fatal(err)
	}
	q, err := app.ParseUSSearch(app.SearchRequest{Query: "iPhone services revenue"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if hits, _, err := f.Search(ctx, q); err != nil || len(hits) == 0 {
			b.Fatalf("%d hits, %v", len(hits), err)
		}
	}
}
