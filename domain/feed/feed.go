// Package feed holds what Quarry knows about keeping a dataset current from
// an outside source: the days a source publishes, which of them are held,
// and how a sync run went. It does no I/O; the sources themselves are
// adapters behind ports.Source, and the use case is app/sourcesync.
package feed

import (
	"fmt"
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

// State is a source's checkpoint: the range of days it holds, contiguous,
// and how its last runs went. An inbox, which takes deliveries rather than
// days, holds no range: only its counts and its runs. A sync extends the range one whole day at a
// time and saves the state after each, so a run that is killed resumes at
// the first day not saved.
type State struct {
	// Source names the source, as `quarry sync` does (edgar, nse, tushare).
	Source string `json:"source"`
	// First and Last bound the days covered (YYYY-MM-DD), empty when none
	// is: every day between them was loaded, was a holiday or a weekend.
	First string `json:"first,omitempty"`
	Last  string `json:"last,omitempty"`
	// Files and Rows count what the source's runs loaded; Holidays counts
	// the weekdays the source answered it did not publish.
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

// Covers reports whether day (YYYY-MM-DD) is within the range held.
func (s State) Covers(day string) bool {
	return s.First != "" && s.First <= day && day <= s.Last
}

// Cover adds day to the range held. Only a day next to the range, or the
// first day of an empty one, extends it: the range stays contiguous.
func (s *State) Cover(day string) error {
	switch {
	case s.First == "":
		s.First, s.Last = day, day
	case s.Covers(day):
	case day == next(s.Last):
		s.Last = day
	case next(day) == s.First:
		s.First = day
	default:
		return fmt.Errorf("day %s is not next to the range held, %s to %s", day, s.First, s.Last)
	}
	return nil
}

// Plan returns the days a run asked for [from, to] fetches, in the order it
// fetches them: those not held, with the range widened to meet the days
// held, so that the range held stays contiguous. Days before the range
// held come newest first, so each extends it downwards.
func (s State) Plan(from, to time.Time) []time.Time {
	if s.First != "" {
		first, _ := Day(s.First)
		last, _ := Day(s.Last)
		if from.After(last) {
			from = last.AddDate(0, 0, 1)
		}
		if to.Before(first) {
			to = first.AddDate(0, 0, -1)
		}
		var out []time.Time
		for d := earlier(to, first.AddDate(0, 0, -1)); !d.Before(from); d = d.AddDate(0, 0, -1) {
			out = append(out, d)
		}
		for d := later(from, last.AddDate(0, 0, 1)); !d.After(to); d = d.AddDate(0, 0, 1) {
			out = append(out, d)
		}
		return out
	}
	var out []time.Time
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		out = append(out, d)
	}
	return out
}

// next returns the day after day (YYYY-MM-DD).
func next(day string) string {
	d, err := Day(day)
	if err != nil {
		return ""
	}
	return d.AddDate(0, 0, 1).Format(DayLayout)
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
