package bleve_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestContractsOnDisk runs the index contracts on indexes in a fresh
// directory per test.
func TestContractsOnDisk(t *testing.T) {
	porttest.RunAll(t, porttest.Stores{
		SectionIndex: func(t *testing.T) ports.SectionIndex {
			x, err := bleve.Open(filepath.Join(t.TempDir(), "sections"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = x.Close() })
			return x
		},
		JudgmentIndex: func(t *testing.T) ports.JudgmentIndex {
			x, err := bleve.OpenJudgments(filepath.Join(t.TempDir(), "judgments"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = x.Close() })
			return x
		},
	})
}

// TestReopen shows an index on disk keeping its documents and checkpoint
// across a close, and one written with another mapping being replaced.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "judgments")
	x, err := bleve.OpenJudgments(path)
	if err != nil {
		t.Fatal(err)
	}
	j := judgment.Judgment{ID: "inj_AAAAAAAAAAAAAAAA", Court: "Supreme Court of India", DecisionDate: "2019-01-01", Text: "the appellant sought specific performance"}
	if err := x.Index(ctx, []judgment.Judgment{j}); err != nil {
		t.Fatal(err)
	}
	if err := x.SaveCheckpoint(ctx, []byte(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}

	again, err := bleve.OpenJudgments(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := again.Count(ctx)
	cp, cerr := again.Checkpoint(ctx)
	hits, _, serr := again.Search(ctx, ports.JudgmentQuery{Text: "specific performance", Limit: 10})
	if err != nil || cerr != nil || serr != nil || n != 1 || string(cp) != `{"n":1}` || len(hits) != 1 || hits[0].ID != j.ID {
		t.Fatalf("reopened: count %d (%v), checkpoint %q (%v), hits %+v (%v)", n, err, cp, cerr, hits, serr)
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}

	// The section index's mapping differs: opening the judgment index's
	// directory as a section index starts it afresh.
	other, err := bleve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if n, err := other.Count(ctx); err != nil || n != 0 {
		t.Fatalf("index under another mapping: count %d, %v; want a new, empty index", n, err)
	}
	if cp, err := other.Checkpoint(ctx); err != nil || cp != nil {
		t.Fatalf("index under another mapping: checkpoint %q, %v; want none", cp, err)
	}
}

// TestIndexInBatches indexes, in one call, sections whose texts together
// pass the text one bleve batch takes: each is indexed and found, with
// its passage, on disk and after a reopen.
func TestIndexInBatches(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sections")
	x, err := bleve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat("the registrant discussed its operating results for the period ", 30000)
	var secs []filing.Section
	for i := range 3 {
		secs = append(secs, filing.Section{
			ID: fmt.Sprintf("0000320193-24-00012%d-item7", i), CIK: "0000320193", Form: "10-K", ItemNumber: "7",
			Filed: time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC), Text: filler + fmt.Sprintf("segment%d revenue", i),
		})
	}
	if err := x.Index(ctx, secs); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := bleve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for i, s := range secs {
		hits, total, err := again.Search(ctx, ports.SectionQuery{Text: fmt.Sprintf("segment%d", i), Limit: 10})
		if err != nil || total != 1 || hits[0].ID != s.ID || s.Text[hits[0].Start:hits[0].End] != fmt.Sprintf("segment%d", i) {
			t.Errorf("section %d of %d bytes: hits %+v, total %d, %v", i, len(s.Text), hits, total, err)
		}
	}
	if n, err := again.Count(ctx); err != nil || n != int64(len(secs)) {
		t.Errorf("count %d, %v; want %d", n, err, len(secs))
	}
}
