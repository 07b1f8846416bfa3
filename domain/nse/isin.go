package nse

import (
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/domain/source"
)

// ParseISIN checks an ISIN (ISO 6166): two letters of country, nine
// letters or digits, and a check digit by the Luhn rule over the
// characters read as numbers (A=10 … Z=35). It accepts lower case and
// returns the upper-case form.
func ParseISIN(s string) (string, error) {
	u := strings.ToUpper(s)
	if len(u) != 12 || !isLetter(u[0]) || !isLetter(u[1]) {
		return "", fmt.Errorf("ISIN %s is not two letters and ten characters, as in INE002A01018", source.Quote(s))
	}
	var digits []byte
	for i := 0; i < 12; i++ {
		c := u[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c-'0')
		case isLetter(c) && i < 11:
			v := c - 'A' + 10
			digits = append(digits, v/10, v%10)
		default:
			return "", fmt.Errorf("ISIN %s has %q where a letter or digit belongs", source.Quote(s), c)
		}
	}
	sum := 0
	for i := range digits {
		d := int(digits[len(digits)-1-i])
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	if sum%10 != 0 {
		return "", fmt.Errorf("ISIN %s fails its check digit", source.Quote(s))
	}
	return u, nil
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' }
