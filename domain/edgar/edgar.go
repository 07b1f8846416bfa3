// Package edgar holds the identifiers of the SEC's EDGAR system: accession
// numbers, CIKs, tickers and CUSIPs, and their canonical forms.
package edgar

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/domain/source"
)

// Errors returned by the parsers, wrapped with detail.
var (
	ErrAccession = errors.New("malformed accession number")
	ErrCIK       = errors.New("malformed CIK")
	ErrTicker    = errors.New("malformed ticker")
	ErrCUSIP     = errors.New("malformed CUSIP")
)

// ParseAccession accepts "0000320193-24-000123" or its 18-digit form
// without dashes and returns the dashed canonical form.
func ParseAccession(s string) (string, error) {
	digits := strings.ReplaceAll(s, "-", "")
	if len(digits) != 18 || !allDigits(digits) || (len(s) != 18 && (len(s) != 20 || s[10] != '-' || s[13] != '-')) {
		return "", fmt.Errorf("%w: %s; expected ##########-##-######", ErrAccession, source.Quote(s))
	}
	return digits[:10] + "-" + digits[10:12] + "-" + digits[12:], nil
}

// ParseCIK accepts 1 to 10 digits and returns the 10-digit zero-padded form.
func ParseCIK(s string) (string, error) {
	if s == "" || len(s) > 10 || !allDigits(s) {
		return "", fmt.Errorf("%w: %s; expected up to 10 digits", ErrCIK, source.Quote(s))
	}
	n, _ := strconv.ParseUint(s, 10, 64)
	if n == 0 {
		return "", fmt.Errorf("%w: %s is zero", ErrCIK, source.Quote(s))
	}
	return fmt.Sprintf("%010d", n), nil
}

// ParseTicker accepts an exchange ticker such as AAPL or BRK.B (letters,
// digits, '.' and '-', at most 10) and returns it in upper case.
func ParseTicker(s string) (string, error) {
	t := strings.ToUpper(s)
	if t == "" || len(t) > 10 {
		return "", fmt.Errorf("%w: %s", ErrTicker, source.Quote(s))
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return "", fmt.Errorf("%w: %s", ErrTicker, source.Quote(s))
		}
	}
	return t, nil
}

// ParseCUSIP accepts a 9-character CUSIP and checks its check digit.
func ParseCUSIP(s string) (string, error) {
	c := strings.ToUpper(s)
	if len(c) != 9 || !allDigits(c[8:]) {
		return "", fmt.Errorf("%w: %s; expected 9 characters", ErrCUSIP, source.Quote(s))
	}
	sum := 0
	for i := 0; i < 8; i++ {
		v, ok := cusipValue(c[i])
		if !ok {
			return "", fmt.Errorf("%w: %s", ErrCUSIP, source.Quote(s))
		}
		if i%2 == 1 {
			v *= 2
		}
		sum += v/10 + v%10
	}
	if int(c[8]-'0') != (10-sum%10)%10 {
		return "", fmt.Errorf("%w: %s has a wrong check digit", ErrCUSIP, source.Quote(s))
	}
	return c, nil
}

func cusipValue(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10, true
	case c == '*':
		return 36, true
	case c == '@':
		return 37, true
	case c == '#':
		return 38, true
	}
	return 0, false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}
