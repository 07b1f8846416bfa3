package readcache

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/usecase"
)

// A kilobyte value weighs its bytes plus the key and the entry's overhead.
func kilobyte(string) int { return 1000 }

func TestReadCacheStaysWithinItsBudgetAndKeepsWhatIsUsed(t *testing.T) {
	ctx := context.Background()
	const budget = 64 << 10
	shared, err := New(budget, time.Hour, usecase.SystemClock)
	if err != nil {
		t.Fatal(err)
	}
	space := NewSpace(shared, kilobyte)
	loads := map[string]int{}
	load := func(_ context.Context, key string) (string, error) {
		loads[key]++
		return key, nil
	}
	get := func(key string) {
		t.Helper()
		if got, err := space.Get(ctx, key, load); err != nil || got != key {
			t.Fatalf("get(%s) = %q, %v", key, got, err)
		}
	}
	// A hot key is read between reads of 2,000 cold ones, 2 MB in all.
	for i := range 2000 {
		get("hot")
		get(fmt.Sprintf("cold-%04d", i))
	}
	shared.entries.CleanUp()
	if w := shared.entries.WeightedSize(); w > budget {
		t.Fatalf("the entries weigh %d bytes, over the budget of %d", w, budget)
	}
	// Evicted one by one, not all at once: the cache holds about as many
	// entries as fit in the budget.
	if n := shared.entries.EstimatedSize(); n < budget/1200 || n > budget/1100 {
		t.Fatalf("%d entries held, want about %d", n, budget/1110)
	}
	if loads["hot"] != 1 {
		t.Fatalf("the hot key was loaded %d times, want once", loads["hot"])
	}
}

func TestReadCacheDoesNotCacheErrors(t *testing.T) {
	ctx := context.Background()
	shared, err := New(1<<20, time.Hour, usecase.SystemClock)
	if err != nil {
		t.Fatal(err)
	}
	space := NewSpace(shared, StringWeight)
	failing := errors.New("store unavailable")
	if _, err := space.Get(ctx, "k", func(context.Context, string) (string, error) { return "", failing }); !errors.Is(err, failing) {
		t.Fatalf("get = %v, want the load's error", err)
	}
	if got, err := space.Get(ctx, "k", func(context.Context, string) (string, error) { return "v", nil }); err != nil || got != "v" {
		t.Fatalf("after an error: %q, %v; want the next load's value", got, err)
	}
}

func TestReadCacheSpacesDoNotShareKeys(t *testing.T) {
	ctx := context.Background()
	shared, err := New(1<<20, time.Hour, usecase.SystemClock)
	if err != nil {
		t.Fatal(err)
	}
	a, b := NewSpace(shared, StringWeight), NewSpace(shared, StringWeight)
	constant := func(v string) func(context.Context, string) (string, error) {
		return func(context.Context, string) (string, error) { return v, nil }
	}
	if got, _ := a.Get(ctx, "k", constant("a")); got != "a" {
		t.Fatalf("a = %q", got)
	}
	if got, _ := b.Get(ctx, "k", constant("b")); got != "b" {
		t.Fatalf("b = %q, the key of another space", got)
	}
	a.Reset()
	if got, _ := b.Get(ctx, "k", constant("other")); got != "b" {
		t.Fatalf("b after a's reset = %q, want it kept", got)
	}
}

// The exported Slices caches a store's non-empty reads until a write
// forgets them; without a ReadCache it reads every time.
func TestSlicesCacheNonEmptyReadsUntilForgotten(t *testing.T) {
	ctx := context.Background()
	shared, err := New(1<<20, time.Hour, usecase.SystemClock)
	if err != nil {
		t.Fatal(err)
	}
	held := map[string][]string{"RELIANCE": {"INE002A01018"}}
	loads := 0
	get := func(s *Slices[string], key string) []string {
		t.Helper()
		got, err := s.Get(ctx, key, func(context.Context) ([]string, error) {
			loads++
			return held[key], nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	s := NewSlices(shared, func(s string) int { return len(s) })
	for range 2 {
		get(s, "RELIANCE")
		if got := get(s, "ZOMATO"); got != nil {
			t.Fatalf("an empty read = %v", got)
		}
	}
	if loads != 3 {
		t.Fatalf("%d loads, want 3: a non-empty read once, an empty one each time", loads)
	}
	held["RELIANCE"] = []string{"INE002A01036"}
	s.Forget("RELIANCE")
	if got := get(s, "RELIANCE"); len(got) != 1 || got[0] != "INE002A01036" {
		t.Fatalf("after Forget = %v", got)
	}
	var none *Slices[string]
	loads = 0
	get(none, "RELIANCE")
	get(none, "RELIANCE")
	none.Forget("RELIANCE")
	if loads != 2 {
		t.Fatalf("without a cache %d loads, want 2", loads)
	}
	if NewSlices(nil, func(string) int { return 0 }) != nil {
		t.Fatal("NewSlices without a ReadCache is not nil")
	}
}
