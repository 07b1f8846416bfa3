// Package pii holds the rules that keep litigants' personal data out of
// what Quarry serves: which strings are PANs, how a party name or a PAN
// becomes a deterministic keyed token, and how every occurrence of them in a
// judgment's text is replaced by its token. It does no I/O; the mapping from
// a token back to its original lives behind ports.Vault.
package pii

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidPAN: the string is not a Permanent Account Number.
var ErrInvalidPAN = errors.New("not a PAN")

// panHolderTypes are the letters the fourth character of a PAN takes: the
// status of its holder. Public explanations of the PAN's structure agree on
// A (association of persons), B (body of individuals), C (company),
// F (firm), G (government), H (Hindu undivided family), J (artificial
// juridical person), L (local authority), P (individual) and T (trust);
// some newer ones add E (limited liability partnership), which we accept
// too, since refusing a real PAN is worse than accepting a rare letter.
const panHolderTypes = "ABCEFGHJLPT"

// ParsePAN returns s as a PAN: five letters, four digits and a letter
// (`[A-Z]{5}[0-9]{4}[A-Z]`), upper case after surrounding space is trimmed,
// whose fourth letter is a holder type.
func ParsePAN(s string) (string, error) {
	p := strings.ToUpper(strings.TrimSpace(s))
	if !panShaped(p) {
		return "", fmt.Errorf("%w: %q: want five letters, four digits and a letter, such as AAAPA1234A", ErrInvalidPAN, s)
	}
	if !strings.ContainsRune(panHolderTypes, rune(p[3])) {
		return "", fmt.Errorf("%w: %q: its fourth letter %c is no holder type (%s)", ErrInvalidPAN, s, p[3], panHolderTypes)
	}
	return p, nil
}

// panShaped reports whether p is `[A-Z]{5}[0-9]{4}[A-Z]`.
func panShaped(p string) bool {
	if len(p) != 10 {
		return false
	}
	for i := range 10 {
		c := p[i]
		digit := i >= 5 && i <= 8
		if digit && (c < '0' || c > '9') || !digit && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}
