package financials

import (
	"iter"
	"slices"
	"sort"
	"time"
)

// Trailing twelve months.
//
// A ttm figure of a flow ending at a fiscal quarter end E is the amount over
// the four consecutive fiscal quarters ending at E. Filers rarely report it
// directly: 10-Qs carry the quarter (3 months) and, for most concepts, the
// year to date (3, 6 or 9 months), and the fourth quarter exists only inside
// the 10-K's fiscal year. Every such figure is the amount between two fiscal
// period boundaries, so the ttm amount is found by walking from E's boundary
// back to the boundary a year earlier through reported periods, adding a
// period crossed backwards in time and subtracting one crossed forwards.
// The walk covers both textbook identities and their mixtures:
//
//	ttm(E) = FY(prior year) + YTD(E) - YTD(same period of the prior year)
//	ttm(E) = Q4(prior) + Q1 + Q2 + Q3, with Q4(prior) = FY - Q1 - Q2 - Q3
//
// and the fewest periods win. A figure with no such walk is left out,
// never estimated.

// quarterSpans are the day ranges (end minus start) of periods of one to
// four fiscal quarters: a quarter, a half-year or nine-month year to date,
// and a fiscal year. 13/14-week quarters and 52/53-week years fall inside.
var quarterSpans = [5][2]int{{}, {minQuarterDays, maxQuarterDays}, {170, 200}, {255, 290}, {minYearDays, maxYearDays}}

// quarters returns how many fiscal quarters a period spans, or false when
// its length is not that of one to four quarters.
func quarters(start, end string) (int, bool) {
	days, ok := DaysBetween(start, end)
	if !ok {
		return 0, false
	}
	for n := 1; n <= 4; n++ {
		if days >= quarterSpans[n][0] && days <= quarterSpans[n][1] {
			return n, true
		}
	}
	return 0, false
}

// dayAfter returns the ISO date following d; a period ending on d and the
// next one starting on dayAfter(d) share that boundary.
func dayAfter(d string) string {
	t, ok := day(d)
	if !ok {
		return ""
	}
	return t.AddDate(0, 0, 1).Format(time.DateOnly)
}

// daysBefore returns the ISO date n days before d.
func daysBefore(d string, n int) string {
	return daysAfter(d, -n)
}

// daysAfter returns the ISO date n days after d.
func daysAfter(d string, n int) string {
	t, ok := day(d)
	if !ok {
		return ""
	}
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}

// trailingRows returns one row per fiscal quarter end among the known
// facts: flows over the four quarters ending there, balance sheets as at
// that date. known are the facts known at the moment asked about, byKey the
// same facts by key, and labels the company's filings (to label years).
func trailingRows(labels labels, known []Fact, byKey map[factKey]Fact, fields []Field, st Statement, cur string) []Row {
	series := map[[2]string][]Fact{}
	for _, f := range known {
		k := [2]string{f.Concept, f.Unit}
		series[k] = append(series[k], f)
	}
	var rows []Row
	for _, end := range periodEnds(known) {
		var row Row
		var ok bool
		if st == Balance {
			row, ok = buildRow(byKey, fields, Span{End: end}, cur)
		} else {
			row, ok = trailingRow(series, fields, end, cur)
		}
		if ok {
			row.FiscalYear, row.FiscalPeriod = fiscalYearAt(labels, slices.Values(known), end), "TTM"
			rows = append(rows, row)
		}
	}
	return rows
}

// periodEnds lists the dates closing a period of one to four fiscal
// quarters: every quarter end, fiscal year ends included.
func periodEnds(known []Fact) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range known {
		if _, ok := quarters(f.Start, f.End); ok && !seen[f.End] {
			seen[f.End] = true
			out = append(out, f.End)
		}
	}
	return out
}

// trailingRow reads every flow field over the twelve months ending at end.
// Per field, the first concept whose ttm amount can be found wins, and all
// of its pieces are of that one concept: mixing concepts could mix scopes.
func trailingRow(series map[[2]string][]Fact, fields []Field, end, cur string) (Row, bool) {
	row := Row{End: end, Currency: cur, Values: map[string]float64{}}
	var newest *Fact
	for _, fd := range fields {
		unit := cur
		if fd.Measure == PerShare {
			unit = cur + "/shares"
		}
		for _, concept := range fd.Concepts {
			t, ok := trailing(series[[2]string{concept, unit}], end, fd.Measure != PerShare)
			if !ok {
				continue
			}
			row.Values[fd.Name] = t.value
			if row.Start == "" {
				row.Start = t.start
			}
			if newest == nil || later(*t.newest, *newest) {
				newest = t.newest
			}
			break
		}
	}
	if newest == nil {
		return Row{}, false
	}
	row.Accession, row.Filed = newest.Accession, newest.Filed
	return row, true
}

// sum is a ttm amount, the first day it covers, and the latest filing
// among the facts it was assembled from.
type sum struct {
	value  float64
	start  string
	newest *Fact
}

// edge is a reported period seen from one of its boundaries: value is what
// crossing it adds to the amount accumulated from E backwards.
type edge struct {
	to    string
	value float64
	fact  *Fact
}

// trailing finds the amount of one concept over the four quarters ending at
// end, from the concept and unit's facts sorted by end then start (as
// KnownAt orders them). With derive false only a reported twelve-month figure counts: per-share
// amounts do not add up across quarters, because each quarter divides by its
// own weighted share count (which changes with buybacks, issuance and
// splits), so a ttm EPS is shown only when a filing reports it.
func trailing(facts []Fact, end string, derive bool) (sum, bool) {
	if !derive {
		window := ending(facts, end, end)
		for i, f := range window {
			if n, ok := quarters(f.Start, f.End); ok && n == 4 {
				return sum{f.Value, f.Start, &window[i]}, true
			}
		}
		return sum{}, false
	}
	g := graph(facts, end)
	if len(g) == 0 {
		return sum{}, false
	}
	reached := walk(g, dayAfter(end))
	var found []sum
	for b, s := range reached {
		if n, ok := quarters(b, end); ok && n == 4 {
			found = append(found, s)
		}
	}
	// A second candidate start would mean periods that are not fiscal
	// quarters; rather than pick one, give no figure.
	if len(found) != 1 {
		return sum{}, false
	}
	return found[0], true
}

// graph links the boundaries of the reported periods that can contribute to
// the ttm amount ending at end: periods of one to four quarters, ending by
// end and starting at most two years before it (the prior fiscal year and
// its quarters are the furthest any identity reaches).
func graph(facts []Fact, end string) map[string][]edge {
	earliest := daysBefore(end, 2*(maxYearDays+1))
	window := ending(facts, earliest, end)
	if len(window) == 0 {
		return nil
	}
	g := map[string][]edge{}
	for i := range window {
		f := &window[i]
		if f.Start < earliest {
			continue
		}
		if _, ok := quarters(f.Start, f.End); !ok {
			continue
		}
		after := dayAfter(f.End)
		g[after] = append(g[after], edge{f.Start, f.Value, f})
		g[f.Start] = append(g[f.Start], edge{after, -f.Value, f})
	}
	return g
}

// ending returns the facts, sorted by end, whose end is from first to last
// inclusive.
func ending(facts []Fact, first, last string) []Fact {
	lo := sort.Search(len(facts), func(i int) bool { return facts[i].End >= first })
	hi := sort.Search(len(facts), func(i int) bool { return facts[i].End > last })
	return facts[lo:max(lo, hi)]
}

// walk visits the boundaries reachable from the one after E, breadth first
// so that each amount uses the fewest reported periods, and returns for
// each the amount from it to E.
func walk(g map[string][]edge, from string) map[string]sum {
	reached := map[string]sum{from: {}}
	queue := []string{from}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		cur := reached[at]
		for _, e := range g[at] {
			if _, seen := reached[e.to]; seen {
				continue
			}
			next := sum{value: cur.value + e.value, start: e.to, newest: e.fact}
			if cur.newest != nil && later(*cur.newest, *e.fact) {
				next.newest = cur.newest
			}
			reached[e.to] = next
			queue = append(queue, e.to)
		}
	}
	delete(reached, from)
	return reached
}

// fiscalYearAt is the fiscal year of the quarter ending at end, named by the
// earliest filing known to report a figure for that date: normally the
// quarter's own 10-Q or 10-K, whose fiscal year companyfacts gives.
func fiscalYearAt(labels labels, known iter.Seq[Fact], end string) int {
	var first Fact
	found := false
	for f := range known {
		if f.End == end && (!found || later(first, f)) {
			first, found = f, true
		}
	}
	if !found {
		return 0
	}
	fy, _ := labels.label(first.Accession, end, Quarterly)
	return fy
}
