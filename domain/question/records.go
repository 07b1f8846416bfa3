package question

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Price is what a price question asks of a listing's daily bars: the
// fields (open, high, low, close, volume) on the days it names, or, with
// Change, how the close moved: between two days, or on one day against
// the previous close.
type Price struct {
	Fields []string
	Days   []string
	Change bool
	// Adjust is "forward" or "backward" when the question asks for
	// adjusted prices (前复权, backward-adjusted), else "".
	Adjust string
}

// The days a question names: "1 July 2025", "1st July 2025", "July 1,
// 2025", "2025-07-01", each a day that exists.
var (
	dayFirst = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?` + monthRE + `,? (\d{4})\b`)
	monthDay = regexp.MustCompile(`\b` + dayRE + `\b`)
	isoDay   = regexp.MustCompile(`\b` + isoRE + `\b`)
	// bhavDay is a day as NSE's files write it, 01-JUN-2021; hanDay as
	// Chinese does, 2021年12月31日.
	bhavDay = regexp.MustCompile(`\b(\d{1,2})-` + monthRE + `-(\d{4})\b`)
	hanDay  = regexp.MustCompile(`(\d{4})年(\d{1,2})月(\d{1,2})日`)
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
	add(bhavDay, func(m []string) string { return date([]string{m[1], m[0], m[2]}) })
	add(hanDay, func(m []string) string {
		month, _ := strconv.Atoi(m[1])
		day, _ := strconv.Atoi(m[2])
		return fmt.Sprintf("%s-%02d-%02d", m[0], month, day)
	})
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
	{"prev_close", regexp.MustCompile(`\b(?:previous|prev|prior|preceding) (?:day's )?clos(?:e|ing)(?: price)?\b|前收盘价?|昨收盘?价?`)},
	{"last", regexp.MustCompile(`\blast (?:traded )?price\b|\bltp\b`)},
	{"open", regexp.MustCompile(`\b(?:open|opened|opening(?: price)?|open price)\b|开盘价?`)},
	{"high", regexp.MustCompile(`\b(?:high|highest|intraday high|high price)\b|最高价?`)},
	{"low", regexp.MustCompile(`\b(?:low|lowest|intraday low|low price)\b|最低价?`)},
	{"close", regexp.MustCompile(`\b(?:close|closed|closing(?: price)?|close price|last close|price|trade at|traded at|trading at)\b|收盘价?|股价`)},
	{"volume", regexp.MustCompile(`\b(?:volume|shares (?:were |changed )?traded|shares changed hands|traded (?:volume|quantity)|trading volume)\b|成交量`)},
}

// priceChange is a question asking how the close moved.
var priceChange = regexp.MustCompile(`\b(?:change|changed|rise|rose|risen|fall|fell|fallen|gain|gained|lose|lost|drop|dropped|move|moved|difference|increase|increased|decrease|decreased|went up|go up|went down|go down)\b|涨跌|变化`)

// notAPrice marks what a price question may ask that a day's bar does not
// hold as such: an average, a range over weeks, an amount traded, an
// adjustment not named.
var notAPrice = regexp.MustCompile(`\b(?:average|avg|vwap|mean|52[- ]week|all[- ]time|turnover|traded value|market cap|market capitalization)\b|均价|成交额|市值|\badjusted\b`)

var (
	forwardAdjusted  = regexp.MustCompile(`前复权|\bforward[- ]adjusted\b|\bqfq\b`)
	backwardAdjusted = regexp.MustCompile(`后复权|\bbackward[- ]adjusted\b|\bhfq\b`)
)

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
	if forwardAdjusted.MatchString(s) {
		p.Adjust, s = "forward", forwardAdjusted.ReplaceAllString(s, " ")
	} else if backwardAdjusted.MatchString(s) {
		p.Adjust, s = "backward", backwardAdjusted.ReplaceAllString(s, " ")
	}
	if notAPrice.MatchString(s) {
		return Price{}, false
	}
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
		regexp.MustCompile(`\bvalue of (.+?)'s? (?:\S+ )?(?:position|stake|holding)\b`),
		regexp.MustCompile(`\b(?:did|does|do|has|have|had) (.+?) (?:hold|own|report|held|owned)\b`),
	}
	yearEnd         = regexp.MustCompile(`\b(?:the )?end of ((?:19|20)\d{2})\b`)
	calendarQuarter = regexp.MustCompile(`\bq([1-4]) ?((?:19|20)\d{2})\b`)
)

// ParseHolders reads a 13F question; false when q is none. It names no
// security: the caller finds it among the question's words.
func ParseHolders(q string) (Holders, bool) {
	s := strings.TrimRight(Normalize(q), " ?.!")
	if !holderWords.MatchString(s) {
		return Holders{}, false
	}
	h := Holders{Top: topHolder.MatchString(s)}
	if days := Days(s); len(days) == 1 {
		h.Period = days[0]
	} else if m := calendarQuarter.FindStringSubmatch(s); m != nil {
		h.Period = m[2] + []string{"", "-03-31", "-06-30", "-09-30", "-12-31"}[m[1][0]-'0']
	} else if m := yearEnd.FindStringSubmatch(s); m != nil {
		h.Period = m[1] + "-12-31"
	}
	if h.Top {
		return h, true
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
	{JudgmentCourt, regexp.MustCompile(`\b(?:which|what) (?:high |supreme |district )?court\b|\bcourt (?:decided|heard|delivered)\b|\bdecided by which\b`)},
	{JudgmentDecided, regexp.MustCompile(`\bwhen (?:was|were|did)\b.*\b(?:decided|delivered|pronounced|disposed|decide|judgment|order)\b|\b(?:decision|judgment) date\b|\bdate of (?:the )?(?:decision|judgment|order)\b|\bon what date\b`)},
	{JudgmentOutcome, regexp.MustCompile(`\b(?:allowed or dismissed|dismissed or allowed|outcome|result|how did .+ end|what happened|what was decided|disposed of how|was .+ (?:allowed|dismissed|quashed|granted|rejected)|did .+ (?:allow|dismiss|quash|grant|reject))\b`)},
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

// hanFiller are the Chinese words of a price question that name no
// listing: its fields, dates' characters and the words around them.
var hanFiller = regexp.MustCompile(`开盘价?|收盘价?|最高价?|最低价?|成交量|股价|涨跌|变化|多少|什么|是|的|在|年|月|日|号|到|从|至|和|与|当天|那天|价格?`)

// HanNames are the runs of Chinese characters a question holds once its
// price words are left out ("贵州茅台" of "贵州茅台2021年12月31日的收盘价是多少"),
// each with a Latin letter ending it kept (万科A): the Chinese short names
// it may name a listing by.
func HanNames(q string) []string {
	s := hanFiller.ReplaceAllString(NormalizeWidth(q), " ")
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.Is(unicode.Han, r) && !unicode.IsLetter(r) }) {
		if rs := []rune(f); len(rs) >= 2 && unicode.Is(unicode.Han, rs[0]) {
			out = append(out, f)
		}
	}
	return out
}
