package question

import (
	"regexp"
	"strings"
)

// synonymGroups are words a filing may say for what a question says:
// a passage covers a question's word when it holds the word or one of its
// group's.
var synonymGroups = [][]string{
	{"grow", "growth", "grew", "increase", "increased", "rise", "rose", "up"},
	{"decline", "decrease", "decreased", "fall", "fell", "down", "drop"},
	{"revenue", "revenues", "sales"},
	{"customers", "clients"},
	{"us", "usa", "united states", "america"},
	{"headquarters", "headquartered", "head office", "located"},
	{"founded", "established"},
	{"employees", "headcount", "workforce", "personnel"},
	{"share", "percent", "percentage", "%"},
	{"stock", "shares", "common"},
	{"exchange", "market"},
	{"launch", "launched", "introduce", "introduced", "announce", "announced"},
	{"risk", "risks", "adversely"},
	{"pray", "prayer", "prayers", "seeks", "sought"},
	{"withdrawn", "withdraw", "withdrawal"},
	{"settled", "settlement", "consent"},
}

// SynonymGroups returns the synonym groups, each a list of words.
func SynonymGroups() [][]string {
	out := make([][]string, len(synonymGroups))
	for i, g := range synonymGroups {
		out[i] = append([]string(nil), g...)
	}
	return out
}

// caseNumber reads a case number: a kind of case ("writ petition", "WP",
// "W.P.(C)", "civil appeal", "SLP"), then a number and a year ("No. 1620
// of 2015", "6938/2024").
var caseNumber = regexp.MustCompile(`\b(?:writ petition|w\.? ?p\.?|civil appeal|c\.a\.|special leave petition|slp|petition|appeal|suit)\s*(?:\((?:l|c|civil)\)\s*)?(?:nos?\.?\s*)?(\d{1,6})\s*(?:of|/)\s*(\d{4})\b`)

// CaseNumber returns the number and year of the case a question names,
// and false when it names none.
func CaseNumber(q string) (number, year string, ok bool) {
	m := caseNumber.FindStringSubmatch(Normalize(q))
	if m == nil {
		return "", "", false
	}
	return strings.TrimLeft(m[1], "0"), m[2], true
}

// WithoutCaseNumber returns q normalised with the case number it names
// left out, so that none of its words ("No.", "W.P.(C)") is a word the
// question asks about.
func WithoutCaseNumber(q string) string {
	return caseNumber.ReplaceAllString(Normalize(q), " ")
}

// NamesCase reports whether a case number as a court writes it ("WRIT
// PETITION NO.1620 OF 2015", "W.P.(C) 6938/2024") holds number and year.
func NamesCase(caseNumber, number, year string) bool {
	runs := digitRuns.FindAllString(caseNumber, -1)
	for i := 0; i+1 < len(runs); i++ {
		if strings.TrimLeft(runs[i], "0") == number && runs[i+1] == year {
			return true
		}
	}
	return false
}

var digitRuns = regexp.MustCompile(`\d+`)

// outcome is how an order says a case ended.
var outcome = regexp.MustCompile(`(?i)\b(?:disposed of|dismissed|allowed|withdrawn|quashed|set aside|rejected|settled|stands disposed)\b`)

// SaysOutcome reports whether a sentence says how a case ended.
func SaysOutcome(sentence string) bool {
	return outcome.MatchString(sentence)
}
