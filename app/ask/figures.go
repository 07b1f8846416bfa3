package ask

import (
	"context"
	"errors"
	"fmt"
	"github.com/quarrydata/quarry/app/usfinancials"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/question"
	"github.com/quarrydata/quarry/ports"
)

// figureRef is one stored figure an answer uses: the statement row that
// holds it and the filing that filed it, checked in the stored facts.
type figureRef struct {
	st     usfinancials.Statements
	row    financials.Row
	field  financials.Field
	period financials.Period
	value  float64
	said   sentence
}

// figureAnswer answers a figure question read by the question grammar
// (docs/ask.md). handled is false when a company it names is no held
// company, and the question may then be about a filing's text; once the
// companies are known, a figure the data does not hold is a refusal, never
// a text search.
func (a *Service) figureAnswer(ctx context.Context, f question.Figure, asOf time.Time) (out []sentence, handled bool, err error) {
	if f.AsOf != "" {
		// A day the question names: what was filed by its end, never
		// later than the request's as_of.
		day, err := time.Parse(time.DateOnly, f.AsOf)
		if err != nil {
			return nil, true, nil
		}
		if end := day.AddDate(0, 0, 1).Add(-time.Nanosecond); end.Before(asOf) {
			asOf = end
		}
	}
	var cos []usfinancials.Params
	for _, name := range f.Companies {
		p, err := a.company(ctx, name)
		if err != nil {
			return nil, true, err
		}
		if p == nil {
			return nil, len(cos) > 0, nil
		}
		cos = append(cos, *p)
	}
	switch {
	case f.Derived == question.Margin:
		out, err = a.margin(ctx, cos[0], f, asOf)
	case f.Derived == question.FreeCashFlow:
		out, err = a.freeCashFlow(ctx, cos[0], f, asOf)
	case f.Derived == question.Growth && len(cos) == 1:
		out, err = a.growth(ctx, cos[0], f, asOf)
	case f.Compare:
		out, err = a.compare(ctx, cos, f, asOf)
	case len(cos) == 1 && len(f.Periods) == 1:
		var ref *figureRef
		if ref, err = a.lookup(ctx, cos[0], f.Field, f.Periods[0], asOf); ref != nil {
			out = []sentence{ref.said}
		} else if err == nil {
			out, err = a.partOfYear(ctx, cos[0], f.Field, f.Periods[0], asOf)
		}
	}
	return out, true, err
}

// fromFiling reports whether fact was filed in the 10-K of fiscal year
// filing, when the question names one (0: any filing).
func fromFiling(fact financials.Fact, filing int) bool {
	return filing == 0 || fact.Form == "10-K" && fact.FiscalYear == filing
}

// fieldNamed is the statement field called name.
func fieldNamed(name string) (financials.Field, bool) {
	for _, f := range financials.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return financials.Field{}, false
}

// lookup finds the figure of one field in the period a question names,
// as known at asOf, and renders its sentence; nil when none is held or
// no stored fact of a filing holds it.
func (a *Service) lookup(ctx context.Context, p usfinancials.Params, name string, per question.Period, asOf time.Time) (*figureRef, error) {
	field, ok := fieldNamed(name)
	if !ok {
		return nil, nil
	}
	for _, kind := range periodKinds(per, field) {
		p.Period, p.AsOf, p.Limit = string(kind), asOf.Format(time.RFC3339Nano), 1000
		sq, err := usfinancials.ParseQuery(p, asOf)
		if err != nil {
			return nil, nil
		}
		st, err := a.fin.Statements(ctx, sq, field.Statement)
		if errors.Is(err, ports.ErrNotFound) {
			return nil, nil
		} else if err != nil {
			return nil, err
		}
		for _, r := range st.Pages[field.Statement].Rows {
			v, ok := r.Values[field.Name]
			if !ok || !selects(per, kind, r) {
				continue
			}
			return a.sourced(ctx, st, r, field, kind, per, v, asOf)
		}
	}
	return nil, nil
}

// sourced checks that a filing's stored fact holds the row's figure and
// renders the figure cited to that filing; nil when none does.
func (a *Service) sourced(ctx context.Context, st usfinancials.Statements, r financials.Row, field financials.Field, kind financials.Period, per question.Period, v float64, asOf time.Time) (*figureRef, error) {
	// A trailing-twelve-months figure is computed from several filings'
	// facts, and says so; every other figure is one filing's fact.
	if kind != financials.TTM {
		fact, ok, err := a.factHolding(ctx, st.CIK, field, r, v, per.Filing, asOf)
		if err != nil || !ok {
			return nil, err
		}
		r.Accession, r.Filed = fact.Accession, fact.Filed
	}
	fq := financialQuestion{field: field, period: kind}
	said := renderFigure(fq, st, r, asOf)
	if per.Kind == question.CalendarYear && kind == financials.Annual {
		y := strconv.Itoa(r.FiscalYear)
		said.text = strings.Replace(said.text, "for fiscal year "+y+" (", "for fiscal year "+y+", the fiscal year that ends in "+y+" (", 1)
	}
	return &figureRef{st: st, row: r, field: field, period: kind, value: v, said: said}, nil
}

// periodKinds are the statement periods a question's period is read
// from, in the order tried.
func periodKinds(per question.Period, field financials.Field) []financials.Period {
	switch {
	case per.Kind == question.YearToDate || per.Span == question.SixMonths || per.Span == question.NineMonths:
		return nil
	case per.Kind == question.CalendarTerm && per.Quarter > 0:
		return []financials.Period{financials.Quarterly}
	case per.Kind == question.Quarter || (per.Kind == question.EndDate || per.Kind == question.EndMonth) && per.Span == question.ThreeMonths:
		return []financials.Period{financials.Quarterly}
	case per.Kind == question.TTM && field.Measure != financials.Stock:
		return []financials.Period{financials.TTM}
	case per.Kind == question.TTM:
		return nil
	case (per.Kind == question.EndDate || per.Kind == question.EndMonth) && per.Span == question.Instant:
		return []financials.Period{financials.Annual, financials.Quarterly}
	}
	return []financials.Period{financials.Annual}
}

// selects reports whether row r (of kind) is the period per names; rows
// come newest first, so Latest and TTM take the first.
func selects(per question.Period, kind financials.Period, r financials.Row) bool {
	switch per.Kind {
	case question.FiscalYear:
		return r.FiscalYear == per.Year
	case question.CalendarYear:
		return strings.HasPrefix(r.End, strconv.Itoa(per.Year)+"-")
	case question.Quarter:
		return r.FiscalYear == per.Year && r.FiscalPeriod == fmt.Sprintf("Q%d", per.Quarter)
	case question.EndDate:
		return r.End == per.End
	case question.EndMonth:
		return strings.HasPrefix(r.End, per.End+"-")
	case question.CalendarTerm:
		return endsCalendarTerm(r.End, per)
	}
	return true
}

// factHolding is the stored fact, known at asOf, that holds value for
// field over r's period: the concept the row read it through, filed by
// the latest filing that reported it.
func (a *Service) factHolding(ctx context.Context, cik string, field financials.Field, r financials.Row, value float64, filing int, asOf time.Time) (financials.Fact, bool, error) {
	c, err := a.fin.CompanyByCIK(ctx, cik)
	if err != nil {
		return financials.Fact{}, false, err
	}
	start := r.Start
	if field.Measure == financials.Stock {
		start = ""
	}
	var best financials.Fact
	found := false
	// Only the facts of the row's concepts and period can hold it: the
	// latest known of each is the same among them as among all the
	// company's facts, which it is cheaper not to sort.
	var candidates []financials.Fact
	for _, f := range c.Facts {
		if f.Start == start && f.End == r.End && slices.Contains(field.Concepts, f.Concept) && fromFiling(f, filing) {
			candidates = append(candidates, f)
		}
	}
	known := financials.KnownAt(candidates, asOf)
	for _, concept := range field.Concepts {
		for _, fact := range known {
			if fact.Concept == concept && fact.Start == start && fact.End == r.End && fact.Value == value && (!found || fact.Filed > best.Filed) {
				best, found = fact, true
			}
		}
		if found {
			return best, true, nil
		}
	}
	return best, false, nil
}
