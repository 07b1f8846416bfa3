// Package calendar holds the trusted calendars of the days a source does
// not publish: the exchanges' trading holidays (NSE's, the A-share
// exchanges'), shipped as the lists the exchanges published, and the US
// federal holidays, on which EDGAR does not disseminate, computed by rule.
// A weekday a source answers with nothing is a holiday only where its
// calendar says so; any other is a day missing, asked again later.
package calendar

import (
	_ "embed"
	"fmt"
	"strings"
	"time"
)

var (
	//go:embed nse_holidays.txt
	nseList string
	//go:embed ashare_holidays.txt
	ashareList string
)

// NSE is NSE's list of trading holidays; AShare the mainland exchanges'
// (the SSE's, which Shenzhen and Beijing share).
var (
	NSE    = mustParse("nse_holidays.txt", nseList)
	AShare = mustParse("ashare_holidays.txt", ashareList)
)

// List is a published list of holidays, over the years it covers.
type List struct {
	from, to int
	days     map[string]bool
}

// Holiday reports whether day is in the list.
func (l List) Holiday(day time.Time) bool { return l.days[day.Format(time.DateOnly)] }

// Covers reports whether the list covers day's year: outside it, no day
// is a holiday by the list.
func (l List) Covers(day time.Time) bool { return l.from <= day.Year() && day.Year() <= l.to }

// Parse reads a list: lines of one day each (YYYY-MM-DD), comments after
// #, and one line "covers FROM TO" naming the years it covers. A day
// outside them, or a list without them, is refused.
func Parse(name, text string) (List, error) {
	l := List{days: map[string]bool{}}
	for i, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if _, err := fmt.Sscanf(line, "covers %d %d", &l.from, &l.to); err == nil {
			continue
		}
		d, err := time.Parse(time.DateOnly, line)
		if err != nil || l.from == 0 || !l.Covers(d) {
			return List{}, fmt.Errorf("%s:%d: %q is not a day of the years covered", name, i+1, line)
		}
		l.days[line] = true
	}
	if l.from == 0 {
		return List{}, fmt.Errorf("%s: no line names the years covered", name)
	}
	return l, nil
}

func mustParse(name, text string) List {
	l, err := Parse(name, text)
	if err != nil {
		panic(err)
	}
	return l
}
