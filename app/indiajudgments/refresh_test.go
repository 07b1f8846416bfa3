package indiajudgments_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// versionsCounted counts the versions the store returns.
type versionsCounted struct {
	*memory.Judgments
	versions atomic.Int64
}

func (s *versionsCounted) JudgmentVersions(ctx context.Context, mark int64) (map[string]string, int64, error) {
	v, next, err := s.Judgments.JudgmentVersions(ctx, mark)
	s.versions.Add(int64(len(v)))
	return v, next, err
}

// TestRefreshReadsOnlyWhatWasWrittenSince refreshes the index as the
// serving process does every QUARRY_MONGO_REFRESH: with nothing written
// since the last refresh it is told of no judgment (it was told of every
// one, which on FerretDB read every judgment's text), and after another
// process rewrote one judgment it is told of that one alone, and indexes
// its new version. The dataset's probe asks the store nothing once a
// Refresh was told of a judgment (it read every judgment, on a cold
// server's first request).
func TestRefreshReadsOnlyWhatWasWrittenSince(t *testing.T) {
	ctx := context.Background()
	js := sampleJudgments(t)
	store := &versionsCounted{Judgments: memory.NewJudgments()}
	idx, err := bleveadapter.NewJudgments()
	if err != nil {
		t.Fatal(err)
	}
	u := indiajudgments.New(store, idx, textRenderer{}, usecase.SystemClock)
	if _, err := u.Store(ctx, js); err != nil {
		t.Fatal(err)
	}
	store.versions.Store(0)
	if held, err := u.JudgmentsProbe().Probe(ctx); err != nil || !held || store.versions.Load() != 0 {
		t.Fatalf("probe after a Refresh told of judgments: %v, %v, told of %d versions, want none", held, err, store.versions.Load())
	}
	if n, err := u.Refresh(ctx); err != nil || n != 0 || store.versions.Load() != 0 {
		t.Fatalf("nothing written: Refresh = %d, %v, told of %d versions, want none", n, err, store.versions.Load())
	}
	changed := js[1]
	changed.Text += "\nZygomorphic addendum."
	if _, err := store.UpsertJudgments(ctx, []judgment.Judgment{changed}); err != nil {
		t.Fatal(err)
	}
	if n, err := u.Refresh(ctx); err != nil || n != 1 || store.versions.Load() != 1 {
		t.Fatalf("one judgment rewritten: Refresh = %d, %v, told of %d versions, want 1", n, err, store.versions.Load())
	}
	hits, total, err := u.Search(ctx, ports.JudgmentQuery{Text: "zygomorphic", Limit: 10})
	if err != nil || total != 1 || len(hits) != 1 || hits[0].Judgment.ID != changed.ID {
		t.Fatalf("search for the new word: %d of %d, %v", len(hits), total, err)
	}
}

// TestJudgmentsProbeAsksTheStoreUntilARefreshSawAJudgment: before any
// Refresh was told of a judgment the probe asks the store, so a judgment
// another process wrote makes the dataset available before the next
// Refresh.
func TestJudgmentsProbeAsksTheStoreUntilARefreshSawAJudgment(t *testing.T) {
	ctx := context.Background()
	store := memory.NewJudgments()
	idx, err := bleveadapter.NewJudgments()
	if err != nil {
		t.Fatal(err)
	}
	u := indiajudgments.New(store, idx, textRenderer{}, usecase.SystemClock)
	probe := u.JudgmentsProbe().Probe
	if held, err := probe(ctx); err != nil || held {
		t.Fatalf("empty store: held %v, %v", held, err)
	}
	if _, err := store.UpsertJudgments(ctx, sampleJudgments(t)); err != nil {
		t.Fatal(err)
	}
	if held, err := probe(ctx); err != nil || !held {
		t.Fatalf("written by another process: held %v, %v", held, err)
	}
}

// pagesCounted records how many judgments each JudgmentsByID asks for.
type pagesCounted struct {
	*memory.Judgments
	pages []int
}

func (s *pagesCounted) JudgmentsByID(ctx context.Context, ids []string) ([]judgment.Judgment, error) {
	s.pages = append(s.pages, len(ids))
	return s.Judgments.JudgmentsByID(ctx, ids)
}

// TestRefreshReadsAPageAtATime: judgments written by another process, more
// than a page of them, are read and indexed RefreshPage at a time, every
// one indexed and searchable. They are copies of a sample judgment under
// case numbers of their own.
func TestRefreshReadsAPageAtATime(t *testing.T) {
	ctx := context.Background()
	store := &pagesCounted{Judgments: memory.NewJudgments()}
	idx, err := bleveadapter.NewJudgments()
	if err != nil {
		t.Fatal(err)
	}
	u := indiajudgments.New(store, idx, textRenderer{}, usecase.SystemClock)
	src := sampleJudgments(t)[0]
	total := 2*indiajudgments.RefreshPage + 7
	copies := make([]judgment.Judgment, total)
	for i := range copies {
		c := src
		c.CaseNumber = fmt.Sprintf("%s (copy %d)", src.CaseNumber, i)
		c.ID = judgment.NewID(c.Court, c.CaseNumber, c.DecisionDate)
		copies[i] = c
	}
	copies[total-1].Text += "\nZygomorphic addendum."
	if _, err := store.UpsertJudgments(ctx, copies); err != nil {
		t.Fatal(err)
	}
	n, err := u.Refresh(ctx)
	if err != nil || n != total || !slices.Equal(store.pages, []int{indiajudgments.RefreshPage, indiajudgments.RefreshPage, 7}) {
		t.Fatalf("Refresh = %d, %v, reading pages of %v; want %d in pages of %d", n, err, store.pages, total, indiajudgments.RefreshPage)
	}
	if held, err := u.Indexed(ctx); err != nil || held != int64(total) {
		t.Fatalf("index holds %d, %v; want %d", held, err, total)
	}
	hits, _, err := u.Search(ctx, ports.JudgmentQuery{Text: "zygomorphic", Limit: 10})
	if err != nil || len(hits) != 1 || hits[0].Judgment.ID != copies[total-1].ID {
		t.Fatalf("search for the last copy's word: %+v, %v", hits, err)
	}
}
