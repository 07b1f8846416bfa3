package question

import (
	"regexp"
	"strings"
	"time"
)

// Price is what a price question asks of a listing's daily bars: the
// fields (open, high, low, close, volume) on the days it names, or, with
// Change, how the close moved: between two days, or on one day against
// the previous close.
type Price struct {
	Fields []string
	Days   []string
	Change bool
}

// The days a question names: "1 July 2025", "1st July 2025", "July 1,
// 2025", "2025-07-01", each a day that exists.
var (
	dayFirst = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?` + monthRE + `,? (\d{4})\b`)
	monthDay = regexp.MustCompile(`\b` + dayRE + `\b`)
	isoDay   = regexp.MustCompile(`\b` + isoRE + `\b`)
)

// Days returns the calendar days q names, YYYY-MM-DD, in the order they
// come in it; a day that does not exist (2025-02-30) is none.
func Days(q string) []string {
	s := Normalize(q)
	type found struct {
		at  int
		day string
	}
	var all []found
	add := func(re *regexp.Regexp, write func(m []string) string) {
		for _, ix := range re.FindAllStringSubmatchIndex(s, -1) {
			m := make([]string, len(ix)/2)
			for i := range m {
				if ix[2*i] >= 0 {
					m[i] = s[ix[2*i]:ix[2*i+1]]
				}
			}
			if d := write(m[1:]); validDay(d) {
				all = append(all, found{ix[0], d})
			}
			s = s[:ix[0]] + strings.Repeat(" ", ix[1]-ix[0]) + s[ix[1]:]
		}
	}
	add(dayFirst, func(m []string) string { return date([]string{m[1], m[0], m[2]}) })
	add(monthDay, func(m []string) string { return date(m) })
	add(isoDay, func(m []string) string { return date([]string{"", "", "", m[0], m[1], m[2]}) })
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && all[j].at < all[j-1].at; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	out := make([]string, len(all))
	for i, f := range all {
		out[i] = f.day
	}
	return out
}

func validDay(d string) bool {
	_, err := time.Parse(time.DateOnly, d)
	return err == nil
}

// priceFields are the words that name a bar's fields; "price" alone is
// the close.
var priceFields = []struct {
	field string
	re    *regexp.Regexp
}{
	{"open", regexp.MustCompile(`\b(?:open|opened|opening(?: price)?|open price)\b`)},
	{"high", regexp.MustCompile(`\b(?:high|highest|intraday high|high price)\b`)},
	{"low", regexp.MustCompile(`\b(?:low|lowest|intraday low|low price)\b`)},
	{"close", regexp.MustCompile(`\b(?:close|closed|closing(?: price)?|close price|last close|price|trade at|traded at|trading at)\b`)},
	{"volume", regexp.MustCompile(`\b(?:volume|shares (?:were )?traded|traded volume|trading volume)\b`)},
}

// priceChange is a question asking how the close moved.
var priceChange = regexp.MustCompile(`\b(?:change|changed|rise|rose|risen|fall|fell|fallen|gain|gained|lose|lost|drop|dropped|move|moved|difference|increase|increased|decrease|decreased|went up|go up|went down|go down)\b`)

// ParsePrice reads a price question: a bar field (or a change of the
// close) and one or two days. It names no listing: the caller finds it
// among the question's words. False when q is no price question.
func ParsePrice(q string) (Price, bool) {
	days := Days(q)
	if len(days) == 0 || len(days) > 2 {
		return Price{}, false
	}
	s := " " + Normalize(q) + " "
	p := Price{Days: days, Change: priceChange.MatchString(s)}
	for _, f := range priceFields {
		if f.re.MatchString(s) {
			p.Fields = append(p.Fields, f.field)
			// "opening price" names the open, not the close too.
			s = f.re.ReplaceAllString(s, " ")
		}
	}
	if p.Change && !contains(p.Fields, "volume") {
		p.Fields = []string{"close"}
	}
	if len(p.Fields) == 0 || len(days) == 2 && !p.Change {
		return Price{}, false
	}
	return p, true
}

// Holders is what a 13F question asks of a security's holders: the
// largest (Top), or the position of the fund it names (Fund).
type Holders struct {
	Top  bool
	Fund string
	// Period is the report period (a quarter's last day) the question
	// names by a day or a calendar quarter (Q4 2023); empty when none.
	Period string
}

var (
	holderWords = regexp.MustCompile(`\b(?:13f|holders?|shareholders?|holds?|held|holding|owns?|owned|owners?|stake|position|investors?)\b`)
	topHolder   = regexp.MustCompile(`\b(?:top|largest|biggest|main|major|leading|primary|principal)\b (?:(?:13f|institutional|fund|reported) )*(?:holders?|shareholders?|owners?|investors?|funds?|position)\b|\bwho (?:holds|held|owns|owned|has|had) the (?:most|largest|biggest)\b|\bwhich fund (?:holds|held|owns|owned|has|had) the (?:most|largest|biggest)\b`)
	// fundPosition reads the fund of "how many shares of AAPL did
	// Berkshire Hathaway hold", "how many AAPL shares does Berkshire
	// hold", "what was Berkshire Hathaway's position in AAPL".
	fundPosition = []*regexp.Regexp{
		regexp.MustCompile(`\bshares (?:of|in) \S+ (?:did|does|do|has|have|had) (.+?) (?:hold|own|report|held|owned|reported)\b`),
		regexp.MustCompile(`\b\S+ shares (?:did|does|do|has|have|had) (.+?) (?:hold|own|report|held|owned|reported)\b`),
		regexp.MustCompile(`\b(?:did|does|do) (.+?) (?:hold|own|report) (?:in|of) \S+\b`),
		regexp.MustCompile(`\b(?:what|how large|how big) (?:was|is) (.+?)'s? (?:position|stake|holding) (?:in|of)\b`),
		regexp.MustCompile(`\bshares (?:of|in) \S+ (?:held|owned|reported) by (.+?)(?: in| at| as of| for| on|\?|$)`),
		regexp.MustCompile(`\b(?:in|from|per) (.+?)'s? 13f\b`),
	}
	calendarQuarter = regexp.MustCompile(`\bq([1-4]) ?((?:19|20)\d{2})\b`)
)

// ParseHolders reads a 13F question; false when q is none. It names no
// security: the caller finds it among the question's words.
func ParseHolders(q string) (Holders, bool) {
	s := strings.TrimRight(Normalize(q), " ?.!")
	if !holderWords.MatchString(s) {
		return Holders{}, false
	}
	if topHolder.MatchString(s) {
		return Holders{Top: true}, true
	}
	h := Holders{}
	if days := Days(s); len(days) == 1 {
		h.Period = days[0]
	} else if m := calendarQuarter.FindStringSubmatch(s); m != nil {
		h.Period = m[2] + []string{"", "-03-31", "-06-30", "-09-30", "-12-31"}[m[1][0]-'0']
	}
	for _, re := range fundPosition {
		if m := re.FindStringSubmatch(s); m != nil {
			h.Fund = strings.TrimSpace(m[1])
			return h, true
		}
	}
	return Holders{}, false
}

// FilingIndex is what a question asks of a filing's index: how many
// files it has (Files) or its primary document.
type FilingIndex struct {
	Accession string
	Files     bool
}

var (
	accessionRE  = regexp.MustCompile(`\b(\d{10}-\d{2}-\d{6}|\d{18})\b`)
	fileCount    = regexp.MustCompile(`\b(?:how many|number of|count of) (?:files|documents|attachments)\b`)
	primaryWords = regexp.MustCompile(`\b(?:primary|main|principal) (?:document|doc|file)\b`)
)

// ParseFilingIndex reads a question about the filing an accession number
// names; false when q is none.
func ParseFilingIndex(q string) (FilingIndex, bool) {
	s := Normalize(q)
	m := accessionRE.FindStringSubmatch(s)
	if m == nil {
		return FilingIndex{}, false
	}
	switch {
	case fileCount.MatchString(s):
		return FilingIndex{Accession: m[1], Files: true}, true
	case primaryWords.MatchString(s):
		return FilingIndex{Accession: m[1]}, true
	}
	return FilingIndex{}, false
}

// Judgment fields a question may ask for.
const (
	JudgmentJudges  = "judges"
	JudgmentCourt   = "court"
	JudgmentDecided = "decision_date"
	JudgmentOutcome = "outcome"
)

// judgmentAsks are the phrases that ask for a judgment's stored fields or
// its outcome, tried in this order.
var judgmentAsks = []struct {
	field string
	re    *regexp.Regexp
}{
	{JudgmentJudges, regexp.MustCompile(`\b(?:judges?|justices?|coram|bench|who (?:decided|heard|delivered|wrote|authored|pronounced|presided over))\b`)},
	{JudgmentCourt, regexp.MustCompile(`\b(?:which|what) court\b|\bcourt (?:decided|heard|delivered)\b|\bdecided by which\b`)},
	{JudgmentDecided, regexp.MustCompile(`\bwhen (?:was|were|did)\b.*\b(?:decided|delivered|pronounced|disposed|decide|judgment|order)\b|\b(?:decision|judgment) date\b|\bdate of (?:the )?(?:decision|judgment|order)\b|\bon what date\b`)},
	{JudgmentOutcome, regexp.MustCompile(`\b(?:allowed or dismissed|dismissed or allowed|outcome|result|how did .+ end|what happened|what was decided|disposed of how|was .+ (?:allowed|dismissed|quashed|granted|rejected))\b`)},
}

// JudgmentField reads which stored field of a judgment, or its outcome,
// a question asks for; false when it asks for none of them.
func JudgmentField(q string) (string, bool) {
	s := Normalize(q)
	for _, a := range judgmentAsks {
		if a.re.MatchString(s) {
			return a.field, true
		}
	}
	return "", false
}
