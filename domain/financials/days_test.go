package financials

import (
	"testing"
	"time"
)

// day reads what time.Parse(time.DateOnly) reads, to the same instant,
// and refuses what it refuses. The seeds are in testdata/fuzz/FuzzDay.
func FuzzDay(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		want, err := time.Parse(time.DateOnly, s)
		got, ok := day(s)
		if ok != (err == nil) || !got.Equal(want) {
			t.Fatalf("day(%q) = %v, %v; time.Parse = %v, %v", s, got, ok, want, err)
		}
	})
}
