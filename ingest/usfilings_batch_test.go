package ingest

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
)

// batches counts the writes of a FilingStore and what each held.
type batches struct {
	ports.FilingStore
	filings, sections []int
}

func (b *batches) UpsertFilings(ctx context.Context, filings []filing.Filing, sections []filing.Section) error {
	b.filings, b.sections = append(b.filings, len(filings)), append(b.sections, len(sections))
	return b.FilingStore.UpsertFilings(ctx, filings, sections)
}

// Filings are written in batches of whole filings once their sections'
// text reaches the bound, and a folder that cannot be read stops the run
// after the batches before it, its own not written.
func TestFilingsAreWrittenInBatchesOfWholeFilings(t *testing.T) {
	ctx := context.Background()
	folders, err := sampleFilingFolders()
	if err != nil {
		t.Fatal(err)
	}
	whole, err := IngestUSFilings(ctx, memory.NewFilings(), &Files{})
	if err != nil || len(folders) < 2 {
		t.Fatal(len(folders), err)
	}
	store := &batches{FilingStore: memory.NewFilings()}
	n, err := writeFilingBatches(ctx, store, folders, 1)
	if err != nil || n != whole || len(store.filings) != len(folders) {
		t.Fatalf("wrote %d rows in %d batches %v, %v; want %d in %d", n, len(store.filings), store.filings, err, whole, len(folders))
	}
	for i, f := range store.filings {
		if f != 1 || store.sections[i] == 0 {
			t.Fatalf("batch %d held %d filings and %d sections, want one filing with its sections", i, f, store.sections[i])
		}
	}
	bad := append(folders[:1:1], filingFolder{label: "broken", fsys: fstest.MapFS{}}, folders[1])
	store = &batches{FilingStore: memory.NewFilings()}
	n, err = writeFilingBatches(ctx, store, bad, 1)
	if !errors.Is(err, source.ErrBadInput) || len(store.filings) != 1 || n != 1+store.sections[0] {
		t.Fatalf("with a broken second folder: %d rows in batches %v, %v; want the first filing only and ErrBadInput", n, store.filings, err)
	}
}
