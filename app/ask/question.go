package ask

import (
	"fmt"
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

// financialQuestion is what a figure's sentence is rendered for: the
// field and the kind of period its row is of.
type financialQuestion struct {
	field  financials.Field
	period financials.Period
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
// words, and stems each (stem).
func contentStems(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range wordsOf(text) {
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

// wordsOf is text's words, lower-cased: its runs of letters and digits.
func wordsOf(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// compoundModifiers maps the stems a sentence holds only as the first word
// of a capitalised compound ("Audit" of "Audit Committee") to the stems of
// the words they modify there.
func compoundModifiers(said string) map[string][]string {
	fields := strings.Fields(said)
	out := map[string][]string{}
	free := map[string]bool{}
	for i, f := range fields {
		w := strings.TrimRight(f, ",;:.!?)”\"'")
		if w != f || i+1 == len(fields) || !titleCase(w) || !titleCase(strings.Trim(fields[i+1], ",;:.!?()“”\"'")) {
			for _, x := range wordsOf(f) {
				free[stem(x)] = true
			}
			continue
		}
		for _, x := range wordsOf(w) {
			st := stem(x)
			for _, h := range wordsOf(fields[i+1]) {
				out[st] = append(out[st], stem(h))
			}
		}
	}
	for st := range out {
		if free[st] {
			delete(out, st)
		}
	}
	return out
}

// titleCase reports whether w is a capitalised word with a lower-case
// letter after its first: a name's word, not an acronym or a heading's.
func titleCase(w string) bool {
	rs := []rune(w)
	return len(rs) > 1 && unicode.IsUpper(rs[0]) && strings.IndexFunc(string(rs[1:]), unicode.IsLower) >= 0
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
