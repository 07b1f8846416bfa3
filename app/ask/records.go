package ask

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/quarrydata/quarry/app/usfinancials"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/question"
	"github.com/quarrydata/quarry/ports"
)

// listing answers a listing question about subject (question.ListingSubject:
// normalized), from the one listing it names, listed by asOf: a code in any
// vendor form, a bare six-digit code when one listing has it, an exact
// Chinese short name (in the form the exchange writes it or its NFKC
// form), or an English name the exchange lists (question.EnglishListings).
func (a *Service) listing(ctx context.Context, subject string, asOf time.Time) ([]sentence, error) {
	var codes []string
	if code, err := ashare.ParseAlias(subject); err == nil {
		codes = []string{code.String()}
	} else if errors.Is(err, ashare.ErrBareCode) {
		codes = ashare.Candidates(subject)
	} else if !hasHan(subject) {
		codes = question.EnglishListings(subject)
	}
	var found []ashare.Security
	for _, c := range codes {
		code, err := ashare.ParseCode(c)
		if err != nil {
			continue
		}
		sec, err := a.china.Security(ctx, code)
		if err != nil && !errors.Is(err, ports.ErrNotFound) {
			return nil, err
		}
		if err == nil {
			found = append(found, sec)
		}
	}
	if hasHan(subject) {
		for _, name := range nameForms(subject) {
			secs, err := a.china.SecuritiesByName(ctx, name)
			if err != nil {
				return nil, err
			}
			if len(secs) > 0 {
				found = secs
				break
			}
		}
	}
	// One listing only: a name two listings share does not say which.
	if len(found) != 1 || found[0].ListingDate > asOf.Format(time.DateOnly) {
		return nil, nil
	}
	return []sentence{renderListing(found[0])}, nil
}

// nameForms are the forms a Chinese short name may be stored in, given
// its normalized form: as it is, with its Latin letters upper case, and
// with them full-width (万科Ａ).
func nameForms(name string) []string {
	upper := strings.ToUpper(name)
	wide := strings.Map(func(r rune) rune {
		if r >= '!' && r <= '~' {
			return r + 0xFEE0
		}
		return r
	}, upper)
	return slices.Compact([]string{name, upper, wide})
}

// renderListing writes a listing's sentence and its citation, every number
// of the sentence a number of the cited listing's fields.
func renderListing(s ashare.Security) sentence {
	fields := map[string]string{"code": s.Code, "company_name": s.CompanyName, "exchange": s.Exchange, "board": s.Board, "listing_date": s.ListingDate}
	text := fmt.Sprintf("%s (%s) was listed on the %s on %s.", s.CompanyName, s.Code, s.Exchange, s.ListingDate)
	if s.DelistingDate != "" {
		fields["delisting_date"] = s.DelistingDate
		text = fmt.Sprintf("%s (%s) was listed on the %s on %s and delisted on %s.", s.CompanyName, s.Code, s.Exchange, s.ListingDate, s.DelistingDate)
	}
	return sentence{text: text, cite: Citation{
		Dataset: dataset.ChinaSecurities, DocumentID: s.Code, Title: s.CompanyName + " (" + s.Code + ")",
		Snippet: recordSnippet(fields), Fields: fields, Route: "GET /china/securities/" + s.Code,
	}}
}

// hasHan reports whether s holds a Han character, as a Chinese name does.
func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// renderFigure writes the figure's sentence and its citation, every
// number of the sentence a number of the cited row's fields.
func renderFigure(fq financialQuestion, st usfinancials.Statements, r financials.Row, asOf time.Time) sentence {
	value := strconv.FormatFloat(r.Values[fq.field.Name], 'f', -1, 64)
	unit := r.Currency
	if fq.field.Measure == financials.PerShare {
		unit += " per share"
	}
	fields := map[string]string{
		"ticker": st.Ticker, "cik": st.CIK, "field": fq.field.Name, "fiscal_year": strconv.Itoa(r.FiscalYear),
		"fiscal_period": r.FiscalPeriod, "period_start": r.Start, "period_end": r.End, "value": value,
		"currency": r.Currency, "accession_number": r.Accession, "filed": r.Filed,
	}
	span := fmt.Sprintf("(%s to %s)", r.Start, r.End)
	if fq.field.Measure == financials.Stock {
		span = "(at " + r.End + ")"
		delete(fields, "period_start")
	}
	var text, title string
	switch fq.period {
	case financials.Quarterly:
		title = fmt.Sprintf("%s %s, %s of fiscal year %d", st.Ticker, fq.field.Statement, r.FiscalPeriod, r.FiscalYear)
		text = fmt.Sprintf("%s %s for %s of fiscal year %d %s was %s %s, as filed on %s in %s.",
			st.Ticker, fq.field.Name, r.FiscalPeriod, r.FiscalYear, span, value, unit, r.Filed, r.Accession)
	case financials.TTM:
		title = fmt.Sprintf("%s %s, trailing twelve months to %s", st.Ticker, fq.field.Statement, r.End)
		text = fmt.Sprintf("%s %s for the trailing twelve months %s was %s %s, computed from the filings known then, the latest filed on %s in %s.",
			st.Ticker, fq.field.Name, span, value, unit, r.Filed, r.Accession)
	default:
		delete(fields, "fiscal_period")
		title = fmt.Sprintf("%s %s, fiscal year %d", st.Ticker, fq.field.Statement, r.FiscalYear)
		text = fmt.Sprintf("%s %s for fiscal year %d %s was %s %s, as filed on %s in %s.",
			st.Ticker, fq.field.Name, r.FiscalYear, span, value, unit, r.Filed, r.Accession)
	}
	route := fmt.Sprintf("GET /us/financials/%s?ticker=%s&period=%s&as_of=%s",
		strings.ReplaceAll(string(fq.field.Statement), "_", "-"), st.Ticker, fq.period, asOf.Format(time.RFC3339))
	return sentence{text: text, cite: Citation{
		Dataset: dataset.USFinancials, DocumentID: r.Accession + ":" + r.End,
		Title: title, Snippet: recordSnippet(fields), Fields: fields, Route: route,
	}}
}

// company resolves the company a question names: digits are a CIK; a word
// that is a held ticker is that ticker; anything else is a name, resolved
// when exactly one held company has it (financials.NameMatches: "Apple"
// names Apple Inc.). A name two companies share resolves to nothing rather
// than to a guess; so does a name no company has.
func (a *Service) company(ctx context.Context, named string) (*usfinancials.Params, error) {
	if strings.Trim(named, "0123456789") == "" {
		return &usfinancials.Params{CIK: named}, nil
	}
	ticker := strings.ToUpper(named)
	_, err := a.fin.CIKForTicker(ctx, ticker)
	switch {
	case err == nil:
		return &usfinancials.Params{Ticker: ticker}, nil
	case !errors.Is(err, ports.ErrNotFound):
		return nil, err
	}
	ciks, err := a.fin.CIKsForName(ctx, named)
	if bare := question.BareName(named); err == nil && len(ciks) == 0 && bare != named && bare != "" {
		// "Microsoft Corp" names MICROSOFT CORPORATION as "Microsoft" does.
		ciks, err = a.fin.CIKsForName(ctx, bare)
	}
	if err != nil || len(ciks) != 1 {
		return nil, err
	}
	return &usfinancials.Params{CIK: ciks[0]}, nil
}

// recordSnippet shows a record's fields in a fixed order.
func recordSnippet(fields map[string]string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + fields[k]
	}
	return strings.Join(parts, "; ")
}
