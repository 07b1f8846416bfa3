package readcache

import (
	"strconv"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/usecase"
)

// TestMemoStaysWithinTheSharedBudget keeps 2,000 entries of about 1 KB in
// a read cache of 64 KiB: the cache stays within its budget, and asked
// again, all but the few it holds are derived afresh.
func TestMemoStaysWithinTheSharedBudget(t *testing.T) {
	const budget = 64 << 10
	shared, err := New(budget, time.Hour, usecase.SystemClock)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMemo(shared, func(a, b string) bool { return a == b }, func(string, int) int { return 1000 })
	derived := 0
	derive := func(s string) int {
		derived++
		return len(s)
	}
	for range 2 {
		for i := range 2000 {
			m.Get(strconv.Itoa(i), "abc", derive)
		}
		shared.entries.CleanUp()
	}
	if w := shared.entries.WeightedSize(); w > budget {
		t.Fatalf("the entries weigh %d bytes, over the budget of %d", w, budget)
	}
	if kept := 4000 - derived; kept > budget/1000 {
		t.Errorf("%d entries of 1 KB answered from a cache of %d bytes", kept, budget)
	}
}
