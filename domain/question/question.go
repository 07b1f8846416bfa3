// Package question reads the questions Ask answers from records: figure
// questions about a US filer's statements ("AAPL FY24 net income", "What
// was Apple's gross margin in fiscal 2023?", "Compare Apple and Microsoft
// revenue for fiscal 2024") and listing questions about a China A-share
// ("When did Kweichow Moutai go public?"). It is pure: it names what a
// question asks for, and Ask looks it up. docs/ask.md is the grammar as a
// user reads it.
package question

import (
	"regexp"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Normalize reads a question the way the grammar does: NFKC (full-width
// letters and digits become ASCII), lower case, curly quotes straight,
// runs of spaces one space, ends trimmed.
func Normalize(s string) string {
	s = strings.ToLower(norm.NFKC.String(s))
	s = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`).Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// NormalizeWidth reads a question's characters as Normalize does (NFKC:
// full-width letters and digits become ASCII) and keeps their case.
func NormalizeWidth(s string) string {
	return norm.NFKC.String(s)
}

// PeriodKind says how a question names a period.
type PeriodKind int

// The ways a question names a period.
const (
	// Latest: no period, or "latest", "most recent": the newest fiscal
	// year known.
	Latest PeriodKind = iota
	// FiscalYear: "fiscal 2024", "FY24", "FY 2024".
	FiscalYear
	// CalendarYear: a year without "fiscal" ("in 2024"): the fiscal year
	// that ends in it.
	CalendarYear
	// Quarter: "Q1 FY25", "the second quarter of fiscal 2023".
	Quarter
	// EndDate: a period named by the day it ends ("the year ended
	// September 28, 2024", "as of June 30, 2024").
	EndDate
	// EndMonth: a period named by the month it ends ("the fiscal year
	// ending September 2023").
	EndMonth
	// TTM: the trailing twelve months.
	TTM
	// YearToDate: the first Months (6 or 9; 0 the longest filed) of
	// fiscal year Year ("the first nine months of fiscal 2023", "first
	// half of FY23", "fiscal 2023 year to date").
	YearToDate
	// CalendarTerm: calendar quarter Quarter of Year, or (Quarter 0) the
	// calendar year: the fiscal quarter or year that ends within two
	// weeks of its last day ("calendar Q2 2024", "calendar 2023").
	CalendarTerm
)

// Span is the length of the period a date names.
type Span int

// The spans of a period named by its end.
const (
	// Year: a fiscal year ("the year ended …").
	Year Span = iota
	// ThreeMonths: a fiscal quarter ("the quarter ended …").
	ThreeMonths
	// Instant: a balance at a day ("as of …"): the fiscal year or quarter
	// that ends on it.
	Instant
	// SixMonths and NineMonths: a fiscal year's first half or first nine
	// months ("the nine months ended July 1, 2023").
	SixMonths
	NineMonths
)

// Period is the period a question names.
type Period struct {
	Kind PeriodKind
	// Year is the fiscal (or calendar) year; Quarter 1 to 4.
	Year, Quarter int
	// End is YYYY-MM-DD for EndDate, YYYY-MM for EndMonth.
	End  string
	Span Span
	// Months is the length of a YearToDate period, 0 the longest filed.
	Months int
	// Filing, when set, is the fiscal year of the 10-K the figure must be
	// read from ("according to the FY2024 10-K").
	Filing int
}

// Derived is a figure computed from stored figures.
type Derived int

// The derived figures.
const (
	// Stored: no arithmetic, the stored figure.
	Stored Derived = iota
	// Margin: Field divided by revenue of the same period.
	Margin
	// Growth: Field of the period against the fiscal year before it (or
	// the earlier of two periods named).
	Growth
	// FreeCashFlow: operating cash flow less capital expenditure.
	FreeCashFlow
)

// Figure is a figure question: the companies as written, the statement
// field, the arithmetic, the periods, and whether it compares.
type Figure struct {
	Companies []string
	Field     string
	Derived   Derived
	Periods   []Period
	// Compare asks which of two companies, or of two periods, has the
	// larger figure.
	Compare bool
	// Metric is the phrase that named the field, as read.
	Metric string
	// AsOf, YYYY-MM-DD when set, is the day the question asks the figure
	// as known at ("As of March 1, 2024, what was …", "in the 10-K filed
	// on …"): the answer reads what was filed by its end.
	AsOf string
}

// textIntent marks a question about what a filing says, not a figure:
// it is answered from the 10-K text.
var textIntent = regexp.MustCompile(`\b(?:according to|md&a|management's discussion|what does .+ say|does .+ say|10-k say|describe|explain|why)\b`)

// ParseFigure reads a figure question; false when q is none. A question
// naming a metric and a company but no period asks for the latest.
func ParseFigure(q string) (Figure, bool) {
	s := " " + strings.TrimRight(Normalize(q), " ?.!。？") + " "
	var f Figure
	var filing int
	s, f.AsOf, filing = asked(s)
	if textIntent.MatchString(s) {
		return Figure{}, false
	}
	s = cikRE.ReplaceAllString(s, " $1 ")
	s = cashGeneratedRE.ReplaceAllString(s, " $1 operating cash flow ")
	s, f.Periods = periods(s)
	if filing != 0 {
		f.Periods = fromFiling(f.Periods, filing)
	}
	s, f.Derived, f.Field = derived(s)
	if f.Field == "" {
		var ok bool
		if s, f.Field, f.Metric, ok = metric(s); !ok && !earnRE.MatchString(s) {
			return Figure{}, false
		} else if !ok {
			// "How much did Apple earn": what it earned is its net income.
			s, f.Field, f.Metric = earnRE.ReplaceAllString(s, " "), "net_income", "earn"
		}
	}
	s, f.Compare = compare(s)
	if f.Derived == Growth && len(f.Periods) == 2 {
		// "from fiscal 2022 to fiscal 2023": the later against the earlier.
		f.Compare = false
	}
	// "NVIDIA's revenue according to NVIDIA's 10-K" names one company.
	f.Companies = slices.Compact(companies(s))
	if len(f.Companies) == 0 || len(f.Companies) > 2 || len(f.Periods) > 2 {
		return Figure{}, false
	}
	if len(f.Companies) == 2 || len(f.Periods) == 2 && f.Derived != Growth {
		f.Compare = true
	}
	if f.Compare && len(f.Companies)+len(f.Periods) < 3 && !(len(f.Companies) == 2 && len(f.Periods) <= 1) {
		return Figure{}, false
	}
	if len(f.Periods) == 0 {
		f.Periods = []Period{{Kind: Latest}}
	}
	return f, true
}

// cikRE is a filer named by its CIK ("CIK 320193", "cik0000320193"): the
// number names it as a bare CIK does, its zero padding left off.
var cikRE = regexp.MustCompile(`\bcik[ #:]*0*(\d{1,10})\b`)

// cashGeneratedRE is operating cash flow asked with the company inside
// it ("how much cash did Apple generate from operations").
var cashGeneratedRE = regexp.MustCompile(`\bcash (?:did|does|has|have) (.+?) generated? (?:from|by|in) (?:its |their )?(?:operations|operating activities)\b`)

// earnRE asks what a company earned, naming no metric.
var earnRE = regexp.MustCompile(`\b(?:earn|earned|earns)\b`)

// compareWords mark a comparison; they are no part of a company's name.
var compareWords = regexp.MustCompile(`\b(?:which (?:was|were|is|had) (?:larger|higher|bigger|greater|more)|which (?:was|is) (?:larger|higher|bigger|greater)|who had (?:more|higher|larger)|compare[ds]?|comparison of|versus|vs\.?|higher|larger|bigger|greater|more)\b`)

// compare removes the words of a comparison and reports whether any was
// there.
func compare(s string) (string, bool) {
	found := compareWords.MatchString(s)
	return compareWords.ReplaceAllString(s, " , "), found
}

// fillerWords are the words around a company's name that name nothing.
var fillerWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`what whats what's was were is are be the a an how much many did does do report reported
		reports post posted make made earn earned have had has generate generated for in of give me tell show please
		can could you i need want find get calculate compute its their it as at on by end year-end yearend year ended
		ending from to with about over during total company company's corp's s figure figures number value amount
		which who whose will would than one two period fiscal fy quarter latest recent most last current newest reported?
		percentage percent change changed did between and or vs versus then there this that these those`) {
		fillerWords[w] = true
	}
}

// nameSplit splits the words left after the figure's own words into the
// companies named.
var nameSplit = regexp.MustCompile(`\s*(?:,|;|:|\band\b|\bor\b|\bvs\.?|\bversus\b|\bthan\b|\bto\b|\bfrom\b|\(|\))\s*`)

// companies returns the companies s names, as written, possessives and
// filler words cut off.
func companies(s string) []string {
	var out []string
	for _, part := range nameSplit.Split(s, -1) {
		var kept []string
		for _, w := range strings.Fields(part) {
			w = strings.Trim(w, `"-–—.?!`)
			for _, suffix := range []string{"'s", "'"} {
				w = strings.TrimSuffix(w, suffix)
			}
			w = strings.Trim(w, `"-–—.?!`)
			if w == "" || fillerWords[w] {
				continue
			}
			kept = append(kept, w)
		}
		if len(kept) > 0 && len(kept) <= 4 {
			out = append(out, strings.Join(kept, " "))
		} else if len(kept) > 4 {
			return nil
		}
	}
	return out
}
