package feed_test

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
)

func days(ds []time.Time) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Format(feed.DayLayout)
	}
	return out
}

func TestPlanKeepsTheRangeContiguous(t *testing.T) {
	d := func(s string) time.Time { v, _ := feed.Day(s); return v }
	held := feed.State{First: "2025-06-20", Last: "2025-06-23"}
	cases := []struct {
		name     string
		st       feed.State
		from, to string
		want     []string
	}{
		{"empty store takes the range", feed.State{}, "2025-06-18", "2025-06-20", []string{"2025-06-18", "2025-06-19", "2025-06-20"}},
		{"held days are skipped, earlier ones newest first", held, "2025-06-18", "2025-06-25", []string{"2025-06-19", "2025-06-18", "2025-06-24", "2025-06-25"}},
		{"a gap after the range is filled", held, "2025-06-26", "2025-06-26", []string{"2025-06-24", "2025-06-25", "2025-06-26"}},
		{"a gap before the range is filled", held, "2025-06-17", "2025-06-17", []string{"2025-06-19", "2025-06-18", "2025-06-17"}},
		{"all held", held, "2025-06-21", "2025-06-22", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := days(c.st.Plan(d(c.from), d(c.to)))
			if len(got) != len(c.want) {
				t.Fatalf("Plan = %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("Plan = %v, want %v", got, c.want)
				}
			}
			st := c.st
			for _, day := range got {
				if err := st.Cover(day); err != nil {
					t.Fatalf("Cover(%s): %v", day, err)
				}
			}
		})
	}
}

func TestCoverRefusesAGap(t *testing.T) {
	st := feed.State{First: "2025-06-20", Last: "2025-06-23"}
	if err := st.Cover("2025-06-25"); err == nil {
		t.Fatal("Cover of a day past a gap was taken")
	}
	if err := st.Cover("2025-06-24"); err != nil || st.Last != "2025-06-24" {
		t.Fatalf("Cover(next) = %v, range %s..%s", err, st.First, st.Last)
	}
}
