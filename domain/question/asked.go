package question

import (
	"regexp"
	"strings"
)

// When a question asks a figure as known at a time, in words.
var (
	// leadingAsOf is a day that opens the question and a comma ends: the
	// day the figure is asked as known at ("As of March 1, 2024, what
	// was …"). Elsewhere "as of <day>" is a balance's day.
	leadingAsOf = regexp.MustCompile(`^ (?:as of|as at|at) (?:` + dayRE + `|` + isoRE + `),`)
	// filedOn is a 10-K named by the day it was filed: what was filed by
	// that day.
	filedOn = regexp.MustCompile(`\b(?:in|from|according to|per) (?:the |its |their |([a-z0-9.&-]+(?:'s|')) )?(?:form )?10-k (?:that was |which was )?filed (?:on )?(?:` + dayRE + `|` + isoRE + `)`)
	// fiscal10K is a 10-K named by its fiscal year: the figure must be
	// one it filed.
	fiscal10K = regexp.MustCompile(`\b(?:according to|in|from|per) (?:the |its |their |([a-z0-9.&-]+(?:'s|')) )?(?:` + fyRE + `|(\d{4})) (?:annual report on )?(?:form )?10-k\b`)
)

// asked cuts the words that say when a figure is asked out of s: the day
// it is asked as known at (YYYY-MM-DD) and the fiscal year of the 10-K it
// must be read from, each "" or 0 when none. A possessive company name
// in them is kept.
func asked(s string) (rest, asOf string, filing int) {
	if strings.HasPrefix(s, " as ") || strings.HasPrefix(s, " at ") {
		if m := leadingAsOf.FindStringSubmatch(s); m != nil {
			asOf, s = date(m[1:]), " "+s[len(m[0]):]
		}
	}
	if !strings.Contains(s, "10-k") {
		return s, asOf, 0
	}
	if m := filedOn.FindStringSubmatchIndex(s); m != nil {
		parts := submatches(s, m)
		asOf, s = date(parts[1:]), s[:m[0]]+" "+parts[0]+" "+s[m[1]:]
	}
	if m := fiscal10K.FindStringSubmatchIndex(s); m != nil {
		parts := submatches(s, m)
		filing = year(parts[1] + parts[2])
		s = s[:m[0]] + " " + parts[0] + " " + s[m[1]:]
	}
	return s, asOf, filing
}

// submatches are the groups of a match at loc, "" for a group that took
// no part.
func submatches(s string, loc []int) []string {
	out := make([]string, len(loc)/2-1)
	for i := range out {
		if loc[2*i+2] >= 0 {
			out[i] = s[loc[2*i+2]:loc[2*i+3]]
		}
	}
	return out
}

// fromFiling marks every period to be read from the 10-K of fiscal year
// filing; with none named, the period is that fiscal year.
func fromFiling(ps []Period, filing int) []Period {
	if len(ps) == 0 {
		ps = []Period{{Kind: FiscalYear, Year: filing}}
	}
	for i := range ps {
		ps[i].Filing = filing
	}
	return ps
}
