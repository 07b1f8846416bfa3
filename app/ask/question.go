package ask

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/financials"
)

// AskRequest is an Ask body as the client sent it.
type Request struct {
	Question      string
	Jurisdictions []string
	Datasets      []string
	AsOf          string
	MaxCitations  *int
}

// AskQuery is a validated AskRequest.
type Query struct {
	Question      string
	Jurisdictions []string
	Datasets      []dataset.ID
	AsOf          time.Time
	MaxCitations  int
}

// Bounds of an Ask request.
const (
	maxQuestionChars   = 2000
	maxCitationsLimit  = 20
	defaultMaxCitation = 5
)

// ParseAsk validates an Ask request against now: a malformed value is
// ErrValidation (422); a dataset outside the jurisdictions given is
// ErrInvalidRequest (400).
func Parse(r Request, now time.Time) (Query, error) {
	q := Query{Question: strings.TrimSpace(r.Question), MaxCitations: defaultMaxCitation}
	if n := utf8.RuneCountInString(r.Question); q.Question == "" || n > maxQuestionChars {
		return q, fmt.Errorf("%w: question must hold 1 to %d characters, not only spaces", usecase.ErrValidation, maxQuestionChars)
	}
	for _, j := range r.Jurisdictions {
		if !slices.Contains([]string{"US", "CN", "IN"}, j) {
			return q, fmt.Errorf("%w: jurisdiction %q is not one of US, CN, IN", usecase.ErrValidation, j)
		}
		q.Jurisdictions = append(q.Jurisdictions, j)
	}
	for _, raw := range r.Datasets {
		d, ok := dataset.Lookup(dataset.ID(raw))
		if !ok || d.ID == dataset.AskRetrieval {
			return q, fmt.Errorf("%w: datasets: %q is not a dataset of the catalog", usecase.ErrValidation, raw)
		}
		if len(q.Jurisdictions) > 0 && !slices.Contains(q.Jurisdictions, d.Jurisdiction) {
			return q, fmt.Errorf("%w: dataset %s is in jurisdiction %s, which jurisdictions leaves out", usecase.ErrInvalidRequest, d.ID, d.Jurisdiction)
		}
		q.Datasets = append(q.Datasets, d.ID)
	}
	if r.MaxCitations != nil {
		if *r.MaxCitations < 1 || *r.MaxCitations > maxCitationsLimit {
			return q, fmt.Errorf("%w: max_citations must be an integer from 1 to %d", usecase.ErrValidation, maxCitationsLimit)
		}
		q.MaxCitations = *r.MaxCitations
	}
	var err error
	q.AsOf, err = usecase.ParseAsOf(r.AsOf, now)
	return q, err
}

// Listing questions: "When was 贵州茅台 listed?", "贵州茅台什么时候上市?",
// "When was 600519.SH listed?". The subject is a code or the exchange's
// short name; the listings hold no English names (spec-gaps B23), so an
// English name finds nothing.
var listingQuestions = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^when (?:was|did) (.+?) (?:first )?(?:get )?list(?:ed)?\s*[?？]?$`),
	regexp.MustCompile(`(?i)^what (?:is|was) the listing date of (.+?)\s*[?？]?$`),
	regexp.MustCompile(`^(.+?)(?:是)?(?:什么时候|何时|哪天|哪一天|哪年)上市(?:的)?\s*[?？]?$`),
	regexp.MustCompile(`^(.+?)的上市日期(?:是)?(?:什么|哪天)?\s*[?？]?$`),
}

// parseListingQuestion returns the subject of a listing question, or "".
func parseListingQuestion(q string) string {
	for _, re := range listingQuestions {
		if m := re.FindStringSubmatch(q); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

// financialQuestion is "What was AAPL's revenue in fiscal 2023?", "…in
// Q2 fiscal 2024?" or "What was Apple's trailing twelve months revenue?".
type financialQuestion struct {
	company string
	field   financials.Field
	period  financials.Period
	// year and quarter ("Q1".."Q4") select the row of an annual or a
	// quarterly question; a ttm question takes the latest row known.
	year    int
	quarter string
}

// The three forms of a financial question; each captures the subject
// ("Apple's revenue") and what selects the row.
var (
	annualQuestionRE  = regexp.MustCompile(`(?i)^what (?:was|were) (?:the )?(.+) (?:in|for) (?:fiscal year|fiscal|fy) ?(\d{4})\s*\??$`)
	quarterQuestionRE = regexp.MustCompile(`(?i)^what (?:was|were) (?:the )?(.+) (?:in|for) (?:the )?(?:q([1-4])|(first|second|third|fourth) (?:fiscal )?quarter)(?: of)? (?:fiscal year|fiscal|fy) ?(\d{4})\s*\??$`)
	ttmQuestionRE     = regexp.MustCompile(`(?i)^what (?:was|were|is) (?:the )?(.+?)\s*\??$`)
	// ttmPhrase marks a question about the trailing twelve months.
	ttmPhrase = regexp.MustCompile(`(?i)\s*(?:\b(?:over|for|in) the )?(?:\bttm\b|\btrailing (?:twelve|12)[- ]months?\b|\blast (?:twelve|12) months\b)`)
)

// quarterWords are the ordinal names of fiscal quarters.
var quarterWords = map[string]string{"first": "Q1", "second": "Q2", "third": "Q3", "fourth": "Q4"}

// metricNames are the phrases naming the concept map's fields.
var metricNames = map[string]string{
	"revenue": "revenue", "revenues": "revenue", "total revenue": "revenue", "net sales": "revenue",
	"cost of revenue": "cost_of_revenue", "gross profit": "gross_profit", "gross margin": "gross_profit",
	"operating income": "operating_income", "net income": "net_income",
	"basic eps": "earnings_per_share_basic", "basic earnings per share": "earnings_per_share_basic",
	"diluted eps": "earnings_per_share_diluted", "diluted earnings per share": "earnings_per_share_diluted", "eps": "earnings_per_share_diluted",
	"total assets": "assets", "assets": "assets", "current assets": "current_assets",
	"cash and cash equivalents": "cash_and_equivalents", "cash": "cash_and_equivalents", "inventory": "inventory",
	"total liabilities": "liabilities", "liabilities": "liabilities", "current liabilities": "current_liabilities",
	"long-term debt": "long_term_debt", "long term debt": "long_term_debt",
	"shareholders' equity": "shareholders_equity", "shareholders equity": "shareholders_equity", "stockholders' equity": "shareholders_equity",
	"operating cash flow": "operating_cash_flow", "cash from operations": "operating_cash_flow",
	"investing cash flow": "investing_cash_flow", "financing cash flow": "financing_cash_flow",
	"capital expenditure": "capital_expenditure", "capital expenditures": "capital_expenditure", "capex": "capital_expenditure",
	"dividends paid": "dividends_paid",
}

// parseFinancialQuestion reads a figure question, or returns nil when q
// is none.
func parseFinancialQuestion(q string) *financialQuestion {
	var fq financialQuestion
	var subject string
	if m := quarterQuestionRE.FindStringSubmatch(q); m != nil {
		subject, fq.period, fq.quarter = m[1], financials.Quarterly, "Q"+m[2]
		if m[2] == "" {
			fq.quarter = quarterWords[strings.ToLower(m[3])]
		}
		fq.year, _ = strconv.Atoi(m[4])
	} else if m := annualQuestionRE.FindStringSubmatch(q); m != nil {
		subject, fq.period = m[1], financials.Annual
		fq.year, _ = strconv.Atoi(m[2])
	} else if m := ttmQuestionRE.FindStringSubmatch(q); m != nil && ttmPhrase.MatchString(m[1]) {
		subject, fq.period = strings.TrimSpace(ttmPhrase.ReplaceAllString(m[1], "")), financials.TTM
	} else {
		return nil
	}
	company, name := splitMetric(subject)
	if company == "" {
		return nil
	}
	for _, f := range financials.Fields {
		// A balance is held at a moment, not over twelve months: a ttm
		// question about one has no answer to give.
		if f.Name == name && (fq.period != financials.TTM || f.Measure != financials.Stock) {
			fq.company, fq.field = company, f
			return &fq
		}
	}
	return nil
}

// splitMetric splits "Apple Inc.'s net income" into the company and the
// field the longest metric phrase ending it names; a possessive ending the
// company is dropped.
func splitMetric(subject string) (company, field string) {
	words := strings.Fields(subject)
	for i := 1; i < len(words); i++ {
		name, ok := metricNames[strings.ToLower(strings.Join(words[i:], " "))]
		if !ok {
			continue
		}
		company = strings.Join(words[:i], " ")
		for _, suffix := range []string{"'s", "’s", "'"} {
			company = strings.TrimSuffix(company, suffix)
		}
		return company, name
	}
	return "", ""
}

// selects reports whether a row is the one the question asks for: its
// fiscal year (and quarter), or for ttm the newest row, rows coming newest
// first.
func (fq financialQuestion) selects(r financials.Row) bool {
	switch fq.period {
	case financials.Quarterly:
		return r.FiscalYear == fq.year && r.FiscalPeriod == fq.quarter
	case financials.TTM:
		return true
	default:
		return r.FiscalYear == fq.year
	}
}

// stopWords are left out of the words a sentence must share with a
// question.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by did do does for from has have how in is it its of on or
		our the their this to was were what when where which who why will with about company company's say says said
		describe describes tell me list`) {
		stopWords[w] = true
	}
}

// contentStems lowers a text's words, drops stop words and one-letter
// words, and cuts each to its first five letters, a crude stem that makes
// "risks" meet "risk" and "competition" meet "competitive".
func contentStems(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stopWords[w] || utf8.RuneCountInString(w) < 2 {
			continue
		}
		w = stem(w)
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// isNumber reports whether a content word is a number, such as a year.
func isNumber(w string) bool {
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

// matched counts the words of want that have holds.
func matched(want, have []string) int {
	n := 0
	for _, w := range want {
		if slices.Contains(have, w) {
			n++
		}
	}
	return n
}
