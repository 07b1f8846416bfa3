package indiajudgments_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

// countedJudgments counts the judgments read from the store.
type countedJudgments struct {
	*memory.Judgments
	reads atomic.Int64
}

func (s *countedJudgments) Judgment(ctx context.Context, id string) (judgment.Judgment, error) {
	s.reads.Add(1)
	return s.Judgments.Judgment(ctx, id)
}

func (s *countedJudgments) JudgmentsByID(ctx context.Context, ids []string) ([]judgment.Judgment, error) {
	s.reads.Add(int64(len(ids)))
	return s.Judgments.JudgmentsByID(ctx, ids)
}

// sampleJudgments returns two judgments of the bundled sample.
func sampleJudgments(t *testing.T) []judgment.Judgment {
	t.Helper()
	js, err := ingest.LoadJudgmentsSample()
	if err != nil || len(js) < 2 {
		t.Fatalf("sample: %d judgments, %v", len(js), err)
	}
	return js[:2]
}

// TestJudgmentCacheLearnsOfWritesFromVersions writes a changed judgment
// straight to the store, as quarry ingest does from another process: the
// cache serves what it read until it is told the versions, then reads the
// judgment again; an unchanged judgment stays cached.
func TestJudgmentCacheLearnsOfWritesFromVersions(t *testing.T) {
	ctx := context.Background()
	js := sampleJudgments(t)
	backing := &countedJudgments{Judgments: memory.NewJudgments()}
	if _, err := backing.UpsertJudgments(ctx, js); err != nil {
		t.Fatal(err)
	}
	cache := indiajudgments.NewCache(backing, readcachetest.New(t, time.Hour, usecase.SystemClock))
	_, mark, err := cache.JudgmentVersions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if got, err := cache.JudgmentsByID(ctx, []string{js[1].ID, js[0].ID, js[1].ID}); err != nil || len(got) != 2 || got[0].Digest() != js[0].Digest() && got[0].Digest() != js[1].Digest() {
			t.Fatalf("JudgmentsByID = %d judgments, %v", len(got), err)
		}
	}
	if n := backing.reads.Load(); n != 2 {
		t.Fatalf("three reads of two judgments read the store %d times, want 2", n)
	}
	changed := js[0]
	changed.Text += "\nCorrected on reissue."
	if _, err := backing.UpsertJudgments(ctx, []judgment.Judgment{changed}); err != nil {
		t.Fatal(err)
	}
	if got, _ := cache.Judgment(ctx, changed.ID); got.Text != js[0].Text {
		t.Fatal("the cache read the store again before it learnt of the write")
	}
	if _, _, err := cache.JudgmentVersions(ctx, mark); err != nil {
		t.Fatal(err)
	}
	if got, err := cache.Judgment(ctx, changed.ID); err != nil || got.Text != changed.Text {
		t.Fatalf("after the versions changed: %v, text ends %q", err, got.Text[max(0, len(got.Text)-30):])
	}
	before := backing.reads.Load()
	if got, err := cache.Judgment(ctx, js[1].ID); err != nil || got.Digest() != js[1].Digest() || backing.reads.Load() != before {
		t.Fatalf("the unchanged judgment was read again (%v)", err)
	}
}

func TestJudgmentCacheForgetsWhatItWrites(t *testing.T) {
	ctx := context.Background()
	js := sampleJudgments(t)
	cache := indiajudgments.NewCache(memory.NewJudgments(), readcachetest.New(t, time.Hour, usecase.SystemClock))
	if _, err := cache.Judgment(ctx, js[0].ID); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("before the write: %v", err)
	}
	if _, err := cache.UpsertJudgments(ctx, js); err != nil {
		t.Fatal(err)
	}
	changed := js[0]
	changed.Judges = append([]string{"A Third Judge"}, changed.Judges...)
	if got, _ := cache.Judgment(ctx, js[0].ID); got.Digest() != js[0].Digest() {
		t.Fatal("a written judgment is not served")
	}
	if n, err := cache.UpsertJudgments(ctx, []judgment.Judgment{changed}); err != nil || n != 1 {
		t.Fatalf("rewrite: %d, %v", n, err)
	}
	if got, _ := cache.Judgment(ctx, js[0].ID); got.Digest() != changed.Digest() {
		t.Fatal("the cache serves a judgment it overwrote")
	}
}

// TestJudgmentsRefreshReadsPastTheCache runs the use case on the cache:
// a judgment rewritten by another process is indexed, served and rendered
// in its new version after one Refresh.
func TestJudgmentsRefreshReadsPastTheCache(t *testing.T) {
	ctx := context.Background()
	js := sampleJudgments(t)
	backing := memory.NewJudgments()
	shared := readcachetest.New(t, time.Hour, usecase.SystemClock)
	idx, err := bleveadapter.NewJudgments()
	if err != nil {
		t.Fatal(err)
	}
	u := indiajudgments.New(indiajudgments.NewCache(backing, shared), idx, indiajudgments.NewRenderCache(textRenderer{}, shared), usecase.SystemClock)
	if _, err := u.Store(ctx, js); err != nil {
		t.Fatal(err)
	}
	pdf := func() string {
		t.Helper()
		_, render, err := u.PDF(ctx, js[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := render(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	if got := pdf(); got != js[0].Text {
		t.Fatal("the document is not the judgment's text")
	}
	changed := js[0]
	changed.Text += "\nZygomorphic addendum."
	if _, err := backing.UpsertJudgments(ctx, []judgment.Judgment{changed}); err != nil {
		t.Fatal(err)
	}
	if n, err := u.Refresh(ctx); err != nil || n != 1 {
		t.Fatalf("Refresh = %d, %v; want 1 judgment indexed", n, err)
	}
	hits, total, err := u.Search(ctx, ports.JudgmentQuery{Text: "zygomorphic", Limit: 10})
	if err != nil || total != 1 || len(hits) != 1 || hits[0].Judgment.Text != changed.Text {
		t.Fatalf("search for the new word: %d of %d, %v", len(hits), total, err)
	}
	if got, _ := u.Judgment(ctx, js[0].ID); got.Text != changed.Text {
		t.Fatal("GET judgment serves the old version after Refresh")
	}
	if got := pdf(); got != changed.Text {
		t.Fatal("the document of the old version is served")
	}
}

// textRenderer "renders" a judgment as its text and counts its renders.
type textRenderer struct{ renders *atomic.Int64 }

func (textRenderer) MediaType() string { return "text/plain" }

func (r textRenderer) Render(ctx context.Context, w io.Writer, j judgment.Judgment) error {
	if r.renders != nil {
		r.renders.Add(1)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := io.WriteString(w, j.Text)
	return err
}

func TestRenderCacheRendersEachVersionOnce(t *testing.T) {
	ctx := context.Background()
	js := sampleJudgments(t)
	var renders atomic.Int64
	cache := indiajudgments.NewRenderCache(textRenderer{renders: &renders}, readcachetest.New(t, time.Hour, usecase.SystemClock))
	render := func(c context.Context, j judgment.Judgment) (string, error) {
		var buf bytes.Buffer
		err := cache.Render(c, &buf, j)
		return buf.String(), err
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := render(cancelled, js[0]); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled render: %v", err)
	}
	failed := renders.Load() // 0 or 1: the cache may refuse a cancelled context before rendering
	for range 3 {
		for _, j := range js {
			if got, err := render(ctx, j); err != nil || got != j.Text {
				t.Fatalf("render %s: %v", j.ID, err)
			}
		}
	}
	if n := renders.Load() - failed; n != 2 {
		t.Fatalf("%d renders of 2 judgments read 3 times each", n)
	}
	changed := js[0]
	changed.Citations = append(changed.Citations, "(2018) 1 SCR 1")
	if _, err := render(ctx, changed); err != nil || renders.Load()-failed != 3 {
		t.Fatalf("a changed judgment was not rendered again (%d renders, %v)", renders.Load(), err)
	}
	if cache.MediaType() != "text/plain" {
		t.Fatal("the media type is not the renderer's")
	}
}
