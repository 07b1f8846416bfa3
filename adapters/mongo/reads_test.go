package mongo_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// The contracts of the stores search reads its hits back from, on the data
// directory's FerretDB.
func TestSearchStoresContractEmbedded(t *testing.T) {
	t.Run("filings", func(t *testing.T) {
		porttest.RunFilings(t, func(t *testing.T) ports.FilingStore { return mongoadapter.NewFilings(embeddedDB(t)) })
	})
	t.Run("sections", func(t *testing.T) {
		porttest.RunSections(t, func(t *testing.T) ports.SectionStore { return mongoadapter.NewFilings(embeddedDB(t)) })
	})
	t.Run("judgments", func(t *testing.T) {
		porttest.RunJudgments(t, func(t *testing.T) ports.JudgmentStore { return mongoadapter.NewJudgments(embeddedDB(t)) })
	})
}

// findLog records the filter of every find command a client sends, by
// collection.
type findLog struct {
	mu      sync.Mutex
	filters map[string][]bson.Raw
}

func (l *findLog) started(_ context.Context, e *event.CommandStartedEvent) {
	if e.CommandName != "find" {
		return
	}
	coll, _ := e.Command.Lookup("find").StringValueOK()
	filter, _ := e.Command.Lookup("filter").DocumentOK()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.filters[coll] = append(l.filters[coll], filter)
}

// take returns the filters sent to coll since the last call.
func (l *findLog) take(coll string) []bson.Raw {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.filters[coll]
	delete(l.filters, coll)
	return out
}

// loggedDB is a fresh database on the embedded FerretDB whose client's
// find commands are logged.
func loggedDB(t *testing.T) (*mongo.Database, *findLog) {
	t.Helper()
	log := &findLog{filters: map[string][]bson.Raw{}}
	return embeddedDBWith(t, options.Client().SetMonitor(&event.CommandMonitor{Started: log.started})), log
}

// assertByIDEquality fails unless filters are one `{_id: <string>}` per id
// of want, in any order: the only filter FerretDB 1.x reads from an index
// (an `$in` reads the whole collection, even of one id).
func assertByIDEquality(t *testing.T, what string, filters []bson.Raw, want []string) {
	t.Helper()
	var got []string
	for _, f := range filters {
		elems, err := f.Elements()
		id, ok := f.Lookup("_id").StringValueOK()
		if err != nil || len(elems) != 1 || !ok {
			t.Fatalf("%s sent the filter %s, want {_id: <one id>}", what, f)
		}
		got = append(got, id)
	}
	if !reflect.DeepEqual(sortedSet(got), sortedSet(want)) {
		t.Fatalf("%s read the ids %v, want each of %v once", what, got, want)
	}
}

func sortedSet(ids []string) map[string]int {
	out := map[string]int{}
	for _, id := range ids {
		out[id]++
	}
	return out
}

// A page of search hits is read back one _id equality per distinct hit,
// for the sections of US filings and for India judgments alike.
func TestHitsAreReadBackByIDEquality(t *testing.T) {
	ctx := context.Background()
	db, log := loggedDB(t)
	secs := sections()
	filings := mongoadapter.NewFilings(db)
	must(t, filings.UpsertSections(ctx, secs))
	missing := filing.SectionID("0000000000-00-000000", "9")
	log.take("us_filing_sections")
	got, err := filings.SectionsByID(ctx, []string{secs[1].ID, missing, secs[0].ID, secs[1].ID})
	must(t, err)
	if !reflect.DeepEqual(got, secs) {
		t.Fatalf("SectionsByID = %+v, want %+v", got, secs)
	}
	assertByIDEquality(t, "SectionsByID", log.take("us_filing_sections"), []string{secs[0].ID, secs[1].ID, missing})

	js := twoJudgments()
	judgments := mongoadapter.NewJudgments(db)
	_, err = judgments.UpsertJudgments(ctx, js)
	must(t, err)
	log.take("india_judgments")
	found, err := judgments.JudgmentsByID(ctx, []string{js[1].ID, "inj_aaaaaaaaaaaaaaaa", js[0].ID})
	must(t, err)
	if len(found) != 2 || found[0].ID != js[0].ID || found[1].ID != js[1].ID {
		t.Fatalf("JudgmentsByID = %+v, want both in id order", found)
	}
	assertByIDEquality(t, "JudgmentsByID", log.take("india_judgments"), []string{js[0].ID, js[1].ID, "inj_aaaaaaaaaaaaaaaa"})
}

// A refresh that finds no write of sections settled since its mark reads
// no section: its filter on seq is served by no index, so on FerretDB it
// read every section every QUARRY_MONGO_REFRESH while nothing changed.
func TestSectionsSinceReadsNoSectionWithoutAWrite(t *testing.T) {
	ctx := context.Background()
	db, log := loggedDB(t)
	filings := mongoadapter.NewFilings(db)
	secs := sections()
	must(t, filings.UpsertSections(ctx, secs[:1]))
	_, mark := readAll(t, filings, ports.SectionMark{}, 10)
	log.take("us_filing_sections")
	none, same := readAll(t, filings, mark, 10)
	if len(none) != 0 || same != mark {
		t.Fatalf("without a write: %d sections, mark %+v -> %+v", len(none), mark, same)
	}
	if f := log.take("us_filing_sections"); len(f) != 0 {
		t.Fatalf("without a write, the refresh read the sections: %s", f)
	}
	must(t, filings.UpsertSections(ctx, secs[1:]))
	if got, _ := readAll(t, filings, mark, 10); len(got) != 1 || got[0].ID != secs[1].ID {
		t.Fatalf("after a write: %+v, want %s", got, secs[1].ID)
	}
}

// A read of many pages scans the sections for their write numbers once,
// and reads each page's sections one _id equality each: paging does not
// turn one scan into one a page, which FerretDB does not push down.
func TestSectionsSinceScansOnceForAllItsPages(t *testing.T) {
	ctx := context.Background()
	db, log := loggedDB(t)
	filings := mongoadapter.NewFilings(db)
	secs := sections()
	must(t, filings.UpsertSections(ctx, secs[:1]))
	must(t, filings.UpsertSections(ctx, secs[1:]))
	log.take("us_filing_sections") // the writes' reads of what they replace
	pages := 0
	_, err := filings.SectionsSince(ctx, ports.SectionMark{}, 1, func([]filing.Section, ports.SectionMark) error {
		pages++
		return nil
	})
	must(t, err)
	var scans, byID []bson.Raw
	for _, f := range log.take("us_filing_sections") {
		if _, ok := f.Lookup("_id").StringValueOK(); ok {
			byID = append(byID, f)
		} else {
			scans = append(scans, f)
		}
	}
	if pages != 2 || len(scans) != 1 {
		t.Fatalf("%d pages read with %d scans (%s), want 2 pages and 1 scan", pages, len(scans), scans)
	}
	assertByIDEquality(t, "the pages", byID, []string{secs[0].ID, secs[1].ID})
}

// readAll reads every section written after mark, limit a page.
func readAll(t *testing.T, s ports.SectionStore, mark ports.SectionMark, limit int) ([]filing.Section, ports.SectionMark) {
	t.Helper()
	var got []filing.Section
	end, err := s.SectionsSince(context.Background(), mark, limit, func(page []filing.Section, _ ports.SectionMark) error {
		got = append(got, page...)
		return nil
	})
	must(t, err)
	return got, end
}

// A look for changed judgments that finds no write of judgments settled
// since its mark reads no judgment: reading every judgment's version read
// every judgment, text included, on FerretDB, every QUARRY_MONGO_REFRESH
// while nothing changed. After a write it asks for what was written since
// the mark, and is told of that alone.
func TestJudgmentVersionsReadNoJudgmentWithoutAWrite(t *testing.T) {
	ctx := context.Background()
	db, log := loggedDB(t)
	judgments := mongoadapter.NewJudgments(db)
	js := twoJudgments()
	_, err := judgments.UpsertJudgments(ctx, js[:1])
	must(t, err)
	_, mark, err := judgments.JudgmentVersions(ctx, 0)
	must(t, err)
	log.take("india_judgments")
	none, same, err := judgments.JudgmentVersions(ctx, mark)
	must(t, err)
	if len(none) != 0 || same != mark {
		t.Fatalf("without a write: %d versions, mark %d -> %d", len(none), mark, same)
	}
	_, err = judgments.UpsertJudgments(ctx, js[:1])
	must(t, err)
	log.take("india_judgments")
	if _, _, err := judgments.JudgmentVersions(ctx, mark); err != nil {
		t.Fatal(err)
	}
	if f := log.take("india_judgments"); len(f) != 0 {
		t.Fatalf("without a write, or after one that changed nothing, the look read the judgments: %s", f)
	}
	_, err = judgments.UpsertJudgments(ctx, js[1:])
	must(t, err)
	log.take("india_judgments")
	got, _, err := judgments.JudgmentVersions(ctx, mark)
	must(t, err)
	if len(got) != 1 || got[js[1].ID] == "" {
		t.Fatalf("after a write: %v, want %s alone", got, js[1].ID)
	}
	if f := log.take("india_judgments"); len(f) != 1 || f[0].Lookup("seq").String() == "" {
		t.Fatalf("after a write, the look sent %s, want one find of what was written since the mark", f)
	}
}

// A store's writes of judgments read the stored digests, which on FerretDB
// reads every judgment, text included, once, at the first: an ingestion
// run writes a batch at a time, and reading them at each made it quadratic
// in its size. What it wrote since is known: writing it again writes
// nothing, and a changed judgment is written.
func TestJudgmentWritesReadTheStoredDigestsOnce(t *testing.T) {
	ctx := context.Background()
	db, log := loggedDB(t)
	judgments := mongoadapter.NewJudgments(db)
	js := twoJudgments()
	for i, batch := range [][]judgment.Judgment{js[:1], js[1:], js} {
		n, err := judgments.UpsertJudgments(ctx, batch)
		if want := []int{1, 1, 0}[i]; err != nil || n != want {
			t.Fatalf("write %d: %d written, %v; want %d", i, n, err, want)
		}
	}
	changed := js[0]
	changed.Text += "\n2. Appeal allowed."
	if n, err := judgments.UpsertJudgments(ctx, []judgment.Judgment{changed}); err != nil || n != 1 {
		t.Fatalf("a changed judgment: %d written, %v", n, err)
	}
	var whole int
	for _, f := range log.take("india_judgments") {
		if elems, _ := f.Elements(); len(elems) == 0 {
			whole++
		}
	}
	if whole != 1 {
		t.Fatalf("four writes read the whole collection %d times, want once", whole)
	}
}

// twoJudgments are two judgments of the Supreme Court of India.
func twoJudgments() []judgment.Judgment {
	at := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	return []judgment.Judgment{
		{ID: "inj_aaaaaaaaaaaaaaab", Court: "Supreme Court of India", Title: "A v B", DecisionDate: "2018-02-16", Text: "1. Leave granted.", RetrievedAt: at},
		{ID: "inj_aaaaaaaaaaaaaaac", Court: "Supreme Court of India", Title: "C v D", DecisionDate: "2018-02-05", Text: "1. The question of law.", RetrievedAt: at},
	}
}

// sections are two sections of one 10-K.
func sections() []filing.Section {
	at := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	return []filing.Section{
		{ID: filing.SectionID("0000320193-24-000123", "1"), Accession: "0000320193-24-000123", CIK: "0000320193", Ticker: "AAPL",
			Form: "10-K", Filed: at, ItemNumber: "1", ItemName: "Business", Text: "Item 1. Business", RetrievedAt: at},
		{ID: filing.SectionID("0000320193-24-000123", "1A"), Accession: "0000320193-24-000123", CIK: "0000320193", Ticker: "AAPL",
			Form: "10-K", Filed: at, ItemNumber: "1A", ItemName: "Risk Factors", Text: "Item 1A. Risk Factors", RetrievedAt: at},
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
