package sourcesync_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// calendared publishes one file each weekday but the days in absent,
// which it answers with nothing; holidays are its trusted calendar. It
// records the days asked.
type calendared struct {
	absent, holidays map[string]bool
	mu               sync.Mutex
	asked            []string
}

func (c *calendared) Name() string               { return "test" }
func (c *calendared) Publishes(d time.Time) bool { return feed.Weekday(d) }
func (c *calendared) Due(d time.Time) time.Time  { return d.Add(15 * time.Hour) }
func (c *calendared) Holiday(d time.Time) bool   { return c.holidays[d.Format(feed.DayLayout)] }
func (c *calendared) Fetch(_ context.Context, d time.Time) ([]ports.SourceFile, error) {
	day := d.Format(feed.DayLayout)
	c.mu.Lock()
	c.asked = append(c.asked, day)
	c.mu.Unlock()
	if c.absent[day] {
		return nil, fmt.Errorf("test %s: %w", day, ports.ErrNoPublication)
	}
	return []ports.SourceFile{{Dataset: "x", Name: d.Format("20060102")}}, nil
}

func (c *calendared) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.asked
	c.asked = nil
	return out
}

type rig struct {
	src    *calendared
	states *memory.SyncStates
	s      *sourcesync.Syncer
	now    time.Time
}

func newRig(absent []string, holidays ...string) *rig {
	set := func(days []string) map[string]bool {
		m := map[string]bool{}
		for _, d := range days {
			m[d] = true
		}
		return m
	}
	r := &rig{src: &calendared{absent: set(append(absent, holidays...)), holidays: set(holidays)}, states: memory.NewSyncStates(),
		now: time.Date(2025, 7, 1, 14, 0, 0, 0, time.UTC)}
	r.s = sourcesync.New([]ports.Source{r.src}, nil, r.states, &counting{}, sourcesync.NewMeter(), func() time.Time { return r.now })
	return r
}

func (r *rig) run(t *testing.T, rg sourcesync.Range) sourcesync.Outcome {
	t.Helper()
	out, err := r.s.Sync(t.Context(), nil, rg)
	if err != nil {
		t.Fatal(err)
	}
	return out[0]
}

func (r *rig) state(t *testing.T) feed.State {
	t.Helper()
	st, err := r.states.State(t.Context(), "test")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func span(t *testing.T, from, to string) sourcesync.Range {
	t.Helper()
	f, _ := feed.Day(from)
	l, _ := feed.Day(to)
	return sourcesync.Range{From: f, To: l}
}

// TestAWeekdayAnsweredWithNothingIsMissingNotAHoliday: 2025-06-30 is
// answered with nothing and is in no calendar: it is missing, asked again
// after the backoff by runs without a range, and given up after eight
// attempts; a calendar holiday answered with nothing is a holiday.
func TestAWeekdayAnsweredWithNothingIsMissingNotAHoliday(t *testing.T) {
	r := newRig([]string{"2025-06-30"}, "2025-06-26")
	o := r.run(t, span(t, "2025-06-25", "2025-06-30"))
	if o.Days != 5 || o.Holidays != 1 || o.Missing != 1 || !slices.Equal(r.src.take(), []string{"2025-06-25", "2025-06-26", "2025-06-27", "2025-06-30"}) {
		t.Fatalf("outcome %+v", o)
	}
	st := r.state(t)
	if st.Covers("2025-06-30") || st.Holidays != 1 || len(st.Missing) != 1 || st.Missing[0].Attempts != 1 || !st.Missing[0].NextTry.Equal(r.now.Add(time.Hour)) {
		t.Fatalf("state %+v, want 2025-06-30 missing, asked again in an hour", st)
	}
	if o := r.run(t, sourcesync.Range{}); o.Missing != 0 || len(r.src.take()) != 0 {
		t.Fatalf("a run before the next try: %+v", o)
	}
	for i := 2; i <= feed.GiveUpAfter; i++ {
		r.now = r.state(t).Missing[0].NextTry
		if o := r.run(t, sourcesync.Range{}); o.Missing != 1 || !slices.Contains(r.src.take(), "2025-06-30") {
			t.Fatalf("attempt %d: %+v", i, o)
		}
	}
	st = r.state(t)
	if !st.Missing[0].GaveUp() || st.Missing[0].Attempts != feed.GiveUpAfter || st.Holidays != 1 {
		t.Fatalf("state %+v, want 2025-06-30 given up", st)
	}
	r.now = r.now.Add(100 * 24 * time.Hour)
	r.run(t, sourcesync.Range{})
	if slices.Contains(r.src.take(), "2025-06-30") {
		t.Fatal("a day given up was asked again without being named")
	}
	var status sourcesync.Status
	statuses, _ := r.s.Statuses(t.Context())
	status = statuses[0]
	if !slices.ContainsFunc(status.Notes(), func(n string) bool { return strings.HasPrefix(n, "missing: 2025-06-30 (8 attempts, given up") }) {
		t.Fatalf("status notes %q", status.Notes())
	}
}

// TestAnExplicitRangeFetchesExactlyItsDays: a range named fetches every
// day of it, those held too, and no other; the days before it not held
// are a gap the status names, not filled.
func TestAnExplicitRangeFetchesExactlyItsDays(t *testing.T) {
	r := newRig(nil)
	r.run(t, span(t, "2024-11-01", "2024-11-01"))
	r.src.take()
	o := r.run(t, span(t, "2025-02-26", "2025-02-26"))
	if got := r.src.take(); o.Days != 1 || !slices.Equal(got, []string{"2025-02-26"}) {
		t.Fatalf("outcome %+v, asked %v; want 2025-02-26 only", o, got)
	}
	statuses, _ := r.s.Statuses(t.Context())
	if notes := statuses[0].Notes(); !slices.Contains(notes, "gap: 2024-11-04..2025-02-25 not fetched") {
		t.Fatalf("status notes %q", notes)
	}
	r.run(t, span(t, "2025-02-26", "2025-02-26"))
	if got := r.src.take(); !slices.Equal(got, []string{"2025-02-26"}) {
		t.Fatalf("a held day named again: asked %v", got)
	}
	r.run(t, span(t, "2024-12-02", "2024-12-03"))
	statuses, _ = r.s.Statuses(t.Context())
	if notes := statuses[0].Notes(); !slices.Equal(notes, []string{"gap: 2024-11-04..2024-11-29 not fetched", "gap: 2024-12-04..2025-02-25 not fetched"}) {
		t.Fatalf("status notes %q after a range inside the gap", notes)
	}
}

// TestARunWithoutARangeContinuesFromTheLastDayHeld: it fetches the days
// after the last held up to the latest due, and leaves a gap alone.
func TestARunWithoutARangeContinuesFromTheLastDayHeld(t *testing.T) {
	r := newRig(nil)
	r.run(t, span(t, "2025-06-18", "2025-06-18"))
	r.run(t, span(t, "2025-06-24", "2025-06-24"))
	r.src.take()
	r.run(t, sourcesync.Range{})
	if got := r.src.take(); !slices.Equal(got, []string{"2025-06-25", "2025-06-26", "2025-06-27", "2025-06-30"}) {
		t.Fatalf("asked %v; want the days after 2025-06-24 up to 2025-06-30, the latest due", got)
	}
	since, _ := feed.Day("2025-06-18")
	r.run(t, sourcesync.Range{Since: since})
	if got := r.src.take(); !slices.Equal(got, []string{"2025-06-19", "2025-06-20", "2025-06-23"}) {
		t.Fatalf("a run since 2025-06-18 asked %v; want the gap", got)
	}
}

// TestALegacyStateWithUntrustedHolidaysBecomesAGap: a state kept when
// every weekday answered with nothing was a holiday, holding more
// holidays than the calendar names, is reported as a gap and refetched
// when a run is asked for it.
func TestALegacyStateWithUntrustedHolidaysBecomesAGap(t *testing.T) {
	r := newRig(nil, "2024-11-28")
	if err := r.states.SaveState(t.Context(), feed.State{Source: "test", First: "2024-11-01", Last: "2025-02-26", Holidays: 82}); err != nil {
		t.Fatal(err)
	}
	statuses, _ := r.s.Statuses(t.Context())
	if notes := statuses[0].Notes(); !slices.Equal(notes, []string{"gap: 2024-11-01..2025-02-26 not fetched"}) || statuses[0].State.Holidays != 0 {
		t.Fatalf("legacy state: %+v, notes %q", statuses[0].State, notes)
	}
	since, _ := feed.Day("2024-11-01")
	o := r.run(t, sourcesync.Range{Since: since})
	if st := r.state(t); len(st.Gaps) != 0 || o.Holidays != 1 || st.Holidays != 1 || st.Version != feed.Version {
		t.Fatalf("after a run since the range: %+v, %+v", o, st)
	}
}
