package feed_test

import (
	"slices"
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

func d(s string) time.Time { v, _ := feed.Day(s); return v }

var noon = time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC)

func TestPlanFetchesTheDaysNotHeldAndTheRetriesDue(t *testing.T) {
	held := feed.State{First: "2025-06-20", Last: "2025-06-27", Version: feed.Version,
		Gaps:    []feed.Span{{First: "2025-06-23", Last: "2025-06-24"}},
		Missing: []feed.Missing{{Day: "2025-06-25", Attempts: 1, NextTry: noon.Add(-time.Minute)}, {Day: "2025-06-26", Attempts: 1, NextTry: noon.Add(time.Minute)}}}
	cases := []struct {
		name     string
		st       feed.State
		from, to string
		want     []string
	}{
		{"empty store takes the range", feed.State{}, "2025-06-18", "2025-06-20", []string{"2025-06-18", "2025-06-19", "2025-06-20"}},
		{"after the range, and the retry due", held, "2025-06-28", "2025-06-30", []string{"2025-06-25", "2025-06-28", "2025-06-29", "2025-06-30"}},
		{"a gap and days before, not the retry not yet due", held, "2025-06-18", "2025-06-26", []string{"2025-06-18", "2025-06-19", "2025-06-23", "2025-06-24", "2025-06-25"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := days(c.st.Plan(d(c.from), d(c.to), noon)); !slices.Equal(got, c.want) {
				t.Fatalf("Plan = %v, want %v", got, c.want)
			}
		})
	}
}

func TestCoverLeavesAGapWhereDaysWereNotFetched(t *testing.T) {
	st := feed.State{First: "2024-11-01", Last: "2024-11-01"}
	st.Cover("2025-02-26")
	st.Trim(feed.Weekday)
	if st.Last != "2025-02-26" || !slices.Equal(st.Gaps, []feed.Span{{First: "2024-11-04", Last: "2025-02-25"}}) {
		t.Fatalf("state %+v, want the gap 2024-11-04..2025-02-25", st)
	}
	if st.Covers("2024-12-02") || !st.Covers("2024-11-01") || !st.Covers("2025-02-26") {
		t.Fatal("Covers does not see the gap")
	}
	st.Cover("2024-12-02")
	if !st.Covers("2024-12-02") || !slices.Equal(st.Gaps, []feed.Span{{First: "2024-11-04", Last: "2024-12-01"}, {First: "2024-12-03", Last: "2025-02-25"}}) {
		t.Fatalf("gaps %+v after covering a day inside", st.Gaps)
	}
	st.Cover("2024-10-30")
	st.Trim(feed.Weekday)
	if st.First != "2024-10-30" || st.Gaps[0] != (feed.Span{First: "2024-10-31", Last: "2024-10-31"}) {
		t.Fatalf("state %+v after a day before the range", st)
	}
}

// TestMissBacksOffThenGivesUp: a day the source did not serve is asked
// again an hour later, then after waits doubling to a day at most, and
// given up after eight attempts; covering it clears it.
func TestMissBacksOffThenGivesUp(t *testing.T) {
	var st feed.State
	at := noon
	waits := []time.Duration{1, 2, 4, 8, 16, 24, 24}
	for i, w := range waits {
		m := st.Miss("2025-06-30", at)
		if m.Attempts != i+1 || !m.NextTry.Equal(at.Add(w*time.Hour)) || m.GaveUp() {
			t.Fatalf("attempt %d: %+v, want the next try %dh later", i+1, m, w)
		}
		if slices.Contains(days(st.Plan(d("2025-07-01"), d("2025-06-30"), at)), "2025-06-30") {
			t.Fatalf("attempt %d: asked again before its next try", i+1)
		}
		at = m.NextTry
		if !slices.Contains(days(st.Plan(d("2025-07-01"), d("2025-06-30"), at)), "2025-06-30") {
			t.Fatalf("attempt %d: not asked again at its next try", i+1)
		}
	}
	if m := st.Miss("2025-06-30", at); m.Attempts != feed.GiveUpAfter || !m.GaveUp() {
		t.Fatalf("attempt 8: %+v, want given up", m)
	}
	if len(st.Plan(d("2025-07-01"), d("2025-06-30"), at.Add(1000*time.Hour))) != 0 {
		t.Fatal("a day given up is asked again without being named")
	}
	if st.Covers("2025-06-30") || st.Holds("2025-06-30", "2025-06-30") != true {
		t.Fatalf("state %+v: a day given up is held, or counted against the range", st)
	}
	st.Cover("2025-06-30")
	if len(st.Missing) != 0 || !st.Covers("2025-06-30") {
		t.Fatalf("state %+v after the day was served", st)
	}
}

func TestHoldsSeesGapsAndPendingRetries(t *testing.T) {
	st := feed.State{First: "2025-06-18", Last: "2025-06-27", Version: feed.Version}
	if !st.Holds("2025-06-18", "2025-06-27") || st.Holds("2025-06-17", "2025-06-27") || st.Holds("2025-06-18", "2025-06-30") {
		t.Fatal("Holds over the range")
	}
	st.Miss("2025-06-25", noon)
	if st.Holds("2025-06-18", "2025-06-27") || !st.Holds("2025-06-18", "2025-06-24") {
		t.Fatal("a day missing, still being asked, is held")
	}
	st.Missing = nil
	st.Gaps = []feed.Span{{First: "2025-06-23", Last: "2025-06-23"}}
	if st.Holds("2025-06-18", "2025-06-27") {
		t.Fatal("a gap is held")
	}
}

// TestMigrateTurnsUntrustedHolidaysIntoAGap: a state written when every
// weekday answered with nothing was a holiday holds more holidays than
// the calendar knows; its range is not trusted, so it becomes a gap. One
// whose holidays the calendar accounts for is kept.
func TestMigrateTurnsUntrustedHolidaysIntoAGap(t *testing.T) {
	st := feed.State{Source: "edgar", First: "2024-11-01", Last: "2025-02-26", Holidays: 82, Files: 9}
	if !st.Migrate(4) || st.Version != feed.Version || st.Holidays != 0 || st.Files != 9 ||
		!slices.Equal(st.Gaps, []feed.Span{{First: "2024-11-01", Last: "2025-02-26"}}) {
		t.Fatalf("migrated %+v, want the whole range a gap", st)
	}
	if st.Migrate(4) {
		t.Fatal("a migrated state is migrated again")
	}
	ok := feed.State{Source: "nse", First: "2025-06-18", Last: "2025-06-27", Holidays: 0}
	if ok.Migrate(0) || ok.Version != feed.Version || len(ok.Gaps) != 0 {
		t.Fatalf("a state without untrusted holidays: %+v", ok)
	}
	trusted := feed.State{Source: "nse", First: "2025-02-20", Last: "2025-03-20", Holidays: 2}
	if trusted.Migrate(2) || len(trusted.Gaps) != 0 || trusted.Holidays != 2 {
		t.Fatalf("a state whose holidays the calendar accounts for: %+v", trusted)
	}
}

// TestLastHeldIsNoMissingDay: a range whose last days were asked and not
// served ends, for coverage and lag, at the last day held.
func TestLastHeldIsNoMissingDay(t *testing.T) {
	var s feed.State
	s.Cover("2025-08-21")
	s.Cover("2025-08-22")
	at := time.Date(2025, 8, 26, 0, 0, 0, 0, time.UTC)
	s.Miss("2025-08-25", at)
	s.Miss("2025-08-26", at)
	if s.Last != "2025-08-26" || s.LastHeld() != "2025-08-22" {
		t.Fatalf("Last %s, LastHeld %s; want 2025-08-26 and 2025-08-22", s.Last, s.LastHeld())
	}
	if (feed.State{}).LastHeld() != "" {
		t.Fatal("an empty state holds a day")
	}
}
