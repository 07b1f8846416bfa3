package financials

import (
	"slices"
	"strings"
)

// CompanySearch narrows the companies held; each field set narrows it
// further, and the zero value matches every company.
type CompanySearch struct {
	// Ticker is an upper-case prefix of one of the company's tickers:
	// "NV" matches NVDA.
	Ticker string
	// Name is the NameKey of a part of the company's name, matched
	// anywhere in the name's key: "micro" matches "microsoft corp" and
	// "advanced micro devices inc".
	Name string
	// CIK is a prefix of the CIK, digits only (see MatchesCIK).
	CIK string
}

// Matches reports whether the company c passes every field set.
func (s CompanySearch) Matches(c Company) bool {
	return MatchesCIK(c.CIK, s.CIK) && strings.Contains(NameKey(c.Name), s.Name) &&
		(s.Ticker == "" || slices.ContainsFunc(c.Tickers, func(t string) bool { return strings.HasPrefix(t, s.Ticker) }))
}

// MatchesCIK reports whether the 10-digit cik begins with prefix, written
// with or without the CIK's leading zeros: "0001045" and "1045" both match
// 0001045810. A prefix that begins with a zero is a prefix of the 10-digit
// form, any other of the number, so neither reading can match what the
// other would not.
func MatchesCIK(cik, prefix string) bool {
	if strings.HasPrefix(prefix, "0") {
		return strings.HasPrefix(cik, prefix)
	}
	return strings.HasPrefix(strings.TrimLeft(cik, "0"), prefix)
}
