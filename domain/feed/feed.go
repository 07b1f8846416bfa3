// Package feed holds what Quarry knows about keeping a dataset current from
// an outside source: the days a source publishes, which of them are held,
// and how a sync run went. It does no I/O; the sources themselves are
// adapters behind ports.Source, and the use case is app/sourcesync.
package feed

import (
	"fmt"
	"slices"
	"time"
)

// DayLayout is how a source day is written: the calendar date of the
// publication, in the source's own time zone.
const DayLayout = time.DateOnly

// Day parses a day written as YYYY-MM-DD; it names the day in UTC.
func Day(s string) (time.Time, error) {
	d, err := time.Parse(DayLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date (YYYY-MM-DD)", s)
	}
	return d, nil
}

// Weekday reports whether d falls Monday to Friday: the days an exchange
// or the SEC may publish. Weekends are never fetched.
func Weekday(d time.Time) bool {
	return d.Weekday() != time.Saturday && d.Weekday() != time.Sunday
}

// Version is the version of the rules a State is kept by: holidays only
// from a trusted calendar, days missing asked again, gaps kept. A state
// without it was kept when every weekday a source answered with nothing
// was a holiday (Migrate).
const Version = 2

// State is a source's checkpoint: the range of days it has been through,
// with the spans of it not fetched (Gaps) and the days the source did not
// serve (Missing), and how its last runs went. An inbox, which takes
// deliveries rather than days, holds no range: only its counts and its
// runs. A sync saves the state after each batch of days, so a run that is
// killed resumes at the first batch not saved.
type State struct {
	// Source names the source, as `quarry sync` does (edgar, nse, tushare).
	Source string `json:"source"`
	// Version is the rules' Version the state was kept by; 0 before them.
	Version int `json:"version,omitempty"`
	// First and Last bound the days gone through (YYYY-MM-DD), empty when
	// none is: every day between them was loaded, was a holiday or a
	// weekend, unless it is in Gaps or Missing.
	First string `json:"first,omitempty"`
	Last  string `json:"last,omitempty"`
	// Gaps are the spans between First and Last no run fetched, such as
	// the days before an explicit --from; trimmed to the days the source
	// publishes (Trim).
	Gaps []Span `json:"gaps,omitempty"`
	// Missing are the days fetched that the source did not serve and no
	// trusted calendar names a holiday, asked again with backoff.
	Missing []Missing `json:"missing,omitempty"`
	// Files and Rows count what the source's runs loaded; Holidays counts
	// the weekdays covered as holidays by the source's trusted calendar.
	Files    int64 `json:"files"`
	Rows     int64 `json:"rows"`
	Holidays int64 `json:"holidays"`
	// Refused counts the deliveries an inbox moved aside unread, their
	// reader having refused them; a source fetching days has none.
	Refused int64 `json:"refused,omitempty"`
	// LastSuccess is when a run last finished without an error.
	LastSuccess time.Time `json:"last_success,omitzero"`
	// LastError is the reason the last failed run stopped, and
	// LastErrorAt when; both are cleared by the next run that succeeds.
	LastError   string    `json:"last_error,omitempty"`
	LastErrorAt time.Time `json:"last_error_at,omitzero"`
	// ETag and LastModified identify the version of the bulk archive a
	// bulk run last loaded (a source's bulk checkpoint), sent with the
	// next run's request so that an archive unchanged is not fetched.
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
}

// Span is a run of days, First to Last inclusive (YYYY-MM-DD).
type Span struct {
	First string `json:"first"`
	Last  string `json:"last"`
}

// Missing is a day the source did not serve: how often it was asked, and
// when it is asked next; a zero NextTry means it was given up.
type Missing struct {
	Day      string    `json:"day"`
	Attempts int       `json:"attempts"`
	NextTry  time.Time `json:"next_try,omitzero"`
}

// GaveUp reports whether the day is asked no more unless a run names it.
func (m Missing) GaveUp() bool { return m.NextTry.IsZero() }

// The backoff of a day missing: asked again RetryFirst after the first
// attempt, then after waits doubling up to RetryAtMost, and given up
// after GiveUpAfter attempts (about three days and seven hours after the
// first: 1+2+4+8+16+24+24 hours).
const (
	RetryFirst  = time.Hour
	RetryAtMost = 24 * time.Hour
	GiveUpAfter = 8
)

// Retry returns how long after its attempts-th attempt a day missing is
// asked again, zero once it is given up.
func Retry(attempts int) time.Duration {
	if attempts >= GiveUpAfter {
		return 0
	}
	return min(RetryFirst<<(attempts-1), RetryAtMost)
}

// Covers reports whether day (YYYY-MM-DD) is held: within the range,
// neither in a gap nor missing.
func (s State) Covers(day string) bool {
	return s.First != "" && s.First <= day && day <= s.Last && !inGap(s.Gaps, day) && !s.missing(day)
}

// LastHeld returns the last day of the range that is held: Last, unless
// the days at the range's end are missing or in a gap, or "" when none
// is held. Coverage and lag are reported to it, so a day asked and not
// served never reads as held.
func (s State) LastHeld() string {
	if s.First == "" {
		return ""
	}
	last, err := Day(s.Last)
	first, err2 := Day(s.First)
	if err != nil || err2 != nil {
		return s.Last
	}
	for d := last; !d.Before(first); d = d.AddDate(0, 0, -1) {
		if day := d.Format(DayLayout); s.Covers(day) {
			return day
		}
	}
	return ""
}

// Cover records day as held: loaded, a holiday or a weekend. The range
// widens to it, the days between a gap, and it leaves the gaps and the
// days missing.
func (s *State) Cover(day string) {
	s.extend(day)
	s.Gaps = cut(s.Gaps, day)
	s.Missing = slices.DeleteFunc(s.Missing, func(m Missing) bool { return m.Day == day })
}

// Miss records an attempt at day, which the source did not serve, at at,
// and returns the day's record: its attempts and next try.
func (s *State) Miss(day string, at time.Time) Missing {
	s.extend(day)
	s.Gaps = cut(s.Gaps, day)
	i := slices.IndexFunc(s.Missing, func(m Missing) bool { return m.Day == day })
	if i < 0 {
		s.Missing = append(s.Missing, Missing{Day: day})
		i = len(s.Missing) - 1
	}
	m := &s.Missing[i]
	m.Attempts++
	m.NextTry = time.Time{}
	if wait := Retry(m.Attempts); wait > 0 {
		m.NextTry = at.Add(wait).UTC()
	}
	return *m
}

// Plan returns the days a run over [from, to] fetches, in order: those
// not held and not missing, and the days missing whose next try is due
// at now, wherever they are.
func (s State) Plan(from, to, now time.Time) []time.Time {
	var out []time.Time
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		if day := d.Format(DayLayout); !s.Covers(day) && !s.missing(day) {
			out = append(out, d)
		}
	}
	for _, m := range s.Missing {
		d, err := Day(m.Day)
		if err == nil && !m.GaveUp() && !m.NextTry.After(now) && !slices.ContainsFunc(out, d.Equal) {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}

// Holds reports whether every day from from to to (YYYY-MM-DD) is held,
// a day given up excepted: the range covers them, no gap meets them, and
// no day among them is still being asked for.
func (s State) Holds(from, to string) bool {
	if s.First == "" || s.First > from || s.Last < to {
		return false
	}
	for _, g := range s.Gaps {
		if g.First <= to && from <= g.Last {
			return false
		}
	}
	return !slices.ContainsFunc(s.Missing, func(m Missing) bool { return !m.GaveUp() && from <= m.Day && m.Day <= to })
}

// Trim shrinks each gap to the days publishes says the source publishes,
// dropping a gap with none (a weekend between two days held).
func (s *State) Trim(publishes func(time.Time) bool) {
	var out []Span
	for _, g := range s.Gaps {
		first, _ := Day(g.First)
		last, _ := Day(g.Last)
		for !first.After(last) && !publishes(first) {
			first = first.AddDate(0, 0, 1)
		}
		for !last.Before(first) && !publishes(last) {
			last = last.AddDate(0, 0, -1)
		}
		if !first.After(last) {
			out = append(out, Span{First: first.Format(DayLayout), Last: last.Format(DayLayout)})
		}
	}
	s.Gaps = out
}

// Migrate brings a state kept before Version to it, and reports whether
// it found holidays it cannot trust. Such a state counted as a holiday
// every weekday the source answered with nothing, and did not say which.
// When it counts more holidays than trusted, the days of its range the
// source's trusted calendar names, its range is not trusted: it becomes
// one gap, fetched again when a run is asked for it, and its count of
// holidays is dropped.
func (s *State) Migrate(trusted int) bool {
	if s.Version >= Version {
		return false
	}
	s.Version = Version
	if s.First == "" || s.Holidays <= int64(trusted) {
		return false
	}
	s.Gaps, s.Missing, s.Holidays = []Span{{First: s.First, Last: s.Last}}, nil, 0
	return true
}

// extend widens the range to day, the days between it and the range a gap.
func (s *State) extend(day string) {
	switch {
	case s.First == "":
		s.First, s.Last = day, day
	case day > s.Last:
		if n := next(s.Last); n != day {
			s.Gaps = append(s.Gaps, Span{First: n, Last: prev(day)})
		}
		s.Last = day
	case day < s.First:
		if n := next(day); n != s.First {
			s.Gaps = append([]Span{{First: n, Last: prev(s.First)}}, s.Gaps...)
		}
		s.First = day
	}
}

func (s State) missing(day string) bool {
	return slices.ContainsFunc(s.Missing, func(m Missing) bool { return m.Day == day })
}

func inGap(gaps []Span, day string) bool {
	return slices.ContainsFunc(gaps, func(g Span) bool { return g.First <= day && day <= g.Last })
}

// cut takes day out of the gaps, splitting the one it is in.
func cut(gaps []Span, day string) []Span {
	var out []Span
	for _, g := range gaps {
		if day < g.First || g.Last < day {
			out = append(out, g)
			continue
		}
		if g.First < day {
			out = append(out, Span{First: g.First, Last: prev(day)})
		}
		if day < g.Last {
			out = append(out, Span{First: next(day), Last: g.Last})
		}
	}
	return out
}

// next returns the day after day (YYYY-MM-DD).
func next(day string) string { return shift(day, 1) }

// prev returns the day before day (YYYY-MM-DD).
func prev(day string) string { return shift(day, -1) }

func shift(day string, n int) string {
	d, err := Day(day)
	if err != nil {
		return ""
	}
	return d.AddDate(0, 0, n).Format(DayLayout)
}
