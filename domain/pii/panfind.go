package pii

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// viewRune is one rune of a text as PANs are looked for in it, with the
// bytes of the original text it came from. The text is seen in NFKC (a
// full-width Ａ or a mathematical 𝐀 is an A), with its format characters
// (Unicode Cf, such as a zero-width space) left out, every decimal digit
// of any script read as its ASCII digit (Devanagari ४ is 4), and the
// Greek and Cyrillic look-alikes of Latin letters read as those letters
// (confusable). A PAN disguised by any of these is still found, and
// replaced in the original text, disguise and all.
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
		if r < utf8.RuneSelf {
			v = append(v, viewRune{r, i, i + size})
			continue
		}
		for _, n := range norm.NFKC.String(string(r)) {
			if !unicode.Is(unicode.Cf, n) {
				v = append(v, viewRune{seen(n), i, i + size})
			}
		}
	}
	return v
}

// seen is how r is read in a PAN's view: a decimal digit as its ASCII
// digit, a look-alike letter as the Latin letter or digit it looks like.
func seen(r rune) rune {
	if d, ok := digitValue(r); ok {
		return '0' + d
	}
	if c, ok := confusable[r]; ok {
		return c
	}
	return r
}

// digitValue returns the value of a decimal digit of any script. Unicode
// keeps each script's digits 0 to 9 in consecutive code points, so the
// value is the distance from the first digit of r's run, modulo ten (the
// mathematical digits run in five sets of ten).
func digitValue(r rune) (rune, bool) {
	if r < utf8.RuneSelf || !unicode.IsDigit(r) {
		return 0, false
	}
	zero := r
	for unicode.IsDigit(zero-1) && r-zero < 60 {
		zero--
	}
	return (r - zero) % 10, true
}

// panSpan is a PAN found in a text: the original bytes [start, end) it
// covers and the PAN in canonical form.
type panSpan struct {
	start, end int
	pan        string
}

// findPANs returns the PANs of text, in order, never overlapping, and none
// inside a token. A PAN's ten characters are five letters, four digits and
// a letter in the view of the text (panView), and separators may part any
// two of them (gap). It is a PAN:
//
//   - when the ten are written together as a word of their own, in any
//     case, whatever its fourth letter: the rule from before, for which an
//     over-eager replacement costs nothing;
//   - otherwise its fourth letter must be a holder type and its first five
//     no month. Glued to a word before it or to letters after it, the ten
//     must be written together in upper case (PANABCPK1234Z holds
//     ABCPK1234Z, "SCHEDULE 2019 A" none). Standing apart, its five
//     letters must be written together or each apart ("A B C P K"), and
//     either the word "PAN" or "Permanent Account Number" stands shortly
//     before it, or its five letters are no English word, in any case:
//     "abcpk 1234 z" is a PAN, "ORDER 2019 A" and "dated 2015 e" are not.
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

// panShape is a PAN-shaped run of a view: where its ten characters are,
// and whether separators part any of them.
type panShape struct {
	at     [10]int
	end    int
	parted bool
}

// shapeAt reads a PAN-shaped run starting at v[i].
func shapeAt(v []viewRune, i int) (panShape, bool) {
	var s panShape
	j := i
	for k := range 10 {
		if k > 0 {
			g := gap(v, j)
			s.parted = s.parted || g > 0
			j += g
		}
		if j >= len(v) {
			return s, false
		}
		digit := k >= 5 && k <= 8
		if digit && !isASCIIDigit(v[j].r) || !digit && !isASCIILetter(v[j].r) {
			return s, false
		}
		s.at[k] = j
		j++
	}
	s.end = j
	return s, true
}

// panAt reports whether a PAN starts at v[i], and where it ends.
func panAt(v []viewRune, i int) (end int, pan string, ok bool) {
	if !isASCIILetter(v[i].r) {
		return 0, "", false
	}
	s, ok := shapeAt(v, i)
	if !ok {
		return 0, "", false
	}
	var b strings.Builder
	for _, k := range s.at {
		b.WriteRune(unicode.ToUpper(v[k].r))
	}
	pan = b.String()
	gluedBefore := i > 0 && asciiWord(v[i-1].r)
	gluedAfter := s.end < len(v) && asciiWord(v[s.end].r)
	if !s.parted && !gluedBefore && !gluedAfter {
		return s.end, pan, true
	}
	if inGSTIN(v, i, s.end) {
		return s.end, pan, true
	}
	if strings.IndexByte(panHolderTypes, pan[3]) < 0 || months[pan[:5]] {
		return 0, "", false
	}
	if gluedBefore || gluedAfter && isASCIILetter(v[s.end].r) {
		return s.end, pan, !s.parted && upper(v, s)
	}
	if !evenlyParted(v, s) {
		return 0, "", false
	}
	return s.end, pan, labelled(v, i) || !englishLetters(v, s)
}

// inGSTIN reports whether the run v[i:end] is the PAN inside a GSTIN:
// two digits of a state's code before it and an entity's character, a Z
// (or any letter or digit, as it is mistyped) and a check character
// after it, the fifteen a word of their own. There the PAN is one in any
// case, whatever its fourth letter and however its ten are parted
// ("19aafmm4428r1zk", "07AAJCS.6092.P1ZW"): the frame is evidence enough.
func inGSTIN(v []viewRune, i, end int) bool {
	if i < 2 || !isASCIIDigit(v[i-1].r) || !isASCIIDigit(v[i-2].r) || i > 2 && asciiWord(v[i-3].r) {
		return false
	}
	if end+3 > len(v) || end+3 < len(v) && asciiWord(v[end+3].r) {
		return false
	}
	for _, c := range v[end : end+3] {
		if !isASCIILetter(c.r) && !isASCIIDigit(c.r) {
			return false
		}
	}
	return true
}

// evenlyParted reports whether the five letters of a run are written
// together, each apart ("A B C P K"), or in groups none of which is an
// English word ("VWX PY"), as a PAN is written, spread or grouped; a run
// whose letters come from words of prose ("re Act 1961 a", "IN RE ACT
// 1961 A") is none of these.
func evenlyParted(v []viewRune, s panShape) bool {
	if s.at[4]-s.at[0] == 4 {
		return true
	}
	apart := true
	for k := 1; k < 5; k++ {
		apart = apart && s.at[k]-s.at[k-1] > 1
	}
	return apart || groupsForeign(v, s)
}

// groupsForeign reports whether every group of two letters or more that
// the five letters of a run fall into is no English word.
func groupsForeign(v []viewRune, s panShape) bool {
	var b strings.Builder
	for k := range 5 {
		if k > 0 && s.at[k]-s.at[k-1] > 1 {
			if b.Len() > 1 && isEnglish(b.String()) {
				return false
			}
			b.Reset()
		}
		b.WriteRune(v[s.at[k]].r)
	}
	return b.Len() < 2 || !isEnglish(b.String())
}

// upper reports whether the letters of a PAN-shaped run are upper case,
// as a PAN is written and an ordinary word is not.
func upper(v []viewRune, s panShape) bool {
	for _, k := range []int{0, 1, 2, 3, 4, 9} {
		if !unicode.IsUpper(v[s.at[k]].r) {
			return false
		}
	}
	return true
}

// englishLetters reports whether the five letters of a run are written
// together as one English word ("ORDER 2019 A", "dated 2015 e"), which a
// PAN's letters are not: they are three of a series, the holder's type and
// an initial.
func englishLetters(v []viewRune, s panShape) bool {
	if s.at[4]-s.at[0] != 4 {
		return false
	}
	var b strings.Builder
	for k := s.at[0]; k <= s.at[4]; k++ {
		b.WriteRune(v[k].r)
	}
	return isEnglish(b.String())
}

// labelled reports whether "PAN" or "Permanent Account Number" stands
// shortly before v[i].
func labelled(v []viewRune, i int) bool {
	var b strings.Builder
	for _, c := range v[max(0, i-40):i] {
		b.WriteRune(unicode.ToUpper(c.r))
	}
	before := b.String()
	if strings.Contains(before, "PERMANENT ACCOUNT") {
		return true
	}
	for k := strings.Index(before, "PAN"); k >= 0; {
		end := k + 3
		if (k == 0 || !asciiWord(rune(before[k-1]))) && (end == len(before) || !asciiWord(rune(before[end]))) {
			return true
		}
		next := strings.Index(before[end:], "PAN")
		if next < 0 {
			break
		}
		k = end + next
	}
	return false
}

// months are the five-letter months: "31ST MARCH 2005 P.C." is a date
// and an abbreviation, no PAN split by spaces.
var months = map[string]bool{"MARCH": true, "APRIL": true}

// maxGap is how many separators other than white space may part two
// characters of a PAN ("ABCPK -- 1234 -- Z"); white space is not counted,
// so a double space, a tab or a table's line break and indent part them
// too, but at most one line break and maxGapRunes runes in all.
const (
	maxGap      = 4
	maxGapRunes = 80
)

// gap returns how many runes of separators start at v[j], or a length
// past the view's when more part the next character than a PAN allows.
func gap(v []viewRune, j int) int {
	n, breaks, marks := 0, 0, 0
	for j+n < len(v) && isPANSeparator(v[j+n].r) {
		switch r := v[j+n].r; {
		case isLineBreak(r):
			breaks++
		case !unicode.IsSpace(r):
			marks++
		}
		n++
	}
	if marks > maxGap || breaks > 1 || n > maxGapRunes {
		return maxGapRunes + len(v) // too wide: no character follows within reach
	}
	return n
}

// isPANSeparator reports whether r may part a PAN's characters: any
// white space, dash or punctuation, none of which is a letter or digit.
func isPANSeparator(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
}

func isLineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == '\u0085' || r == '\u2028' || r == '\u2029'
}

// tokenAt returns the length of the token starting at v[i], or 0: what
// was replaced once is never looked into again, so redacting is
// idempotent even when a token's base32 happens to hold a PAN's shape.
func tokenAt(v []viewRune, i int) int {
	if v[i].r != 'P' && v[i].r != 'A' {
		return 0 // every prefix starts with P or A; most runes end here
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
