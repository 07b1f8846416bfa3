package porttest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

// NewJudgmentStore returns an empty JudgmentStore for one test.
type NewJudgmentStore func(t *testing.T) ports.JudgmentStore

// NewJudgmentIndex returns an empty JudgmentIndex for one test.
type NewJudgmentIndex func(t *testing.T) ports.JudgmentIndex

// judgmentKey derives the fixtures' tokens; it is a test key, and the
// fixtures hold tokens only, as a store does.
var judgmentKey = func() pii.Key {
	k, err := pii.NewKey([]byte(strings.Repeat("porttest judgments ", 2)))
	if err != nil {
		panic(err)
	}
	return k
}()

// judgmentFixtures are two real Supreme Court of India judgments, their
// opening paragraphs as published (Kalawati (d) through LRs v Rakesh
// Kumar, 16 February 2018; Commissioner of Customs, Central Excise and
// Service Tax, Guntur v Andhra Sugars Ltd, 5 February 2018), tokenized;
// Kalawati's co-defendants are named in its text but not listed as
// parties, and a made-up PAN split by hyphens is added to Andhra Sugars'.
func judgmentFixtures(t *testing.T) []judgment.Judgment {
	t.Helper()
	at := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	srcs := []judgment.Source{{
		Court: "Supreme Court of India", CaseNumber: "Civil Appeal No. 2244 of 2018", Title: "Kalawati (d), through Lrs. and others v Rakesh Kumar and others",
		Parties: []judgment.SourceParty{{Name: "Kalawati", Role: "appellant"}, {Name: "Rakesh Kumar", Role: "respondent"}},
		Judges:  []string{"Madan B. Lokur", "Deepak Gupta"}, DecisionDate: "2018-02-16", Language: "en", Citations: []string{},
		Text: "1. Leave granted.\n2. \"Ease of business\" and \"enforcement of contract\" are the two new buzzwords and rightly so. " +
			"For ease of doing business insofar as justice delivery is concerned, it is time to introspect and introduce case management programmes.\n" +
			"4. The appellants (Kalawati and others) are aggrieved by the judgment and decree dated 10th December, 2013. " +
			"A suit was filed by the plaintiff (Rakesh Kumar) for specific performance of the agreement to sell.\n" +
			"5. The rest of the land was in the absolute ownership/bhumidari of defendant Nos.2 to 4 (Bishan Prakash, Om Prakash and Ved Prakash).",
		RetrievedAt: at,
	}, {
		Court: "Supreme Court of India", CaseNumber: "Civil Appeal No. 11711 of 2016", Title: "Commissioner of Customs Central Excise and Service Tax, Guntur v Andhra Sugars Limited",
		Parties: []judgment.SourceParty{{Name: "Commissioner of Customs Central Excise and Service Tax, Guntur", Role: "appellant"}, {Name: "Andhra Sugars Limited", Role: "respondent"}, {Name: "Andhra Sugars Ltd.", Role: "respondent"}},
		Judges:  []string{"A.K. Sikri", "Ashok Bhushan"}, DecisionDate: "2018-02-05", Language: "en", Citations: []string{},
		Text: "1. The question of law which needs determination in all these appeals is identical. It pertains to Cenvat Credit in respect of service tax " +
			"paid on goods that are transported to the purchaser after the sale.\n2. The respondent M/s. Andhra Sugars Ltd. are the manufacturers of sugar, molasses etc. " +
			"— the ‘place of removal’ question. Its PAN, ABCPK-1234-Z, is made up.",
		RetrievedAt: at,
	}}
	out := make([]judgment.Judgment, len(srcs))
	for i, s := range srcs {
		j, _, err := judgment.Tokenize(judgmentKey, s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = j
	}
	return out
}

// RunJudgments is the contract of JudgmentStore.
func RunJudgments(t *testing.T, newStore NewJudgmentStore) {
	ctx := context.Background()
	t.Run("empty store", func(t *testing.T) {
		s := newStore(t)
		_, err := s.Judgment(ctx, judgment.NewID("Supreme Court of India", "Civil Appeal No. 1 of 2018", "2018-01-01"))
		wantErr(t, "Judgment", err, ports.ErrNotFound)
		v, _, err := s.JudgmentVersions(ctx, 0)
		must(t, "JudgmentVersions", err)
		got, err := s.JudgmentsByID(ctx, []string{"inj_aaaaaaaaaaaaaaaa"})
		must(t, "JudgmentsByID", err)
		if len(v) != 0 || len(got) != 0 {
			t.Fatalf("versions %v, judgments %v", v, got)
		}
	})
	t.Run("round trip, idempotent, replaced by id", func(t *testing.T) {
		s := newStore(t)
		js := judgmentFixtures(t)
		n, err := s.UpsertJudgments(ctx, js)
		must(t, "UpsertJudgments", err)
		if n != 2 {
			t.Fatalf("wrote %d, want 2", n)
		}
		before, _, err := s.JudgmentVersions(ctx, 0)
		must(t, "JudgmentVersions", err)
		if n, err := s.UpsertJudgments(ctx, js); err != nil || n != 0 {
			t.Fatalf("writing the same judgments again wrote %d, %v", n, err)
		}
		for _, j := range js {
			got, err := s.Judgment(ctx, j.ID)
			must(t, "Judgment", err)
			if !reflect.DeepEqual(got, j) {
				t.Fatalf("Judgment(%s) =\n%+v\nwant\n%+v", j.ID, got, j)
			}
		}
		got, err := s.JudgmentsByID(ctx, []string{js[0].ID, "inj_aaaaaaaaaaaaaaaa", js[1].ID, js[0].ID})
		must(t, "JudgmentsByID", err)
		if len(got) != 2 || got[0].ID > got[1].ID {
			t.Fatalf("JudgmentsByID = %d judgments, want both in id order", len(got))
		}
		changed := js[1]
		changed.Text += "\n3. Appeal dismissed."
		if n, err := s.UpsertJudgments(ctx, []judgment.Judgment{js[0], changed}); err != nil || n != 1 {
			t.Fatalf("one judgment changed: wrote %d, %v", n, err)
		}
		after, _, err := s.JudgmentVersions(ctx, 0)
		must(t, "JudgmentVersions", err)
		if len(after) != 2 || after[js[0].ID] != before[js[0].ID] || after[js[1].ID] == before[js[1].ID] || after[js[1].ID] == "" {
			t.Fatalf("versions before %v, after %v: only the changed judgment's may move", before, after)
		}
		if got, _ := s.Judgment(ctx, changed.ID); got.Text != changed.Text {
			t.Fatalf("the change was not kept: %q", got.Text)
		}
	})
	t.Run("versions since a mark: what was written since, nothing when nothing was", func(t *testing.T) {
		runVersionsSince(t, newStore(t))
	})
	t.Run("listed by court and decision date, without text", func(t *testing.T) {
		s := newStore(t)
		js := judgmentFixtures(t) // decided 2018-02-16 and 2018-02-05
		if _, err := s.UpsertJudgments(ctx, js); err != nil {
			t.Fatal(err)
		}
		list := func(q ports.JudgmentListQuery) []judgment.Judgment {
			t.Helper()
			var out []judgment.Judgment
			for j, err := range s.JudgmentList(ctx, q) {
				must(t, "JudgmentList", err)
				out = append(out, j)
			}
			return out
		}
		all := list(ports.JudgmentListQuery{})
		if len(all) != 2 || all[0].ID != js[1].ID || all[1].ID != js[0].ID {
			t.Fatalf("JudgmentList = %d judgments, want both, the earlier decision first", len(all))
		}
		for i, j := range []judgment.Judgment{js[1], js[0]} {
			j.Text = ""
			if !reflect.DeepEqual(all[i], j) {
				t.Fatalf("listed\n%+v\nwant the judgment without its text\n%+v", all[i], j)
			}
		}
		for _, tc := range []struct {
			q    ports.JudgmentListQuery
			want []string
		}{
			{ports.JudgmentListQuery{Court: "supreme court of INDIA"}, []string{js[1].ID, js[0].ID}},
			{ports.JudgmentListQuery{Court: "Supreme Court"}, nil},
			{ports.JudgmentListQuery{Court: "Supreme Court of India.*"}, nil},
			{ports.JudgmentListQuery{Court: "High Court of Delhi"}, nil},
			{ports.JudgmentListQuery{DecidedFrom: "2018-02-06"}, []string{js[0].ID}},
			{ports.JudgmentListQuery{DecidedTo: "2018-02-05"}, []string{js[1].ID}},
			{ports.JudgmentListQuery{Court: "Supreme Court of India", DecidedFrom: "2018-02-05", DecidedTo: "2018-02-16"}, []string{js[1].ID, js[0].ID}},
			{ports.JudgmentListQuery{DecidedFrom: "2018-02-17"}, nil},
		} {
			var ids []string
			for _, j := range list(tc.q) {
				ids = append(ids, j.ID)
			}
			if !reflect.DeepEqual(ids, tc.want) {
				t.Errorf("%+v: listed %v, want %v", tc.q, ids, tc.want)
			}
		}
		for _, err := range s.JudgmentList(ctx, ports.JudgmentListQuery{}) {
			must(t, "JudgmentList stopped early", err)
			break
		}
	})
	t.Run("concurrent writers of the same judgments", func(t *testing.T) {
		s := newStore(t)
		js := judgmentFixtures(t)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				if _, err := s.UpsertJudgments(ctx, js); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("a concurrent write failed: %v", err)
		}
		v, _, err := s.JudgmentVersions(ctx, 0)
		must(t, "JudgmentVersions", err)
		if len(v) != 2 {
			t.Fatalf("%d judgments held, want 2", len(v))
		}
	})
}

// runVersionsSince checks that JudgmentVersions from a mark returns the
// judgments written since, in their new version, and none when nothing
// was written or the write changed nothing, while mark 0 still returns
// every judgment.
func runVersionsSince(t *testing.T, s ports.JudgmentStore) {
	ctx := context.Background()
	js := judgmentFixtures(t)
	since := func(mark int64) (map[string]string, int64) {
		t.Helper()
		v, next, err := s.JudgmentVersions(ctx, mark)
		must(t, "JudgmentVersions", err)
		return v, next
	}
	if _, err := s.UpsertJudgments(ctx, js[:1]); err != nil {
		t.Fatal(err)
	}
	first, mark := since(0)
	if len(first) != 1 || first[js[0].ID] == "" || mark == 0 {
		t.Fatalf("after one write: versions %v, mark %d; want the one judgment and a mark", first, mark)
	}
	if v, next := since(mark); len(v) != 0 || next < mark {
		t.Fatalf("nothing written since the mark: versions %v, mark %d -> %d", v, mark, next)
	}
	if _, err := s.UpsertJudgments(ctx, js[:1]); err != nil {
		t.Fatal(err)
	}
	if v, _ := since(mark); len(v) != 0 {
		t.Fatalf("the same judgment written again, unchanged: versions %v", v)
	}
	changed := js[0]
	changed.Text += "\n6. Appeal allowed."
	if _, err := s.UpsertJudgments(ctx, []judgment.Judgment{changed, js[1]}); err != nil {
		t.Fatal(err)
	}
	got, next := since(mark)
	all, _ := since(0)
	if len(got) != 2 || got[js[0].ID] == first[js[0].ID] || !reflect.DeepEqual(got, all) {
		t.Fatalf("one judgment rewritten, one added: versions %v since the mark, %v in all, first %v", got, all, first)
	}
	if v, _ := since(next); len(v) != 0 {
		t.Fatalf("nothing written since the next mark: versions %v", v)
	}
}

// RunJudgmentIndex is the contract of JudgmentIndex; what every index
// keeps is what RunSectionIndex says.
func RunJudgmentIndex(t *testing.T, newIndex NewJudgmentIndex) {
	ctx := context.Background()
	js := judgmentFixtures(t)
	t.Run("the last checkpoint saved is the one read", func(t *testing.T) { runCheckpoint(t, newIndex(t)) })
	search := func(t *testing.T, x ports.JudgmentIndex, q ports.JudgmentQuery) ([]ports.IndexHit, int) {
		t.Helper()
		if q.Limit == 0 {
			q.Limit = 10
		}
		hits, total, err := x.Search(ctx, q)
		must(t, "Search", err)
		return hits, total
	}
	t.Run("empty index finds nothing", func(t *testing.T) {
		if hits, total := search(t, newIndex(t), ports.JudgmentQuery{Text: "contract"}); len(hits) != 0 || total != 0 {
			t.Fatalf("hits = %v, total %d", hits, total)
		}
	})
	x := newIndex(t)
	must(t, "Index", x.Index(ctx, js))
	must(t, "Index again", x.Index(ctx, js))
	if n, err := x.Count(ctx); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want 2", n, err)
	}
	t.Run("a passage cut at the offsets holds the matched words", func(t *testing.T) {
		hits, total := search(t, x, ports.JudgmentQuery{Text: "case management programmes"})
		if total != 1 || hits[0].ID != js[0].ID {
			t.Fatalf("hits = %+v, total %d", hits, total)
		}
		if got := cutBytes(js[0].Text, hits[0].Start, hits[0].End); got != "case management programmes" {
			t.Fatalf("passage = %q", got)
		}
	})
	t.Run("offsets count bytes past multi-byte characters", func(t *testing.T) {
		hits, _ := search(t, x, ports.JudgmentQuery{Text: "place of removal"})
		if len(hits) == 0 || hits[0].ID != js[1].ID {
			t.Fatalf("hits = %+v", hits)
		}
		if got := cutBytes(js[1].Text, hits[0].Start, hits[0].End); got != "place of removal" {
			t.Fatalf("passage = %q", got)
		}
	})
	t.Run("a party or a litigant the text names is found by its token, never by its name, nor a PAN", func(t *testing.T) {
		tok := js[0].Parties[1].Token
		if hits, _ := search(t, x, ports.JudgmentQuery{Text: tok}); len(hits) != 1 || hits[0].ID != js[0].ID {
			t.Fatalf("search for %s: %+v", tok, hits)
		}
		for _, name := range []string{"Rakesh Kumar", "Kalawati", "Andhra", "Guntur", "Bishan Prakash", "Ved", "ABCPK1234Z", "ABCPK"} {
			if hits, total := search(t, x, ports.JudgmentQuery{Text: name}); total != 0 {
				t.Errorf("search for the name %q found %+v", name, hits)
			}
		}
	})
	t.Run("filters narrow the matches", func(t *testing.T) {
		day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
		for _, tc := range []struct {
			q    ports.JudgmentQuery
			want int
		}{
			{ports.JudgmentQuery{Text: "appeals granted sale", Court: "supreme court of india"}, 2},
			{ports.JudgmentQuery{Text: "appeals granted sale", Court: "High Court of Delhi"}, 0},
			{ports.JudgmentQuery{Text: "appeals granted sale", DecidedFrom: day("2018-02-06")}, 1},
			{ports.JudgmentQuery{Text: "appeals granted sale", DecidedTo: day("2018-02-05")}, 1},
			{ports.JudgmentQuery{Text: "appeals granted sale", DecidedFrom: day("2018-02-05"), DecidedTo: day("2018-02-16")}, 2},
		} {
			if _, total := search(t, x, tc.q); total != tc.want {
				t.Errorf("%s: total = %d, want %d", fmt.Sprintf("%+v", tc.q), total, tc.want)
			}
		}
	})
	t.Run("pages follow the ranking", func(t *testing.T) {
		all, total := search(t, x, ports.JudgmentQuery{Text: "appeals granted sale"})
		if total != 2 || all[0].Score < all[1].Score {
			t.Fatalf("hits = %+v", all)
		}
		second, _ := search(t, x, ports.JudgmentQuery{Text: "appeals granted sale", Limit: 1, Offset: 1})
		if len(second) != 1 || second[0].ID != all[1].ID {
			t.Fatalf("page 2 = %+v, want %s", second, all[1].ID)
		}
		past, total := search(t, x, ports.JudgmentQuery{Text: "appeals granted sale", Offset: 5})
		if len(past) != 0 || total != 2 {
			t.Fatalf("a page past the end = %+v, total %d; want none of 2", past, total)
		}
	})
	t.Run("a query of stop words matches nothing", func(t *testing.T) {
		if hits, total := search(t, x, ports.JudgmentQuery{Text: "the of a"}); total != 0 || len(hits) != 0 {
			t.Errorf("stop words only: %+v, total %d", hits, total)
		}
	})
}
