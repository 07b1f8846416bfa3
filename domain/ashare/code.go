// Package ashare holds the rules of mainland China A-share listings: the
// exchange-qualified code, the exchanges and boards, and the listing record.
package ashare

import (
	"errors"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/domain/source"
)

// Exchange is a mainland stock exchange.
type Exchange string

// The three mainland exchanges that list A-shares.
const (
	SSE  Exchange = "SSE"
	SZSE Exchange = "SZSE"
	BSE  Exchange = "BSE"
)

// Board is the market segment of an exchange that a listing trades on.
type Board string

// The boards an A-share code can belong to.
const (
	Main    Board = "main"
	STAR    Board = "star"
	ChiNext Board = "chinext"
	BSEMain Board = "bse"
)

// Exchanges lists the exchanges in the order candidates are reported.
var Exchanges = []Exchange{SSE, SZSE, BSE}

// boardRanges maps each exchange to its three-digit A-share code prefixes.
// SZSE 302 is ChiNext's newer range (中航成飞 trades as 302132 since its
// code changed from 300114 in 2025, and both the exchange's A股列表 and
// Tushare's stock_basic list it there). BSE holds the legacy NEEQ-derived
// ranges (43x, 83x, 87x) and the 920 range its listings moved to.
var boardRanges = map[Exchange]map[string]Board{
	SSE: {
		"600": Main, "601": Main, "603": Main, "605": Main,
		"688": STAR, "689": STAR,
	},
	SZSE: {
		"000": Main, "001": Main, "002": Main, "003": Main,
		"300": ChiNext, "301": ChiNext, "302": ChiNext,
	},
	BSE: {
		"430": BSEMain, "830": BSEMain, "831": BSEMain, "832": BSEMain, "833": BSEMain,
		"834": BSEMain, "835": BSEMain, "836": BSEMain, "837": BSEMain, "838": BSEMain,
		"839": BSEMain, "870": BSEMain, "871": BSEMain, "872": BSEMain, "873": BSEMain,
		"920": BSEMain,
	},
}

// bShareRanges are the three-digit prefixes of B-share codes: shares of
// mainland companies quoted in foreign currency (USD on SSE, HKD on SZSE),
// which are not A-shares and have no place in this dataset. The exchanges'
// lists print them beside the company's A-share code.
var bShareRanges = map[Exchange][]string{
	SSE:  {"900"},
	SZSE: {"200", "201"},
}

// IsBShare reports whether digits is a B-share code of exchange e.
func IsBShare(e Exchange, digits string) bool {
	if !isSixDigits(digits) {
		return false
	}
	for _, p := range bShareRanges[e] {
		if digits[:3] == p {
			return true
		}
	}
	return false
}

// Errors returned by ParseCode. Each is wrapped with detail for the caller.
var (
	// ErrMalformed: not <EXCHANGE>.<six digits> with a known exchange.
	ErrMalformed = errors.New("malformed code")
	// ErrBareCode: six digits without an exchange; the detail names candidates.
	ErrBareCode = errors.New("code is not exchange-qualified")
	// ErrWrongRange: the digits do not fall in an A-share range of the exchange.
	ErrWrongRange = errors.New("code is outside the exchange's A-share ranges")
)

// Code is a parsed, exchange-qualified A-share code.
type Code struct {
	Exchange Exchange
	Digits   string
	Board    Board
}

// String renders the canonical form, for example "SSE.600519".
func (c Code) String() string { return string(c.Exchange) + "." + c.Digits }

// ParseCode parses "<EXCHANGE>.<6 digits>". The exchange is case-insensitive;
// the result is canonical upper case.
func ParseCode(s string) (Code, error) {
	if isSixDigits(s) {
		return Code{}, fmt.Errorf("%w: %s; %s", ErrBareCode, source.Quote(s), candidateText(s))
	}
	exch, digits, ok := strings.Cut(s, ".")
	if !ok || !isSixDigits(digits) {
		return Code{}, fmt.Errorf("%w: %s; expected an exchange, a dot and 6 digits, such as SSE.600519", ErrMalformed, source.Quote(s))
	}
	e := Exchange(strings.ToUpper(exch))
	ranges, known := boardRanges[e]
	if !known {
		return Code{}, fmt.Errorf("%w: %s; exchange must be one of SSE, SZSE, BSE", ErrMalformed, source.Quote(s))
	}
	board, inRange := ranges[digits[:3]]
	if !inRange {
		return Code{}, fmt.Errorf("%w: %s.%s; %s", ErrWrongRange, e, digits, candidateText(digits))
	}
	return Code{Exchange: e, Digits: digits, Board: board}, nil
}

// Candidates returns the qualified codes whose exchange ranges contain digits.
func Candidates(digits string) []string {
	if !isSixDigits(digits) {
		return nil
	}
	var out []string
	for _, e := range Exchanges {
		if _, ok := boardRanges[e][digits[:3]]; ok {
			out = append(out, string(e)+"."+digits)
		}
	}
	return out
}

func candidateText(digits string) string {
	c := Candidates(digits)
	if len(c) == 0 {
		return "no mainland exchange lists A-shares in that range"
	}
	return "did you mean " + strings.Join(c, " or ") + "?"
}

func isSixDigits(s string) bool {
	if len(s) != 6 {
		return false
	}
	for i := 0; i < 6; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
