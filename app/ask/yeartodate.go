package ask

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/question"
)

// Parts of a fiscal year (docs/ask.md, section 1): a year to date is one
// filing's fact of six or nine months; a fourth quarter no filing reports
// is its fiscal year less the first nine months, the arithmetic shown.

// partOfYear answers a period no statement row holds: a year to date, or
// a fourth quarter derived from its year; nil when the facts hold none.
func (a *Service) partOfYear(ctx context.Context, co usfinancials.Params, name string, per question.Period, asOf time.Time) ([]sentence, error) {
	field, ok := fieldNamed(name)
	if !ok || field.Measure != financials.Flow {
		return nil, nil
	}
	if per.Kind == question.YearToDate || per.Span == question.SixMonths || per.Span == question.NineMonths {
		ref, err := a.yearToDate(ctx, co, field, per, "", asOf)
		if err != nil || ref == nil {
			return nil, err
		}
		return []sentence{ref.said}, nil
	}
	year, ok := yearOfFourthQuarter(per)
	if !ok {
		return nil, nil
	}
	return a.fourthQuarter(ctx, co, field, year, asOf)
}

// yearOfFourthQuarter is the fiscal year whose fourth quarter per names.
func yearOfFourthQuarter(per question.Period) (question.Period, bool) {
	switch {
	case per.Kind == question.Quarter && per.Quarter == 4:
		return question.Period{Kind: question.FiscalYear, Year: per.Year, Filing: per.Filing}, true
	case (per.Kind == question.EndDate || per.Kind == question.EndMonth) && per.Span == question.ThreeMonths:
		return question.Period{Kind: per.Kind, End: per.End, Span: question.Year, Filing: per.Filing}, true
	}
	return question.Period{}, false
}

// fourthQuarter answers the fiscal year less its first nine months, both
// cited, when no filing reports the quarter itself.
func (a *Service) fourthQuarter(ctx context.Context, co usfinancials.Params, field financials.Field, year question.Period, asOf time.Time) ([]sentence, error) {
	fy, err := a.lookup(ctx, co, field.Name, year, asOf)
	if err != nil || fy == nil || fy.period != financials.Annual {
		return nil, err
	}
	nine, err := a.yearToDate(ctx, co, field, question.Period{Kind: question.YearToDate, Months: 9, Filing: year.Filing}, fy.row.Start, asOf)
	if err != nil || nine == nil || nine.row.End >= fy.row.End {
		return nil, err
	}
	text := fmt.Sprintf("%s %s for the fourth quarter of fiscal year %d (the three months to %s) is fiscal_year - first_nine_months = %s - %s = %s %s.",
		fy.st.Ticker, field.Name, fy.row.FiscalYear, fy.row.End, number(fy.value), number(nine.value),
		subtracted(number(fy.value), number(nine.value)), fy.row.Currency)
	return arithmetic(text, fy, nine), nil
}

// ytdDays bound the length of a six- and a nine-month period in days
// (fiscal years of 52 or 53 weeks move its ends by days).
var ytdDays = map[int][2]int{6: {175, 190}, 9: {266, 280}}

// yearToDate is the filed fact of a year to date: the first six or nine
// months of a fiscal year (per.Year, the filing's; or the year starting
// at start), or the period ending on per.End; nine months before six
// when per says neither.
func (a *Service) yearToDate(ctx context.Context, co usfinancials.Params, field financials.Field, per question.Period, start string, asOf time.Time) (*figureRef, error) {
	c, ticker, err := a.filer(ctx, co)
	if err != nil {
		return nil, err
	}
	cik := c.CIK
	lengths := []int{9, 6}
	switch {
	case per.Months != 0:
		lengths = []int{per.Months}
	case per.Span == question.SixMonths:
		lengths = []int{6}
	case per.Span == question.NineMonths:
		lengths = []int{9}
	}
	for _, months := range lengths {
		var candidates []financials.Fact
		for _, f := range c.Facts {
			if ytdMatches(f, field, per, start, months) {
				candidates = append(candidates, f)
			}
		}
		if fact, ok := newestYearToDate(financials.KnownAt(candidates, asOf), field); ok {
			return ytdRef(ticker, cik, field, fact, months, asOf), nil
		}
	}
	return nil, nil
}

// ytdMatches reports whether f is a year to date of months that per (or
// start) names, of one of field's concepts.
func ytdMatches(f financials.Fact, field financials.Field, per question.Period, start string, months int) bool {
	d, ok := financials.DaysBetween(f.Start, f.End)
	if !ok || d < ytdDays[months][0] || d > ytdDays[months][1] || !fromFiling(f, per.Filing) || !slices.Contains(field.Concepts, f.Concept) {
		return false
	}
	switch {
	case start != "":
		return f.Start == start
	case per.Kind == question.EndDate:
		return f.End == per.End
	}
	// A filing of the year's second or third quarter carries the year
	// before's too; the newest end is the year's own.
	return f.FiscalYear == per.Year && f.FiscalPeriod == map[int]string{6: "Q2", 9: "Q3"}[months]
}

// newestYearToDate is the fact of the newest period end, by the first of
// field's concepts that has one.
func newestYearToDate(known []financials.Fact, field financials.Field) (financials.Fact, bool) {
	for _, concept := range field.Concepts {
		var best financials.Fact
		found := false
		for _, f := range known {
			if f.Concept == concept && (!found || f.End > best.End || f.End == best.End && f.Filed > best.Filed) {
				best, found = f, true
			}
		}
		if found {
			return best, true
		}
	}
	return financials.Fact{}, false
}

// ytdRef renders a year-to-date fact, cited to the filing that filed it.
func ytdRef(ticker, cik string, field financials.Field, f financials.Fact, months int, asOf time.Time) *figureRef {
	value := number(f.Value)
	fields := map[string]string{
		"ticker": ticker, "cik": cik, "field": field.Name, "period_start": f.Start, "period_end": f.End,
		"months": strconv.Itoa(months), "value": value, "currency": f.Unit, "accession_number": f.Accession, "filed": f.Filed,
	}
	words := map[int]string{6: "six", 9: "nine"}[months]
	text := fmt.Sprintf("%s %s for the %s months %s to %s, the first %s months of a fiscal year, was %s %s, as filed on %s in %s.",
		ticker, field.Name, words, f.Start, f.End, words, value, f.Unit, f.Filed, f.Accession)
	row := financials.Row{Start: f.Start, End: f.End, Currency: f.Unit, Accession: f.Accession, Filed: f.Filed,
		FiscalYear: f.FiscalYear, Values: map[string]float64{field.Name: f.Value}}
	said := sentence{text: text, cite: Citation{
		Dataset: dataset.USFinancials, DocumentID: f.Accession + ":" + f.End,
		Title:   fmt.Sprintf("%s %s, %s months to %s, as known at %s", ticker, field.Statement, words, f.End, asOf.Format(time.DateOnly)),
		Snippet: recordSnippet(fields), Fields: fields,
	}}
	return &figureRef{st: usfinancials.Statements{Ticker: ticker, CIK: cik}, row: row, field: field, period: financials.Quarterly, value: f.Value, said: said}
}

// endsCalendarTerm reports whether a period ending at end is the
// calendar quarter (or year) per names: it ends within two weeks of the
// term's last day.
func endsCalendarTerm(end string, per question.Period) bool {
	e, err := time.Parse(time.DateOnly, end)
	if err != nil {
		return false
	}
	month := 12
	if per.Quarter > 0 {
		month = 3 * per.Quarter
	}
	last := time.Date(per.Year, time.Month(month)+1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	const slack = 14 * 24 * time.Hour
	return e.Sub(last) <= slack && last.Sub(e) <= slack
}

// filer is the company a question names, read once, and its ticker.
func (a *Service) filer(ctx context.Context, co usfinancials.Params) (financials.Company, string, error) {
	cik := co.CIK
	if cik == "" {
		var err error
		if cik, err = a.fin.CIKForTicker(ctx, co.Ticker); err != nil {
			return financials.Company{}, "", err
		}
	}
	c, err := a.fin.CompanyByCIK(ctx, cik)
	if err != nil {
		return financials.Company{}, "", err
	}
	if len(c.Tickers) == 0 {
		return c, strings.ToUpper(co.Ticker), nil
	}
	return c, c.Tickers[0], nil
}
