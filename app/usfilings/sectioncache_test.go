package usfilings_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

// countingSections counts the reads that reach the store.
type countingSections struct {
	ports.SectionStore
	reads atomic.Int64
}

func (c *countingSections) SectionsByID(ctx context.Context, ids []string) ([]filing.Section, error) {
	c.reads.Add(1)
	return c.SectionStore.SectionsByID(ctx, ids)
}

func TestSectionCache(t *testing.T) {
	ctx := context.Background()
	backing := memory.NewFilings()
	store := &countingSections{SectionStore: backing}
	cache := usfilings.NewSectionCache(store, readcachetest.New(t, time.Minute, usecase.SystemClock))
	a := filing.Section{ID: "0000320193-24-000123/1", Accession: "0000320193-24-000123", ItemNumber: "1", Text: "Business."}
	b := filing.Section{ID: "0000320193-24-000123/1A", Accession: "0000320193-24-000123", ItemNumber: "1A", Text: "Risk Factors."}
	if err := cache.UpsertSections(ctx, []filing.Section{a, b}); err != nil {
		t.Fatal(err)
	}
	texts := func() []string {
		t.Helper()
		got, err := cache.SectionsByID(ctx, []string{b.ID, "0000320193-24-000123/7", a.ID, b.ID})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range got {
			out = append(out, s.ID+" "+s.Text)
		}
		return out
	}
	want := []string{a.ID + " Business.", b.ID + " Risk Factors."}
	if got := texts(); !slices.Equal(got, want) {
		t.Fatalf("first read = %v, want %v (ordered by id, the missing one left out)", got, want)
	}
	before := store.reads.Load()
	if got := texts(); !slices.Equal(got, want) || store.reads.Load() != before+1 {
		t.Fatalf("second read = %v with %d store reads, want the cached sections and one read (the missing id is never cached)", got, store.reads.Load()-before)
	}

	// Another process rewrites a section: served from the cache until the
	// index's refresh reads it through SectionsSince.
	b.Text = "Risk Factors, amended."
	if err := backing.UpsertSections(ctx, []filing.Section{b}); err != nil {
		t.Fatal(err)
	}
	if got := texts(); !slices.Equal(got, want) {
		t.Fatalf("before the refresh = %v, want the cached %v", got, want)
	}
	if _, err := cache.SectionsSince(ctx, ports.SectionMark{}, 1, func([]filing.Section, ports.SectionMark) error { return nil }); err != nil {
		t.Fatal(err)
	}
	want[1] = b.ID + " Risk Factors, amended."
	if got := texts(); !slices.Equal(got, want) {
		t.Fatalf("after the refresh = %v, want %v", got, want)
	}

	// A write through the cache is read back at once.
	a.Text = "Business, amended."
	if err := cache.UpsertSections(ctx, []filing.Section{a}); err != nil {
		t.Fatal(err)
	}
	want[0] = a.ID + " Business, amended."
	if got := texts(); !slices.Equal(got, want) {
		t.Fatalf("after a write through the cache = %v, want %v", got, want)
	}
}
