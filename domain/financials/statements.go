package financials

import (
	"fmt"
	"math"
	"time"

	"github.com/quarrydata/quarry/domain/source"
)

// Period is the span a statement covers.
type Period string

// The periods of the interface.
const (
	Annual    Period = "annual"
	Quarterly Period = "quarterly"
	TTM       Period = "ttm"
)

// ParsePeriod reads a period name; empty means annual.
func ParsePeriod(s string) (Period, error) {
	switch p := Period(s); p {
	case "":
		return Annual, nil
	case Annual, Quarterly, TTM:
		return p, nil
	}
	return "", fmt.Errorf("period %s is not one of annual, quarterly, ttm", source.Quote(s))
}

// Durations in days (end minus start) that count as a fiscal year or a
// fiscal quarter. 52/53-week years run 363 or 370 days, 13/14-week quarters
// 90 or 97.
const (
	minYearDays, maxYearDays       = 340, 380
	minQuarterDays, maxQuarterDays = 80, 100
)

// classify returns the period a duration fact covers, if any.
func classify(start, end string) (Period, bool) {
	days, ok := DaysBetween(start, end)
	if !ok {
		return "", false
	}
	switch {
	case days >= minYearDays && days <= maxYearDays:
		return Annual, true
	case days >= minQuarterDays && days <= maxQuarterDays:
		return Quarterly, true
	}
	return "", false
}

// Row is one statement for one period: the values of its fields (a field
// absent from Values was not reported), and the filing the newest of those
// values came from.
type Row struct {
	Start        string
	End          string
	FiscalYear   int
	FiscalPeriod string
	Currency     string
	Accession    string
	Filed        string
	Values       map[string]float64
}

// Build returns the statements of one kind and period as known at asOf,
// newest report period first. Each value is the fact of the latest filing
// known at asOf, read through the concept map; a TTM value is assembled
// from such facts (see trailingRows).
func Build(c Company, st Statement, p Period, asOf time.Time) []Row {
	return Know(c, asOf).Statement(st, p)
}

// Known is a company's facts as known at an instant, selected once for
// every statement built from them.
type Known struct {
	facts  []Fact
	labels labels
	byKey  map[factKey]Fact
	// periods classifies each duration of the known facts once.
	periods  map[Span]Period
	currency string
}

// Know selects the company's facts known at asOf (see KnownAt).
func Know(c Company, asOf time.Time) Known {
	known := KnownAt(c.Facts, asOf)
	byKey := make(map[factKey]Fact, len(known))
	periods := map[Span]Period{}
	for _, f := range known {
		byKey[factKey{f.Concept, f.Unit, f.Start, f.End}] = f
		s := Span{f.Start, f.End}
		if _, done := periods[s]; !done {
			periods[s], _ = classify(f.Start, f.End)
		}
	}
	return Known{labels: labelsOf(c.Facts), facts: known, byKey: byKey, periods: periods, currency: reportingCurrency(known)}
}

// Statement returns one statement's rows of the period kind, newest first;
// see Build.
func (k Known) Statement(st Statement, p Period) []Row {
	fields := FieldsOf(st)
	var rows []Row
	if p == TTM {
		rows = trailingRows(k.labels, k.facts, k.byKey, fields, st, k.currency)
	} else {
		rows = periodRows(k, fields, st, p)
	}
	sortRows(rows)
	return rows
}

// periodRows returns one row per reported fiscal year or quarter.
func periodRows(k Known, fields []Field, st Statement, p Period) []Row {
	var rows []Row
	for _, span := range spans(k, fields, st, p) {
		if row, ok := buildRow(k.byKey, fields, span, k.currency); ok {
			row.FiscalYear, row.FiscalPeriod = k.labels.label(row.Accession, row.End, p)
			rows = append(rows, row)
		}
	}
	return rows
}

// spans lists the periods with at least one known fact of the statement.
// Flow statements take every duration of the requested kind. Balance sheets
// take the instants that close such a duration anywhere in the company's
// facts: fiscal year ends for annual, quarter ends for quarterly.
func spans(k Known, fields []Field, st Statement, p Period) []Span {
	concepts := map[string]bool{}
	for _, f := range fields {
		for _, c := range f.Concepts {
			concepts[c] = true
		}
	}
	closes := map[string]bool{}
	for s, kind := range k.periods {
		if kind == p {
			closes[s.End] = true
		}
	}
	seen := map[Span]bool{}
	var out []Span
	for _, f := range k.facts {
		if !concepts[f.Concept] {
			continue
		}
		s := Span{f.Start, f.End}
		if st == Balance {
			if f.Start != "" || !closes[f.End] {
				continue
			}
		} else if k.periods[s] != p {
			continue
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// buildRow reads every field for one span through its concepts in order.
func buildRow(byKey map[factKey]Fact, fields []Field, s Span, cur string) (Row, bool) {
	row := Row{Start: s.Start, End: s.End, Currency: cur, Values: map[string]float64{}}
	var newest *Fact
	for _, fd := range fields {
		unit := cur
		if fd.Measure == PerShare {
			unit = cur + "/shares"
		}
		for _, concept := range fd.Concepts {
			f, ok := byKey[factKey{concept, unit, s.Start, s.End}]
			if !ok {
				continue
			}
			row.Values[fd.Name] = f.Value
			if newest == nil || later(f, *newest) {
				newest = &f
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

// labels indexes a company's filings by accession number, to name rows'
// fiscal years and periods after them (see label).
type labels map[string]filingLabel

// filingLabel is what names a filing's rows: the fiscal year and period
// companyfacts gives its facts (those of its last fact), and its own
// period end (its latest fact's end).
type filingLabel struct {
	year   int
	period string
	end    string
}

// labelsOf indexes every filing of the facts.
func labelsOf(facts []Fact) labels {
	out := labels{}
	for _, f := range facts {
		l := out[f.Accession]
		l.year, l.period, l.end = f.FiscalYear, f.FiscalPeriod, max(l.end, f.End)
		out[f.Accession] = l
	}
	return out
}

// label names a row's fiscal year and period after the filing its newest
// value came from. companyfacts gives a fact the fiscal year of the filing
// that reported it, so a comparative prior-year figure carries the later
// year: the row's year is the filing's year less the whole years between the
// filing's own period end (its latest fact) and the row's end.
func (ls labels) label(accession, end string, p Period) (int, string) {
	l := ls[accession]
	fy, fp := l.year, l.period
	e1, ok1 := day(l.end)
	e2, ok2 := day(end)
	if !ok1 || !ok2 {
		return fy, fp
	}
	years := yearsBefore(fiscalYearEnd(e1, fp), e2)
	switch {
	case p == Annual:
		return fy - years, "FY"
	case fp == "FY":
		return fy - years, "Q4"
	}
	return fy - years, fp
}

// fiscalYearEnd estimates where the fiscal year of a filing whose own
// period ends at end closes: a 10-Q's year closes the quarters it has not
// yet reported later. A comparative balance at the previous year end, which
// a first-quarter 10-Q carries a quarter after it, is so one year back, not
// labelled with the 10-Q's own year.
func fiscalYearEnd(end time.Time, fp string) time.Time {
	quarters := map[string]int{"Q1": 3, "Q2": 2, "Q3": 1}[fp]
	return end.AddDate(0, 3*quarters, 0)
}

// yearsBefore counts the whole fiscal years between a fiscal year's end
// and a period's end. Fiscal years of 52 or 53 weeks make a year end move
// by days, so two weeks of slack keep 364 days one year.
func yearsBefore(yearEnd, end time.Time) int {
	const slack = 14 * 24 * time.Hour
	return int(math.Floor((yearEnd.Sub(end) + slack).Hours() / 24 / 365.25))
}

// reportingCurrency is the currency most of the known amounts are in; ties
// go to the alphabetically first code.
func reportingCurrency(known []Fact) string {
	counts := map[string]int{}
	for _, f := range known {
		if c, ok := Currency(f.Unit); ok {
			counts[c]++
		}
	}
	return mostUsed(counts)
}

// mostUsed is the currency counted most; ties go to the alphabetically
// first code.
func mostUsed(counts map[string]int) string {
	best := ""
	for c, n := range counts {
		if best == "" || n > counts[best] || (n == counts[best] && c < best) {
			best = c
		}
	}
	return best
}
