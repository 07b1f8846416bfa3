package pii

import (
	"regexp"
	"strings"
)

// What leaves Quarry is scanned for PANs in more forms than the redactor
// replaces: a text written by a model, or a judgment's text where a PAN was
// printed glued to a word or spaced out, may hold one the redactor missed.
var (
	// panGlued is the ten characters of a PAN in any case, anywhere, even
	// inside a longer word ("PANABCDE1234Fissued"): letters on both sides
	// of the four digits make it exact enough without word boundaries.
	panGlued = regexp.MustCompile(`(?i)[A-Z]{5}[0-9]{4}[A-Z]`)
	// panSpaced is an upper-case PAN written with one space, hyphen, dot
	// or slash between some of its characters ("ABCDE 1234 F",
	// "A-B-C-D-E-1-2-3-4-F"), from a word's start to a word's end. Lower
	// case is left out: "since 2019 a" is prose, not a PAN.
	panSpaced = regexp.MustCompile(`\b[A-Z](?:[ ./-]?[A-Z]){4}[ ./-]?[0-9](?:[ ./-]?[0-9]){3}[ ./-]?[A-Z]\b`)
	// anyToken is a token of any kind: its base32 body may hold a
	// PAN-shaped run by chance, and a token is what a PAN becomes, so it
	// is never one.
	anyToken = regexp.MustCompile(`\b(?:` + strings.Join(tokenPrefixes(), "|") + `)[A-Z2-7]{16}\b`)
)

func tokenPrefixes() []string {
	out := make([]string, 0, len(prefixes))
	for _, p := range prefixes {
		out = append(out, regexp.QuoteMeta(p))
	}
	return out
}

// HasPANShaped reports whether text holds a PAN-shaped string outside its
// tokens: every PAN the redactor would replace (findPANs), and more, read
// as the redactor reads text (NFKC, format characters left out): five
// letters, four digits and a letter, in any case when the ten are written
// together (glued to other letters or not), in upper case when single
// spaces, hyphens, dots or slashes part them. The fourth letter need not be
// a holder type: a mistyped PAN is still somebody's.
func HasPANShaped(text string) bool {
	if len(findPANs(text)) > 0 {
		return true
	}
	seen := anyToken.ReplaceAllLiteralString(viewString(panView(text)), "#")
	return panGlued.MatchString(seen) || panSpaced.MatchString(seen)
}

// viewString is the text of a view.
func viewString(v []viewRune) string {
	var b strings.Builder
	b.Grow(len(v))
	for _, r := range v {
		b.WriteRune(r.r)
	}
	return b.String()
}
