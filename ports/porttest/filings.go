package porttest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	filingdomain "github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

// NewFilingStore returns an empty FilingStore for one test.
type NewFilingStore func(t *testing.T) ports.FilingStore

// NewSectionStore returns an empty SectionStore for one test.
type NewSectionStore func(t *testing.T) ports.SectionStore

// NewSectionIndex returns an empty SectionIndex for one test.
type NewSectionIndex func(t *testing.T) ports.SectionIndex

var (
	filedAAPL = time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)
	retrieved = time.Date(2026, 11, 25, 12, 30, 0, 0, time.UTC)
)

func aaplFiling() filingdomain.Filing {
	return filingdomain.Filing{
		Accession: "0000320193-24-000123", CIK: "0000320193", Ticker: "AAPL", Form: "10-K", Filed: filedAAPL,
		PrimaryDocument: "aapl-20240928.htm", RetrievedAt: retrieved,
		Files: []filingdomain.File{
			{Name: "aapl-20240928.htm", Role: filingdomain.RolePrimary, Stored: true, ContentType: "text/html", SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Size: 25216},
			{Name: "aapl-20240928_htm.xml", Role: filingdomain.RoleXBRLInstance, ContentType: "application/xml", Size: -1},
		},
	}
}

// RunFilings is the contract of FilingStore.
func RunFilings(t *testing.T, newStore NewFilingStore) {
	ctx := context.Background()
	t.Run("empty store", func(t *testing.T) {
		s := newStore(t)
		held, err := s.HoldsFilings(ctx)
		must(t, "HoldsFilings", err)
		if held {
			t.Fatal("an empty store holds filings")
		}
		_, err = s.Filing(ctx, "0000320193-24-000123")
		wantErr(t, "Filing", err, ports.ErrNotFound)
	})
	t.Run("upsert is idempotent and replaces by accession number", func(t *testing.T) {
		s := newStore(t)
		f := aaplFiling()
		must(t, "Upsert", s.UpsertFilings(ctx, []filingdomain.Filing{f}, nil))
		must(t, "Upsert again", s.UpsertFilings(ctx, []filingdomain.Filing{f}, nil))
		held, err := s.HoldsFilings(ctx)
		must(t, "HoldsFilings", err)
		if !held {
			t.Fatal("a store holding a filing holds none")
		}
		got, err := s.Filing(ctx, f.Accession)
		must(t, "Filing", err)
		if !reflect.DeepEqual(got, f) {
			t.Fatalf("Filing = %+v\nwant    %+v", got, f)
		}
		f.Files = f.Files[:1]
		must(t, "Upsert fewer files", s.UpsertFilings(ctx, []filingdomain.Filing{f}, nil))
		got, err = s.Filing(ctx, f.Accession)
		must(t, "Filing", err)
		if len(got.Files) != 1 {
			t.Fatalf("after replace: %d files, want 1", len(got.Files))
		}
	})
	t.Run("a filing is written with its sections, whole or not at all", func(t *testing.T) {
		s := newStore(t)
		secs, ok := s.(ports.SectionStore)
		if !ok {
			t.Skip("the store keeps no sections")
		}
		filingsWhole(t, s, secs)
	})
}

// filingVersion is a filing of AAPL under accession acc, and its sections,
// as a write numbered v stores them: each write changes the retrieval time
// and the sections' text.
func filingVersion(acc string, v int) (filingdomain.Filing, []filingdomain.Section) {
	f := aaplFiling()
	f.Accession, f.RetrievedAt = acc, retrieved.Add(time.Duration(v)*time.Hour)
	secs := aaplSections()
	for i := range secs {
		secs[i].ID, secs[i].Accession, secs[i].RetrievedAt = filingdomain.SectionID(acc, secs[i].ItemNumber), acc, f.RetrievedAt
		secs[i].Text += fmt.Sprintf(" (version %d)", v)
	}
	return f, secs
}

// filingSeen returns the version (filingVersion) of the filing acc a
// reader sees, 0 when none.
func filingSeen(t *testing.T, s ports.FilingStore, acc string) int {
	t.Helper()
	got, err := s.Filing(context.Background(), acc)
	if errors.Is(err, ports.ErrNotFound) {
		return 0
	}
	must(t, "Filing", err)
	for v := 1; v <= 2; v++ {
		if f, _ := filingVersion(acc, v); reflect.DeepEqual(got, f) {
			return v
		}
	}
	t.Fatalf("filing %s is seen as %+v, no version written", acc, got)
	return 0
}

// filingsWhole writes a batch of a filing held before (rewritten) and a
// new one, stopping the write at each of its steps in turn: after each, a
// reader sees each filing with all of its sections, in one version, or
// (the new one) not at all, and both from the same write; writing the
// batch again then publishes it.
func filingsWhole(t *testing.T, s ports.FilingStore, secs ports.SectionStore) {
	ctx := context.Background()
	accs := func(step int) (held, added string) {
		return fmt.Sprintf("0000320193-24-%06d", 2*step), fmt.Sprintf("0000320193-24-%06d", 2*step+1)
	}
	batch := func(step int) ([]filingdomain.Filing, []filingdomain.Section) {
		held, added := accs(step)
		f1, s1 := filingVersion(held, 2)
		f2, s2 := filingVersion(added, 2)
		return []filingdomain.Filing{f1, f2}, append(s1, s2...)
	}
	// seen returns the version of acc a reader sees, 0 for none, failing
	// when the filing and its sections disagree. A write stopped may still
	// publish after it returned (stopAtEachStep): what is read while the
	// filing changes is read again.
	seen := func(t *testing.T, acc string) int {
		t.Helper()
		for {
			v := filingSeen(t, s, acc)
			_, want := filingVersion(acc, v)
			read, err := secs.SectionsByID(ctx, []string{want[0].ID, want[1].ID})
			must(t, "SectionsByID", err)
			if filingSeen(t, s, acc) != v {
				continue
			}
			if v == 0 && len(read) != 0 || v > 0 && !reflect.DeepEqual(read, want) {
				t.Fatalf("filing %s seen in version %d, its sections are: %+v", acc, v, read)
			}
			return v
		}
	}
	// both returns the versions of the two filings a reader sees, read
	// again while the first changed meanwhile.
	both := func(t *testing.T, step int) (int, int) {
		t.Helper()
		held, added := accs(step)
		for {
			old, fresh := seen(t, held), seen(t, added)
			if filingSeen(t, s, held) == old {
				return old, fresh
			}
		}
	}
	stopAtEachStep(t, func(stop context.Context, step int) error {
		held, _ := accs(step)
		f, fsecs := filingVersion(held, 1)
		must(t, "Upsert the filing held", s.UpsertFilings(ctx, []filingdomain.Filing{f}, fsecs))
		fs, all := batch(step)
		return s.UpsertFilings(stop, fs, all)
	}, func(t *testing.T, step int) {
		old, fresh := both(t, step)
		if old == 0 || (fresh == 2) != (old == 2) {
			t.Fatalf("stopped at step %d: the filing held is seen in version %d, the new one in %d", step, old, fresh)
		}
		fs, all := batch(step)
		must(t, "Upsert again", s.UpsertFilings(ctx, fs, all))
		if old, fresh := both(t, step); old != 2 || fresh != 2 {
			t.Fatalf("written again after step %d: versions %d and %d are seen", step, old, fresh)
		}
	})
}

func aaplSections() []filingdomain.Section {
	mk := func(item, name, text string) filingdomain.Section {
		return filingdomain.Section{
			ID: filingdomain.SectionID("0000320193-24-000123", item), Accession: "0000320193-24-000123", CIK: "0000320193",
			Ticker: "AAPL", Form: "10-K", Filed: filedAAPL, ItemNumber: item, ItemName: name, Text: text, RetrievedAt: retrieved,
		}
	}
	return []filingdomain.Section{
		mk("1", "Business", "Item 1. Business\nThe Company’s fiscal year is the 52- or 53-week period that ends on the last Saturday of September."),
		mk("1A", "Risk Factors", "Item 1A. Risk Factors\nThe Company has a minority market share in the global smartphone, personal computer and tablet markets."),
	}
}

// readSince reads every section written after mark in pages of at most
// limit, and returns them in the order read, each page's mark and the mark
// reached.
func readSince(t *testing.T, s ports.SectionStore, mark ports.SectionMark, limit int) ([]filingdomain.Section, []ports.SectionMark, ports.SectionMark) {
	t.Helper()
	got := []filingdomain.Section{}
	var marks []ports.SectionMark
	end, err := s.SectionsSince(context.Background(), mark, limit, func(page []filingdomain.Section, next ports.SectionMark) error {
		if len(page) > limit {
			t.Errorf("a page of %d sections, limit %d", len(page), limit)
		}
		got = append(got, page...)
		marks = append(marks, next)
		return nil
	})
	must(t, "SectionsSince", err)
	if len(marks) > 0 && marks[len(marks)-1] != end {
		t.Fatalf("SectionsSince returned %+v, the last page's mark was %+v", end, marks[len(marks)-1])
	}
	return got, marks, end
}

// numbered returns n sections of one 10-K, one per filing numbered from
// first, ordered by id.
func numbered(first, n int) []filingdomain.Section {
	out := make([]filingdomain.Section, n)
	for i := range out {
		out[i] = aaplSections()[0]
		out[i].ID = filingdomain.SectionID(fmt.Sprintf("0000320193-24-%06d", first+i), "1")
	}
	return out
}

func ids(secs []filingdomain.Section) []string {
	out := make([]string, len(secs))
	for i, s := range secs {
		out[i] = s.ID
	}
	return out
}

// RunSections is the contract of SectionStore.
func RunSections(t *testing.T, newStore NewSectionStore) {
	ctx := context.Background()
	t.Run("empty store", func(t *testing.T) {
		if got, marks, _ := readSince(t, newStore(t), ports.SectionMark{}, 10); len(got) != 0 || len(marks) != 0 {
			t.Fatalf("SectionsSince(0) = %d sections in %d pages, want none", len(got), len(marks))
		}
	})
	t.Run("upsert is idempotent, keeps the text exactly and orders by id", func(t *testing.T) {
		s := newStore(t)
		secs := aaplSections()
		must(t, "Upsert", s.UpsertSections(ctx, []filingdomain.Section{secs[1], secs[0]}))
		must(t, "Upsert again", s.UpsertSections(ctx, secs))
		if got, _, _ := readSince(t, s, ports.SectionMark{}, 10); !reflect.DeepEqual(got, secs) {
			t.Fatalf("SectionsSince(0) = %+v\nwant            %+v", got, secs)
		}
	})
	t.Run("sections by id leave out the ids not held", func(t *testing.T) {
		s := newStore(t)
		secs := aaplSections()
		must(t, "Upsert", s.UpsertSections(ctx, secs))
		got, err := s.SectionsByID(ctx, []string{secs[1].ID, "0000000000-00-000000-9", secs[0].ID, secs[1].ID})
		must(t, "SectionsByID", err)
		if !reflect.DeepEqual(got, secs) {
			t.Fatalf("SectionsByID = %+v\nwant         %+v", got, secs)
		}
		none, err := s.SectionsByID(ctx, nil)
		must(t, "SectionsByID of none", err)
		if len(none) != 0 {
			t.Fatalf("SectionsByID of none = %+v", none)
		}
	})
	t.Run("sections since a mark are those written after it", func(t *testing.T) {
		s := newStore(t)
		secs := aaplSections()
		must(t, "Upsert", s.UpsertSections(ctx, secs[:1]))
		first, _, mark := readSince(t, s, ports.SectionMark{}, 10)
		if len(first) != 1 || mark.Write <= 0 || mark.After != "" {
			t.Fatalf("SectionsSince(0) = %d sections, mark %+v", len(first), mark)
		}
		none, marks, same := readSince(t, s, mark, 10)
		if len(none) != 0 || len(marks) != 0 || same != mark {
			t.Fatalf("without a write: %d sections in %d pages, mark %+v -> %+v", len(none), len(marks), mark, same)
		}
		must(t, "Upsert", s.UpsertSections(ctx, secs[1:]))
		got, _, next := readSince(t, s, mark, 10)
		if !reflect.DeepEqual(got, secs[1:]) || next.Write <= mark.Write {
			t.Fatalf("after one more write: %+v, mark %+v -> %+v; want only %s", got, mark, next, secs[1].ID)
		}
		must(t, "Upsert again", s.UpsertSections(ctx, secs[:1]))
		if again, _, _ := readSince(t, s, next, 10); len(again) != 1 || again[0].ID != secs[0].ID {
			t.Fatalf("a rewritten section does not come again: %+v", again)
		}
	})
	t.Run("a read comes in pages in the order of writes, each with the mark that resumes after it", func(t *testing.T) {
		s := newStore(t)
		older, newer := numbered(10, 3), numbered(0, 2) // the later write holds the smaller ids
		must(t, "Upsert", s.UpsertSections(ctx, older))
		must(t, "Upsert", s.UpsertSections(ctx, newer))
		got, marks, end := readSince(t, s, ports.SectionMark{}, 2)
		want := append(ids(older), ids(newer)...)
		if !reflect.DeepEqual(ids(got), want) || len(marks) != 3 {
			t.Fatalf("read %v in %d pages, want %v in 3 pages of at most 2", ids(got), len(marks), want)
		}
		for i, m := range marks {
			rest, _, again := readSince(t, s, m, 2)
			if left := want[min(2*(i+1), len(want)):]; !reflect.DeepEqual(ids(rest), left) || again != end {
				t.Fatalf("resumed after page %d (%+v): %v, mark %+v; want %v, %+v", i+1, m, ids(rest), again, left, end)
			}
		}
		if _, _, none := readSince(t, s, end, 2); none != end {
			t.Fatalf("after the whole read: mark %+v -> %+v", end, none)
		}
	})
	t.Run("an error of a page stops the read", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertSections(ctx, numbered(0, 3)))
		stop, calls := errors.New("index full"), 0
		_, err := s.SectionsSince(ctx, ports.SectionMark{}, 1, func([]filingdomain.Section, ports.SectionMark) error {
			calls++
			return stop
		})
		if !errors.Is(err, stop) || calls != 1 {
			t.Fatalf("SectionsSince = %v after %d pages, want %v after 1", err, calls, stop)
		}
	})
	t.Run("a reader following concurrent writers misses no section", func(t *testing.T) {
		s := newStore(t)
		const writers, writes = 4, 6
		seen := map[string]bool{}
		var mark ports.SectionMark
		follow := func() {
			t.Helper()
			got, _, next := readSince(t, s, mark, 5)
			for _, sec := range got {
				seen[sec.ID] = true
			}
			mark = next
		}
		var wg sync.WaitGroup
		for w := range writers {
			wg.Go(func() {
				for i := range writes {
					if err := s.UpsertSections(ctx, numbered(w*writes+i, 1)); err != nil {
						t.Errorf("Upsert: %v", err)
						return
					}
				}
			})
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		for following := true; following; {
			select {
			case <-done:
				following = false
			default:
				follow()
			}
		}
		follow() // every write has completed: this call sees the rest
		if len(seen) != writers*writes {
			t.Fatalf("the reader saw %d of %d sections", len(seen), writers*writes)
		}
	})
}

// RunSectionIndex is the contract of SectionIndex. Scores are the
// engine's own (bleve's BM25, PostgreSQL's ts_rank_cd), so the order of
// sections of different scores may differ between engines; what every
// index keeps is checked here: a section matches when it holds any word
// of the query (English stems, stop words dropped), hits come best first
// with equal scores ordered by id, pages are cut from that one order,
// the total is exact, and each passage is ports.DensestPassage of the
// matched words.
func RunSectionIndex(t *testing.T, newIndex NewSectionIndex) {
	ctx := context.Background()
	secs := aaplSections()
	t.Run("the last checkpoint saved is the one read", func(t *testing.T) { runCheckpoint(t, newIndex(t)) })
	search := func(t *testing.T, x ports.SectionIndex, q ports.SectionQuery) ([]ports.IndexHit, int) {
		t.Helper()
		if q.Limit == 0 {
			q.Limit = 10
		}
		hits, total, err := x.Search(ctx, q)
		must(t, "Search", err)
		return hits, total
	}
	t.Run("empty index finds nothing", func(t *testing.T) {
		x := newIndex(t)
		if hits, total := search(t, x, ports.SectionQuery{Text: "smartphone"}); len(hits) != 0 || total != 0 {
			t.Fatalf("hits = %v, total %d", hits, total)
		}
	})
	x := newIndex(t)
	must(t, "Index", x.Index(ctx, secs))
	must(t, "Index again", x.Index(ctx, secs))
	if n, err := x.Count(ctx); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want 2", n, err)
	}
	t.Run("a passage cut at the offsets holds the matched words", func(t *testing.T) {
		hits, total := search(t, x, ports.SectionQuery{Text: "minority market share"})
		if total != 1 || len(hits) != 1 || hits[0].ID != secs[1].ID {
			t.Fatalf("hits = %+v, total %d", hits, total)
		}
		if got := cutBytes(secs[1].Text, hits[0].Start, hits[0].End); got != "minority market share" {
			t.Fatalf("passage = %q", got)
		}
	})
	t.Run("offsets count bytes past multi-byte characters", func(t *testing.T) {
		hits, _ := search(t, x, ports.SectionQuery{Text: "last Saturday of September"})
		if len(hits) == 0 || hits[0].ID != secs[0].ID {
			t.Fatalf("hits = %+v", hits)
		}
		if got := cutBytes(secs[0].Text, hits[0].Start, hits[0].End); got != "last Saturday of September" {
			t.Fatalf("passage = %q", got)
		}
	})
	t.Run("filters narrow the matches", func(t *testing.T) {
		day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
		cases := []struct {
			name string
			q    ports.SectionQuery
			want int
		}{
			{"ticker", ports.SectionQuery{Text: "company", Ticker: "AAPL"}, 2},
			{"other ticker", ports.SectionQuery{Text: "company", Ticker: "MSFT"}, 0},
			{"cik and item", ports.SectionQuery{Text: "company", CIK: "0000320193", ItemNumber: "1A"}, 1},
			{"form", ports.SectionQuery{Text: "company", Form: "10-Q"}, 0},
			{"filed within", ports.SectionQuery{Text: "company", FiledFrom: day("2024-11-01"), FiledTo: day("2024-11-01")}, 2},
			{"filed before", ports.SectionQuery{Text: "company", FiledTo: day("2024-10-31")}, 0},
			{"filed after", ports.SectionQuery{Text: "company", FiledFrom: day("2024-11-02")}, 0},
		}
		for _, tc := range cases {
			if _, total := search(t, x, tc.q); total != tc.want {
				t.Errorf("%s: total = %d, want %d", tc.name, total, tc.want)
			}
		}
	})
	t.Run("pages follow the ranking", func(t *testing.T) {
		all, total := search(t, x, ports.SectionQuery{Text: "company market"})
		if total != 2 || len(all) != 2 || all[0].Score < all[1].Score {
			t.Fatalf("hits = %+v", all)
		}
		second, _ := search(t, x, ports.SectionQuery{Text: "company market", Limit: 1, Offset: 1})
		if len(second) != 1 || second[0].ID != all[1].ID {
			t.Fatalf("page 2 = %+v, want %s", second, all[1].ID)
		}
		past, total := search(t, x, ports.SectionQuery{Text: "company market", Offset: 5})
		if len(past) != 0 || total != 2 {
			t.Fatalf("a page past the end = %+v, total %d; want none of 2", past, total)
		}
	})
	t.Run("a section holding any of the words matches, a query of stop words none", func(t *testing.T) {
		if _, total := search(t, x, ports.SectionQuery{Text: "smartphone saturday"}); total != 2 {
			t.Errorf("words of two sections: total = %d, want 2", total)
		}
		if hits, total := search(t, x, ports.SectionQuery{Text: "the of a"}); total != 0 || len(hits) != 0 {
			t.Errorf("stop words only: %+v, total %d", hits, total)
		}
	})
	t.Run("equal scores are ordered by id", func(t *testing.T) {
		y := newIndex(t)
		twins := numbered(1, 3)
		must(t, "Index", y.Index(ctx, []filingdomain.Section{twins[2], twins[0], twins[1]}))
		hits, total := search(t, y, ports.SectionQuery{Text: "fiscal year"})
		if total != 3 || len(hits) != 3 {
			t.Fatalf("hits = %+v, total %d", hits, total)
		}
		for i, h := range hits {
			if h.ID != twins[i].ID || h.Score != hits[0].Score {
				t.Fatalf("hit %d = %+v, want %s at score %v", i, h, twins[i].ID, hits[0].Score)
			}
		}
	})
}

// cutBytes returns text[start:end) counted in bytes.
func cutBytes(text string, start, end int) string {
	if start < 0 || end > len(text) || start > end {
		return "<out of range>"
	}
	return text[start:end]
}
