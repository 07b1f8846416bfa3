// Package decimal reads plain decimal numbers as vendor files write them,
// in their text, so that a change of unit (lots to shares, thousands of
// yuan or lakhs of rupees to units) is exact.
package decimal

import (
	"errors"
	"strings"
)

// ErrNotDecimal is returned for text that is not a plain decimal number:
// digits, optionally a point and more digits, at most 40 characters.
var ErrNotDecimal = errors.New("not a plain decimal number")

// Shift multiplies a plain decimal by 10^places in its text: Shift("38982.43",
// 2) is "3898243". Leading zeros are dropped; zero places checks the form.
func Shift(s string, places int) (string, error) {
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || !Digits(whole) || !Digits(frac) || (dot && frac == "") || len(s) > 40 {
		return "", ErrNotDecimal
	}
	frac += strings.Repeat("0", max(0, places-len(frac)))
	whole += frac[:places]
	frac = frac[places:]
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	if frac == "" {
		return whole, nil
	}
	return whole + "." + frac, nil
}

// Digits reports whether s holds ASCII digits only (an empty s does).
func Digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
