package ask

import (
	"context"
	"fmt"
	"github.com/quarrydata/quarry/app/usfinancials"
	"strconv"
	"time"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/question"
)

// Derived figures and comparisons answer with every operand's own cited
// sentence, then one sentence that shows the arithmetic and carries the
// markers of every operand it uses; every number in it is an operand or
// the stated result (ArithmeticResults).

// margin answers a margin: the numerator field over revenue, both of one
// period.
func (a *Service) margin(ctx context.Context, co usfinancials.Params, f question.Figure, asOf time.Time) ([]sentence, error) {
	if len(f.Periods) != 1 {
		return nil, nil
	}
	num, err := a.lookup(ctx, co, f.Field, f.Periods[0], asOf)
	if err != nil || num == nil {
		return nil, err
	}
	// The revenue of the very period the numerator was read from.
	den, err := a.lookup(ctx, co, "revenue", question.Period{Kind: question.EndDate, End: num.row.End, Span: spanOfKind(num.period)}, asOf)
	if err != nil || den == nil || den.value == 0 || den.row.Start != num.row.Start {
		return nil, err
	}
	name := map[string]string{"gross_profit": "gross margin", "operating_income": "operating margin", "net_income": "net margin"}[f.Field]
	text := fmt.Sprintf("%s %s for %s is %s / %s = %s / %s = %s.", num.st.Ticker, name, periodName(num), num.field.Name, den.field.Name,
		number(num.value), number(den.value), percent(100*num.value/den.value, false))
	return arithmetic(text, num, den), nil
}

// freeCashFlow answers operating cash flow less capital expenditure, when
// both are filed for the period.
func (a *Service) freeCashFlow(ctx context.Context, co usfinancials.Params, f question.Figure, asOf time.Time) ([]sentence, error) {
	if len(f.Periods) != 1 {
		return nil, nil
	}
	ocf, err := a.lookup(ctx, co, "operating_cash_flow", f.Periods[0], asOf)
	if err != nil || ocf == nil {
		return nil, err
	}
	capex, err := a.lookup(ctx, co, "capital_expenditure", question.Period{Kind: question.EndDate, End: ocf.row.End, Span: spanOfKind(ocf.period)}, asOf)
	if err != nil || capex == nil || capex.row.Start != ocf.row.Start {
		return nil, err
	}
	text := fmt.Sprintf("%s free cash flow for %s is operating_cash_flow - capital_expenditure = %s - %s = %s %s.", ocf.st.Ticker, periodName(ocf),
		number(ocf.value), number(capex.value), subtracted(number(ocf.value), number(capex.value)), ocf.row.Currency)
	return arithmetic(text, ocf, capex), nil
}

// growth answers the change of a field from the fiscal year before the
// one named (or from the earlier of two named) to it.
func (a *Service) growth(ctx context.Context, co usfinancials.Params, f question.Figure, asOf time.Time) ([]sentence, error) {
	later, err := a.lookup(ctx, co, f.Field, f.Periods[len(f.Periods)-1], asOf)
	if err != nil || later == nil || later.period != financials.Annual {
		return nil, err
	}
	before := question.Period{Kind: question.FiscalYear, Year: later.row.FiscalYear - 1}
	if len(f.Periods) == 2 {
		before = f.Periods[0]
	}
	earlier, err := a.lookup(ctx, co, f.Field, before, asOf)
	if err != nil || earlier == nil || earlier.period != financials.Annual || earlier.value == 0 || earlier.row.End >= later.row.End {
		return nil, err
	}
	text := fmt.Sprintf("%s %s changed from %s to %s by (%s - %s) / %s = %s.", later.st.Ticker, later.field.Name, periodName(earlier), periodName(later),
		number(later.value), number(earlier.value), number(earlier.value), percent(100*(later.value-earlier.value)/abs(earlier.value), true))
	return arithmetic(text, earlier, later), nil
}

// compare answers which of two companies (in one period) or of two
// periods (of one company) has the larger figure.
func (a *Service) compare(ctx context.Context, cos []usfinancials.Params, f question.Figure, asOf time.Time) ([]sentence, error) {
	var refs []*figureRef
	switch {
	case len(cos) == 2 && len(f.Periods) == 1:
		for _, co := range cos {
			ref, err := a.lookup(ctx, co, f.Field, f.Periods[0], asOf)
			if err != nil || ref == nil {
				return nil, err
			}
			refs = append(refs, ref)
		}
		if refs[0].st.CIK == refs[1].st.CIK {
			return nil, nil
		}
	case len(cos) == 1 && len(f.Periods) == 2:
		for _, per := range f.Periods {
			ref, err := a.lookup(ctx, cos[0], f.Field, per, asOf)
			if err != nil || ref == nil {
				return nil, err
			}
			refs = append(refs, ref)
		}
		if refs[0].row.End == refs[1].row.End {
			return nil, nil
		}
	default:
		return nil, nil
	}
	big, small := refs[0], refs[1]
	if small.value > big.value {
		big, small = small, big
	}
	unit := big.row.Currency
	if big.field.Measure == financials.PerShare {
		unit += " per share"
	}
	var text string
	switch {
	case big.value == small.value:
		text = fmt.Sprintf("%s %s for %s and %s %s for %s are the same, %s %s.", refs[0].st.Ticker, big.field.Name, periodName(refs[0]), refs[1].st.Ticker, big.field.Name, periodName(refs[1]), number(big.value), unit)
	case len(cos) == 2:
		text = fmt.Sprintf("%s had the larger %s for %s: %s %s against %s's %s %s, %s.", big.st.Ticker, big.field.Name, periodName(big), number(big.value), unit, small.st.Ticker, number(small.value), unit, difference(big, small, unit))
	default:
		text = fmt.Sprintf("%s %s was larger in %s: %s %s against %s %s in %s, %s.", big.st.Ticker, big.field.Name, periodName(big), number(big.value), unit, number(small.value), unit, periodName(small), difference(big, small, unit))
	}
	return arithmetic(text, refs[0], refs[1]), nil
}

// difference states how much the larger figure exceeds the smaller, with
// its arithmetic shown, so "how much more" is answered with the comparison.
func difference(big, small *figureRef, unit string) string {
	return fmt.Sprintf("a difference of larger - smaller = %s - %s = %s %s", number(big.value), number(small.value), subtracted(number(big.value), number(small.value)), unit)
}

// arithmetic is the operands' sentences, then text citing them all.
func arithmetic(text string, operands ...*figureRef) []sentence {
	if _, ok := ArithmeticResults(text); !ok {
		return nil
	}
	out := make([]sentence, 0, len(operands)+1)
	var cites []Citation
	for _, o := range operands {
		out = append(out, o.said)
		cites = append(cites, o.said.cite)
	}
	return append(out, sentence{text: text, cite: cites[0], more: cites[1:]})
}

// periodName names a figure's period as its sentence does.
func periodName(r *figureRef) string {
	switch r.period {
	case financials.Quarterly:
		return fmt.Sprintf("%s of fiscal year %d", r.row.FiscalPeriod, r.row.FiscalYear)
	case financials.TTM:
		return "the trailing twelve months to " + r.row.End
	}
	return fmt.Sprintf("fiscal year %d", r.row.FiscalYear)
}

// spanOfKind is the span of a statement period.
func spanOfKind(p financials.Period) question.Span {
	if p == financials.Quarterly {
		return question.ThreeMonths
	}
	return question.Year
}

// number writes a figure as its citation's fields do.
func number(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// percent writes a ratio in percent to two decimals, signed when asked.
func percent(v float64, signed bool) string {
	s := strconv.FormatFloat(v, 'f', 2, 64) + "%"
	if signed && v >= 0 {
		s = "+" + s
	}
	return s
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
