package ashare

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/domain/source"
)

// aliasExchanges maps the exchange marks of the code forms vendors and
// tools use to the exchange they name: Tushare's suffixes (600519.SH,
// 000001.SZ, 830799.BJ), AKShare's and Sina's prefixes (sh600519, sz000001,
// bj830799, and Baostock's sh.600519), and the market identifier codes
// JoinQuant and RiceQuant use (600519.XSHG, 000001.XSHE; BJSE for Beijing).
var aliasExchanges = map[string]Exchange{
	"SH": SSE, "SZ": SZSE, "BJ": BSE,
	"XSHG": SSE, "XSHE": SZSE, "BJSE": BSE,
}

// ParseAlias parses a code in the canonical form (SSE.600519) or in any of
// the forms users paste from the tools they already use: 600519.SH,
// sh600519, sh.600519 or 600519.XSHG (marks are case-insensitive). The
// result is canonical, so every form of one listing names the same bars. A
// bare six-digit code stays ErrBareCode naming the candidates, a form that
// names no exchange ErrMalformed, and digits outside the named exchange's
// ranges ErrWrongRange: an alias never guesses another exchange.
func ParseAlias(s string) (Code, error) {
	if isSixDigits(s) {
		return ParseCode(s)
	}
	if exch, digits, ok := alias(s); ok {
		c, err := ParseCode(string(exch) + "." + digits)
		if err != nil {
			return Code{}, fmt.Errorf("%w (read %s as %s.%s)", err, source.Quote(s), exch, digits)
		}
		return c, nil
	}
	c, err := ParseCode(s)
	if err != nil {
		return Code{}, fmt.Errorf("%w; 600519.SH, sh600519 and 600519.XSHG are accepted too", err)
	}
	return c, nil
}

// alias splits a vendor form into its exchange and digits.
func alias(s string) (Exchange, string, bool) {
	if digits, mark, ok := strings.Cut(s, "."); ok && isSixDigits(digits) {
		e, known := aliasExchanges[strings.ToUpper(mark)]
		return e, digits, known
	}
	if len(s) == 8 || (len(s) == 9 && s[2] == '.') {
		mark, digits := s[:2], strings.TrimPrefix(s[2:], ".")
		if e, known := aliasExchanges[strings.ToUpper(mark)]; known && isSixDigits(digits) && len(mark) == 2 {
			return e, digits, true
		}
	}
	return "", "", false
}
