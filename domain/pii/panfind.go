package pii

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// viewRune is one rune of a text as PANs are looked for in it, with the
// bytes of the original text it came from: the text is seen in NFKC (so a
// full-width Ａ is an A) with its format characters (Unicode Cf, such as a
// zero-width space) left out, so a PAN disguised by either is still found,
// and replaced in the original text, format characters and all.
type viewRune struct {
	r          rune
	start, end int
}

// panView returns text as PANs are looked for in it.
func panView(text string) []viewRune {
	v := make([]viewRune, 0, len(text))
	for i, r := range text {
		size := utf8.RuneLen(r)
		if r == utf8.RuneError {
			_, size = utf8.DecodeRuneInString(text[i:])
		}
		switch {
		case r < utf8.RuneSelf:
			v = append(v, viewRune{r, i, i + size})
		case unicode.Is(unicode.Cf, r):
		default:
			for _, n := range norm.NFKC.String(string(r)) {
				v = append(v, viewRune{n, i, i + size})
			}
		}
	}
	return v
}

// panSpan is a PAN found in a text: the original bytes [start, end) it
// covers and the PAN in canonical form.
type panSpan struct {
	start, end int
	pan        string
}

// findPANs returns the PANs of text, in order, never overlapping, and none
// inside a token. A PAN is found in two ways:
//
//   - as a word of its own (no ASCII letter, digit or underscore on either
//     side), five letters, four digits and a letter in any case, whatever
//     its fourth letter: the rule from before, for which an over-eager
//     replacement costs nothing;
//   - glued to other text or split by separators (white space within a
//     line, a dash, a dot, a slash or an underscore, up to three between
//     the letters and the digits and between the digits and the last
//     letter): then its six letters must be upper case, its fourth a
//     holder type and its first five no month, so an ordinary word, a
//     lower-case code or a date does not match. Five letters are the last
//     five before the digits, so PANABCPK1234Z holds ABCPK1234Z.
func findPANs(text string) []panSpan {
	v := panView(text)
	var out []panSpan
	for i := 0; i < len(v); {
		if n := tokenAt(v, i); n > 0 {
			i += n
			continue
		}
		if end, pan, ok := panAt(v, i); ok {
			out = append(out, panSpan{start: v[i].start, end: v[end-1].end, pan: pan})
			i = end
			continue
		}
		i++
	}
	return out
}

// panAt reports whether a PAN starts at v[i], and where it ends.
func panAt(v []viewRune, i int) (end int, pan string, ok bool) {
	var b strings.Builder
	j := i
	take := func(n int, want func(rune) bool) bool {
		for range n {
			if j >= len(v) || !want(v[j].r) {
				return false
			}
			b.WriteRune(unicode.ToUpper(v[j].r))
			j++
		}
		return true
	}
	if !take(5, isASCIILetter) {
		return 0, "", false
	}
	sep1 := skipSeparators(v, &j)
	if !take(4, isASCIIDigit) {
		return 0, "", false
	}
	sep2 := skipSeparators(v, &j)
	if !take(1, isASCIILetter) {
		return 0, "", false
	}
	pan = b.String()
	alone := !sep1 && !sep2 && (i == 0 || !asciiWord(v[i-1].r)) && (j == len(v) || !asciiWord(v[j].r))
	if alone || standsOut(v[i:j]) && strings.IndexByte(panHolderTypes, pan[3]) >= 0 && !months[pan[:5]] {
		return j, pan, true
	}
	return 0, "", false
}

// standsOut reports whether the letters of a glued or separated PAN are
// upper case, as a PAN is written and an ordinary word is not.
func standsOut(run []viewRune) bool {
	for _, c := range run {
		if isASCIILetter(c.r) && !unicode.IsUpper(c.r) {
			return false
		}
	}
	return true
}

// months are the five-letter months: "31ST MARCH 2005 P.C." is a date
// and an abbreviation, no PAN split by spaces.
var months = map[string]bool{"MARCH": true, "APRIL": true}

// maxSeparators is how many separators may stand between a PAN's letters
// and digits, or its digits and last letter: "ABCPK - 1234 - Z".
const maxSeparators = 3

// skipSeparators moves *j past up to maxSeparators separators, and
// reports whether it moved.
func skipSeparators(v []viewRune, j *int) bool {
	start := *j
	for *j < len(v) && *j-start < maxSeparators && isPANSeparator(v[*j].r) {
		*j++
	}
	return *j > start
}

// isPANSeparator reports whether r may split a PAN: white space within a
// line, a dash, a dot, a slash or an underscore. A line break may not: a
// heading's date over the next line's first letter is no PAN.
func isPANSeparator(r rune) bool {
	return unicode.IsSpace(r) && r != '\n' && r != '\r' && r != '\v' && r != '\f' && r != '\u0085' && r != '\u2028' && r != '\u2029' ||
		unicode.Is(unicode.Pd, r) || r == '.' || r == '_' || r == '/'
}

// tokenAt returns the length of the token starting at v[i], or 0: what
// was replaced once is never looked into again, so redacting is
// idempotent even when a token's base32 happens to hold a PAN's shape.
func tokenAt(v []viewRune, i int) int {
	if v[i].r != 'P' {
		return 0 // every prefix starts with P; most runes end here
	}
	for _, p := range prefixes {
		n := len(p) + tokenEncoding.EncodedLen(tokenBytes)
		if i+n > len(v) {
			continue
		}
		var b strings.Builder
		for _, c := range v[i : i+n] {
			b.WriteRune(c.r)
		}
		if IsToken(b.String()) && strings.HasPrefix(b.String(), p) {
			return n
		}
	}
	return 0
}

func isASCIILetter(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }
func isASCIIDigit(r rune) bool  { return r >= '0' && r <= '9' }

// asciiWord is what a regular expression's \b counts as a word character.
func asciiWord(r rune) bool { return isASCIILetter(r) || isASCIIDigit(r) || r == '_' }
