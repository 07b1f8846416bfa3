package bleve_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ingest"
)

// heldBytes returns how many heap bytes build's result keeps alive.
func heldBytes(t *testing.T, build func() any) (uint64, any) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - before.HeapAlloc, kept
}

// TestIndexMemory logs the heap an index of the bundled sections holds,
// for the sample and for 40 copies of it under other ids. Each copy's text
// is its own allocation, as sections read from MongoDB are. Holding the
// text and a composite _all field, the index held about 22 times the text;
// without them it holds about 10.5 times.
func TestIndexMemory(t *testing.T) {
	_, sample, err := ingest.LoadUSFilingsSample()
	if err != nil {
		t.Fatal(err)
	}
	for _, copies := range []int{1, 40} {
		var textBytes int
		held, kept := heldBytes(t, func() any {
			secs := make([]filing.Section, 0, copies*len(sample))
			for c := range copies {
				for _, s := range sample {
					s.ID = fmt.Sprintf("%s-%d", s.ID, c)
					s.Text = strings.Clone(s.Text)
					textBytes += len(s.Text)
					secs = append(secs, s)
				}
			}
			x, err := bleve.New()
			if err != nil {
				t.Fatal(err)
			}
			if err := x.Index(context.Background(), secs); err != nil {
				t.Fatal(err)
			}
			return x
		})
		t.Logf("%d sections, %d bytes of text: the index holds %d heap bytes (%.2f× the text)",
			copies*len(sample), textBytes, held, float64(held)/float64(textBytes))
		runtime.KeepAlive(kept)
		if copies > 1 && held > 14*uint64(textBytes) {
			t.Errorf("the index holds %.1f times its text, want at most 14", float64(held)/float64(textBytes))
		}
	}
}
