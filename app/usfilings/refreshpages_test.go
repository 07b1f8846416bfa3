package usfilings_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

// recordingIndex is a SectionIndex that records what it is given: the
// ids indexed, and at each saved checkpoint how many had been indexed.
// Its SaveCheckpoint fails from the failAt-th call on (0: never), as a
// start cut short would.
type recordingIndex struct {
	ports.SectionIndex
	indexed  []string
	saves    []int
	marks    []json.RawMessage
	cp       []byte
	failAt   int
	notSaved error
}

func (x *recordingIndex) Index(_ context.Context, secs []filing.Section) error {
	for _, s := range secs {
		x.indexed = append(x.indexed, s.ID)
	}
	return nil
}

func (x *recordingIndex) Count(context.Context) (int64, error) { return int64(len(x.indexed)), nil }

func (x *recordingIndex) Checkpoint(context.Context) ([]byte, error) { return x.cp, nil }

func (x *recordingIndex) SaveCheckpoint(_ context.Context, cp []byte) error {
	if x.failAt > 0 && len(x.saves)+1 >= x.failAt {
		return x.notSaved
	}
	x.saves = append(x.saves, len(x.indexed))
	x.marks = append(x.marks, cp)
	x.cp = cp
	return nil
}

// storeSections writes n sections, of filings numbered from 0, in writes
// of perWrite.
func storeSections(t *testing.T, store *memory.Filings, n, perWrite int) {
	t.Helper()
	for start := 0; start < n; start += perWrite {
		var secs []filing.Section
		for i := start; i < min(start+perWrite, n); i++ {
			acc := fmt.Sprintf("0000320193-24-%06d", i)
			secs = append(secs, filing.Section{ID: filing.SectionID(acc, "1"), Accession: acc, Text: "Item 1. Business"})
		}
		if err := store.UpsertSections(context.Background(), secs); err != nil {
			t.Fatal(err)
		}
	}
}

// A catch-up over more sections than a page holds reads them a page at a
// time, and saves the checkpoint after indexing each page, each further on.
func TestRefreshIndexesAPageAtATimeAndSavesTheMarkAfterEach(t *testing.T) {
	store := memory.NewFilings()
	total := 2*usfilings.RefreshPage + 7
	storeSections(t, store, total, 700) // pages end inside writes
	idx := &recordingIndex{}
	n, err := usfilings.New(store, store, idx).Refresh(context.Background())
	if err != nil || n != total {
		t.Fatalf("Refresh = %d, %v; want %d", n, err, total)
	}
	// The last page's, then once more to say the first build is whole.
	want := []int{usfilings.RefreshPage, 2 * usfilings.RefreshPage, total, total}
	if fmt.Sprint(idx.saves) != fmt.Sprint(want) {
		t.Fatalf("checkpoints saved with %v sections indexed, want %v (one a page)", idx.saves, want)
	}
	for i := 1; i < len(idx.marks)-1; i++ {
		if string(idx.marks[i]) == string(idx.marks[i-1]) {
			t.Fatalf("checkpoint %d did not advance: %s", i+1, idx.marks[i])
		}
	}
}

// A first start cut short after its first page resumes from the
// checkpoint saved with the index and indexes the rest only.
func TestRefreshResumesFromAMidwayCheckpoint(t *testing.T) {
	ctx := context.Background()
	store := memory.NewFilings()
	total := 2*usfilings.RefreshPage + 7
	storeSections(t, store, total, 700)
	cut := errors.New("the process stopped")
	idx := &recordingIndex{failAt: 2, notSaved: cut}
	if _, err := usfilings.New(store, store, idx).Refresh(ctx); !errors.Is(err, cut) {
		t.Fatalf("the cut start's Refresh = %v, want %v", err, cut)
	}
	first := idx.indexed[:usfilings.RefreshPage]
	restarted := &recordingIndex{cp: idx.cp}
	svc := usfilings.New(store, store, restarted)
	if held, err := svc.Resume(ctx); err != nil || held {
		t.Fatalf("Resume of a cut first build = %v, %v; want false: it is built on before search answers from it", held, err)
	}
	n, err := svc.Refresh(ctx)
	if err != nil || n != total-usfilings.RefreshPage {
		t.Fatalf("the restart's Refresh = %d, %v; want the %d sections after the first page", n, err, total-usfilings.RefreshPage)
	}
	seen := map[string]bool{}
	for _, id := range first {
		seen[id] = true
	}
	for _, id := range restarted.indexed {
		if seen[id] {
			t.Fatalf("the restart indexed %s again, from the page saved before the cut", id)
		}
		seen[id] = true
	}
	if len(seen) != total {
		t.Fatalf("%d sections indexed across both starts, want %d", len(seen), total)
	}
	if held, err := usfilings.New(store, store, &recordingIndex{cp: restarted.cp}).Resume(ctx); err != nil || !held {
		t.Fatalf("Resume of the completed build = %v, %v; want true", held, err)
	}
}
