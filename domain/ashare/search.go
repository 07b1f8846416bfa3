package ashare

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Search narrows the listings held; each field set narrows it further,
// and the zero value matches every listing.
type Search struct {
	// Name is the NameKey of a part of the listing's name, Chinese or
	// English.
	Name string
	// Exchange, when set, is the listing's exchange.
	Exchange Exchange
	// Digits is a prefix of the listing's six digits.
	Digits string
	// Board, when set, is the listing's board.
	Board Board
	// Listed, when set, is whether the listing still trades.
	Listed *bool
}

// Matches reports whether the listing s passes every field set.
func (q Search) Matches(s Security) bool {
	_, digits, _ := strings.Cut(s.Code, ".")
	return (strings.Contains(NameKey(s.CompanyName), q.Name) || (s.EnglishName != "" && strings.Contains(NameKey(s.EnglishName), q.Name))) &&
		(q.Exchange == "" || Exchange(s.Exchange) == q.Exchange) &&
		strings.HasPrefix(digits, q.Digits) &&
		(q.Board == "" || Board(s.Board) == q.Board) &&
		(q.Listed == nil || s.Listed == *q.Listed)
}

// Page returns the listings of sorted, ordered by code, that q matches
// from offset on, at most limit of them, and whether more match after
// them.
func (q Search) Page(sorted []Security, offset, limit int) ([]Security, bool) {
	page := []Security{}
	matched := 0
	for _, s := range sorted {
		if !q.Matches(s) {
			continue
		}
		if matched++; matched > offset+limit {
			return page, true
		}
		if matched > offset {
			page = append(page, s)
		}
	}
	return page, false
}

// NameKey is the form a listing name is matched in: compatibility-folded
// (NFKC, so the full-width Ａ of 万科Ａ is A), lower-cased, with every
// space removed (the exchanges pad short names with spaces).
func NameKey(name string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(norm.NFKC.String(name)), unicode.IsSpace), "")
}

// ParseBoard reads a board name, case-insensitively.
func ParseBoard(s string) (Board, bool) {
	b := Board(strings.ToLower(s))
	switch b {
	case Main, STAR, ChiNext, BSEMain:
		return b, true
	}
	return "", false
}

// ParseExchange reads an exchange name, case-insensitively.
func ParseExchange(s string) (Exchange, bool) {
	e := Exchange(strings.ToUpper(s))
	_, known := boardRanges[e]
	return e, known
}

// Meant returns the exchange-qualified code a code ParseCode refuses
// stands for, when one can be told: a vendor form ParseAlias reads
// (600519.SH, sh600519, 600519.XSHG), or six digits that only one
// exchange's ranges hold, bare (600519) or under another exchange or mark
// (SZSE.600519, 600519.SZ). ok is false for a code ParseCode accepts and
// for one whose digits name no single listing.
func Meant(s string) (Code, bool) {
	if _, err := ParseCode(s); err == nil {
		return Code{}, false
	}
	if c, err := ParseAlias(s); err == nil {
		return c, true
	}
	digits := s
	if a, b, ok := strings.Cut(s, "."); ok {
		digits = b
		if isSixDigits(a) {
			digits = a
		}
	} else if len(s) == 8 {
		digits = s[2:]
	}
	if c := Candidates(digits); len(c) == 1 {
		code, err := ParseCode(c[0])
		return code, err == nil
	}
	return Code{}, false
}
