package bleve_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/quarrydata/quarry/adapters/bleve"
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
