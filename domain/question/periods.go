package question

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// months are the month names and abbreviations a date may use.
var months = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
	"september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

// Period phrases, tried in this order; each match is cut out of the
// question before the next is tried.
const (
	monthRE = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?`
	dayRE   = monthRE + ` (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})`
	isoRE   = `(\d{4})-(\d{2})-(\d{2})`
	yearRE  = `'?(\d{4}|\d{2})\b`
	fyRE    = `(?:fiscal(?: year)?|fy) ?` + yearRE
)

var (
	spanWords  = `(?:(?:the )?(?:fiscal )?(quarter|three months|3 months|six months|6 months|nine months|9 months|year|twelve months|12 months|period))`
	endedDay   = regexp.MustCompile(`(?:for )?(?:the )?` + spanWords + ` (?:ended|ending|that ended) (?:on )?(?:` + dayRE + `|` + isoRE + `)`)
	endedMonth = regexp.MustCompile(`(?:for )?(?:the )?` + spanWords + ` (?:ended|ending|that ended) (?:in )?` + monthRE + ` (\d{4})`)
	asOfDay    = regexp.MustCompile(`\b(?:as of|as at|at|on) (?:` + dayRE + `|` + isoRE + `)`)
	quarterA   = regexp.MustCompile(`\b(?:fiscal )?q([1-4]) ?(?:of )?(?:the )?(?:(?:fiscal(?: year)?|fy) ?)?` + yearRE)
	quarterB   = regexp.MustCompile(`\b(?:the )?(first|second|third|fourth|1st|2nd|3rd|4th) (?:fiscal )?quarter (?:of )?(?:the )?(?:(?:fiscal(?: year)?|fy) ?)?` + yearRE)
	quarterC   = regexp.MustCompile(`\b` + fyRE + ` ?q([1-4])\b`)
	fiscalYear = regexp.MustCompile(`\b(?:(?:at )?(?:the )?end of )?(?:the )?` + fyRE + `(?: year[- ]?end)?`)
	ttmRE      = regexp.MustCompile(`\b(?:over |for |in )?(?:the )?(?:ttm|trailing (?:twelve|12)[- ]months?|last (?:twelve|12) months)\b`)
	latestRE   = regexp.MustCompile(`\b(?:in |for )?(?:the )?(?:latest|most recent|most recently reported|newest|last reported|last fiscal year)(?: fiscal year| year| annual| reported)?\b`)
	ytdA       = regexp.MustCompile(`\b(?:for |in |during |over )?(?:the )?(first (?:nine|9) months|first (?:six|6) months|first half|year[- ]to[- ]date|ytd) (?:of |in |for )?(?:the )?` + fyRE)
	ytdB       = regexp.MustCompile(`\b(?:for |in |during )?(?:the )?` + fyRE + ` (year[- ]to[- ]date|ytd|first half|first (?:nine|9) months)\b`)
	calA       = regexp.MustCompile(`\b(?:in |for |during )?(?:the )?calendar (?:year )?(?:q([1-4]) (?:of )?|(first|second|third|fourth) quarter (?:of )?)?((?:19|20)\d{2})(?: q([1-4]))?\b`)
	calB       = regexp.MustCompile(`\b(?:in |for |during )?(?:the )?(?:q([1-4])|(first|second|third|fourth) quarter) (?:of )?(?:the )?calendar (?:year )?((?:19|20)\d{2})\b`)
	calC       = regexp.MustCompile(`\b(?:in |for |during )?(?:the )?(first|second|third|fourth) calendar quarter (?:of )?((?:19|20)\d{2})\b`)
	calYear    = regexp.MustCompile(`\b(?:in |for |during )?((?:19|20)\d{2})\b`)
)

var quarterWord = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}

// year reads a four- or two-digit year; two digits are 20xx.
func year(s string) int {
	n, _ := strconv.Atoi(s)
	if len(s) == 2 {
		n += 2000
	}
	return n
}

// date writes a day a question names as YYYY-MM-DD; m holds either the
// month, day and year of dayRE or the ISO parts, in that order.
func date(m []string) string {
	if m[0] != "" {
		d, _ := strconv.Atoi(m[1])
		return fmt.Sprintf("%s-%02d-%02d", m[2], months[m[0]], d)
	}
	return m[3] + "-" + m[4] + "-" + m[5]
}

// quarterNumber reads a quarter's digit, 0 for none.
func quarterNumber(s string) int {
	if s == "" {
		return 0
	}
	return int(s[0] - '0')
}

// ytdMonths is the length a year-to-date phrase names: 6 or 9 months, 0
// for "year to date" (the longest filed).
func ytdMonths(s string) int {
	switch {
	case strings.Contains(s, "half"), strings.Contains(s, "six"), strings.Contains(s, "6"):
		return 6
	case strings.Contains(s, "nine"), strings.Contains(s, "9"):
		return 9
	}
	return 0
}

func spanOf(w string) Span {
	switch w {
	case "quarter", "three months", "3 months":
		return ThreeMonths
	case "six months", "6 months":
		return SixMonths
	case "nine months", "9 months":
		return NineMonths
	case "period":
		return Instant
	}
	return Year
}

// periods cuts the period phrases out of s and returns what they name, in
// the order they come in the question.
func periods(s string) (string, []Period) {
	type found struct {
		at int
		p  Period
	}
	var all []found
	cut := func(re *regexp.Regexp, read func(m []string) Period) {
		locs := re.FindAllStringSubmatchIndex(s, -1)
		if locs == nil {
			return
		}
		// Each match is blanked to the same length, so that the places
		// found stay comparable: a ';' then spaces.
		blanked := []byte(s)
		for _, loc := range locs {
			m := make([]string, len(loc)/2-1)
			for i := range m {
				if loc[2*i+2] >= 0 {
					m[i] = s[loc[2*i+2]:loc[2*i+3]]
				}
			}
			all = append(all, found{loc[0], read(m)})
			blanked[loc[0]] = ';'
			for i := loc[0] + 1; i < loc[1]; i++ {
				blanked[i] = ' '
			}
		}
		s = string(blanked)
	}
	cut(endedDay, func(m []string) Period { return Period{Kind: EndDate, End: date(m[1:]), Span: spanOf(m[0])} })
	cut(endedMonth, func(m []string) Period {
		return Period{Kind: EndMonth, End: fmt.Sprintf("%s-%02d", m[2], months[m[1]]), Span: spanOf(m[0])}
	})
	if strings.Contains(s, "calendar") {
		cut(calA, func(m []string) Period {
			return Period{Kind: CalendarTerm, Year: year(m[2]), Quarter: max(quarterNumber(m[0]), quarterWord[m[1]], quarterNumber(m[3]))}
		})
		cut(calB, func(m []string) Period {
			return Period{Kind: CalendarTerm, Year: year(m[2]), Quarter: max(quarterNumber(m[0]), quarterWord[m[1]])}
		})
		cut(calC, func(m []string) Period {
			return Period{Kind: CalendarTerm, Year: year(m[1]), Quarter: quarterWord[m[0]]}
		})
	}
	if strings.Contains(s, "month") || strings.Contains(s, "half") || strings.Contains(s, "date") || strings.Contains(s, "ytd") {
		cut(ytdA, func(m []string) Period { return Period{Kind: YearToDate, Year: year(m[1]), Months: ytdMonths(m[0])} })
		cut(ytdB, func(m []string) Period { return Period{Kind: YearToDate, Year: year(m[0]), Months: ytdMonths(m[1])} })
	}
	cut(asOfDay, func(m []string) Period { return Period{Kind: EndDate, End: date(m), Span: Instant} })
	cut(quarterC, func(m []string) Period { return Period{Kind: Quarter, Year: year(m[0]), Quarter: int(m[1][0] - '0')} })
	cut(quarterA, func(m []string) Period { return Period{Kind: Quarter, Year: year(m[1]), Quarter: int(m[0][0] - '0')} })
	cut(quarterB, func(m []string) Period { return Period{Kind: Quarter, Year: year(m[1]), Quarter: quarterWord[m[0]]} })
	cut(fiscalYear, func(m []string) Period { return Period{Kind: FiscalYear, Year: year(m[0])} })
	cut(ttmRE, func([]string) Period { return Period{Kind: TTM} })
	cut(latestRE, func([]string) Period { return Period{Kind: Latest} })
	cut(calYear, func(m []string) Period { return Period{Kind: CalendarYear, Year: year(m[0])} })
	// Question order: "from fiscal 2022 to fiscal 2023" reads earlier first.
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && all[j].at < all[j-1].at; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	out := make([]Period, 0, len(all))
	for _, f := range all {
		out = append(out, f.p)
	}
	return s, out
}
