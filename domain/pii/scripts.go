package pii

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A judgment in English quotes a deposition, a dying declaration or a
// letter in the witness's own script, and the people it names are the
// ones the English text names in Latin letters: "रज्जन ने ... मारा" of the
// accused Rajjan. Such a rendering is found by sound, not by spelling:
// each name is reduced to its skeleton, the classes of its consonants in
// order, and a run of words in an Indian script whose skeletons are those
// of a person's words is a form of that person's name.
//
// The nine Brahmic scripts of Unicode (Devanagari, Bengali, Gurmukhi,
// Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam) keep ISCII's layout:
// a letter's offset in its block is the same letter's offset in
// Devanagari's, so one table reads them all.

// brahmicFirst and brahmicLast bound the nine Brahmic blocks, each 0x80
// code points long.
const brahmicFirst, brahmicLast = 0x0900, 0x0D7F

// minSkeleton is the least number of consonant classes a one-word name
// must have to be looked for in another script by its skeleton: a
// shorter one would match too many words, and is looked for by its fine
// skeleton.
const minSkeleton = 3

// brahmicClass gives the consonant class of each Devanagari offset: K
// (velars), C (palatals and sibilants: Tamil writes s and ch with one
// letter), T (retroflex and dental stops), N (nasals, anusvara), P
// (labials and v, which Bengali writes with b's letter), M, Y, R, L; 0
// for a vowel, a sign or h.
var brahmicClass = func() [0x80]byte {
	var c [0x80]byte
	set := func(class byte, offsets ...int) {
		for _, o := range offsets {
			c[o] = class
		}
	}
	set('N', 0x01, 0x02, 0x19, 0x1E, 0x23, 0x28, 0x29)
	set('K', 0x15, 0x16, 0x17, 0x18, 0x58, 0x59, 0x5A)
	set('C', 0x1A, 0x1B, 0x1C, 0x1D, 0x36, 0x37, 0x38, 0x5B)
	set('T', 0x1F, 0x20, 0x21, 0x22, 0x24, 0x25, 0x26, 0x27)
	set('P', 0x2A, 0x2B, 0x2C, 0x2D, 0x35, 0x5E)
	set('M', 0x2E)
	set('Y', 0x2F, 0x5F)
	set('R', 0x30, 0x31, 0x5C, 0x5D)
	set('L', 0x32, 0x33, 0x34)
	return c
}()

// isBrahmic reports whether r is a letter or sign of a Brahmic script.
func isBrahmic(r rune) bool { return r >= brahmicFirst && r <= brahmicLast }

// brahmicOwn are the letters and signs of one Brahmic script that the
// shared layout does not give: Gurmukhi's tippi (a nasal), Assamese ra
// and wa, Malayalam's chillu letters (a consonant with no vowel: ർ).
var brahmicOwn = map[rune]byte{0x0A70: 'N', 0x09F0: 'R', 0x09F1: 'P',
	0x0D7A: 'N', 0x0D7B: 'N', 0x0D7C: 'R', 0x0D7D: 'L', 0x0D7E: 'L', 0x0D7F: 'K'}

// classOf returns the consonant class of a letter of a Brahmic script.
func classOf(r rune) byte {
	if c, ok := brahmicOwn[r]; ok {
		return c
	}
	return brahmicClass[(r-brahmicFirst)%0x80]
}

// brahmicSkeleton returns the skeleton of a word in a Brahmic script, or
// in the Arabic script Urdu and Kashmiri are written in.
func brahmicSkeleton(w string) string {
	rs := []rune(w)
	var b []byte
	for k, r := range rs {
		switch {
		case isBrahmic(r) && classOf(r) == 'Y' && k > 0 && isBrahmic(rs[k-1]) && (classOf(rs[k-1]) != 0 || offset(rs[k-1]) == 0x4D):
			// ya after a consonant is a glide, which Latin writes as a
			// vowel or not at all (സേവ്യർ, Xavier; देवयानी, Devyani)
		case isBrahmic(r):
			b = append(b, classAt(rs, k))
		case isArabic(r):
			b = append(b, arabicClass(rs, k))
		}
	}
	return collapse(b)
}

// looseSkeleton returns the skeleton of a Brahmic word without the ya
// that follows a vowel before a consonant or the word's end, which Latin
// often writes as the vowel i (നായർ, Nair): a second skeleton a word is
// matched by. It is "" when the word has no such ya.
func looseSkeleton(w string) string {
	rs := []rune(w)
	kept := rs[:0:0]
	for k, r := range rs {
		if isBrahmic(r) && classOf(r) == 'Y' && k > 0 && isBrahmic(rs[k-1]) && brahmicVowel(offset(rs[k-1])) && (k+1 == len(rs) || !brahmicVowel(offset(rs[k+1]))) {
			continue
		}
		kept = append(kept, r)
	}
	if len(kept) == len(rs) {
		return ""
	}
	return brahmicSkeleton(string(kept))
}

// classAt returns the consonant class of the Brahmic letter rs[k] where
// it stands: the vocalic r (ऋ, ृ: कृष्ण, Krishna) is an r; the anusvara
// is an m before p, b or m (संपत, Sampath; not before v: भंवर, Bhanwar)
// and at the end of a word in
// Telugu, Kannada and Malayalam, which write a final m with it (గడ్డం,
// Gaddam).
func classAt(rs []rune, k int) byte {
	switch o := offset(rs[k]); {
	case vocalicR(o):
		return 'R'
	case o == 0x02 && k+1 < len(rs) && isBrahmic(rs[k+1]) && offset(rs[k+1]) >= 0x2A && offset(rs[k+1]) <= 0x2E:
		return 'M'
	case o == 0x02 && k+1 == len(rs) && rs[k] >= 0x0C00:
		return 'M'
	}
	return classOf(rs[k])
}

// vocalicR reports whether the Devanagari offset o is the vowel r, as a
// letter or a sign.
func vocalicR(o rune) bool { return o == 0x0B || o == 0x60 || o == 0x43 || o == 0x44 }

// isArabic reports whether r is a letter of the Arabic block.
func isArabic(r rune) bool { return r >= 0x0600 && r <= 0x06FF }

// arabicClasses gives the consonant class of the letters of Urdu's
// alphabet; alef, ain, he and the vowel signs have none.
var arabicClasses = map[rune]byte{
	'ب': 'P', 'پ': 'P', 'ف': 'P', 'ت': 'T', 'ٹ': 'T', 'د': 'T', 'ڈ': 'T', 'ط': 'T',
	'ث': 'C', 'ج': 'C', 'چ': 'C', 'ذ': 'C', 'ز': 'C', 'ژ': 'C', 'س': 'C', 'ش': 'C', 'ص': 'C', 'ض': 'C', 'ظ': 'C',
	'خ': 'K', 'غ': 'K', 'ق': 'K', 'ک': 'K', 'ك': 'K', 'گ': 'K',
	'ر': 'R', 'ڑ': 'R', 'ل': 'L', 'م': 'M', 'ن': 'N', 'ں': 'N',
}

// arabicClass returns the class of the Arabic-script letter rs[k]: waw
// and ye are consonants (v, y) at a word's start and before an alef
// (نواز, Nawaz; زویا, Zoya), and vowels (o, u, i, e) elsewhere within.
func arabicClass(rs []rune, k int) byte {
	switch rs[k] {
	case 'و':
		if arabicGlide(rs, k) {
			return 'P'
		}
		return 0
	case 'ی', 'ي', 'ے':
		if arabicGlide(rs, k) {
			return 'Y'
		}
		return 0
	}
	return arabicClasses[rs[k]]
}

// arabicGlide reports whether the waw or ye rs[k] is a consonant: first
// in its word or before an alef.
func arabicGlide(rs []rune, k int) bool {
	return k == 0 || k+1 < len(rs) && isAlef(rs[k+1])
}

// isAlef reports whether r is an alef, with or without madda.
func isAlef(r rune) bool { return r == 'ا' || r == 'آ' }

// latinDigraphs are the Latin spellings of one consonant, and of ज्ञ
// (dny in Marathi, gy in Hindi: Dnyaneshwar, Gyan).
var latinDigraphs = strings.NewReplacer("dny", "jn", "gny", "jn", "gy", "jn", "chh", "c", "ch", "c", "sh", "c", "kh", "k", "gh", "k", "ph", "p",
	"bh", "p", "th", "t", "dh", "t", "jh", "c")

// latinClass gives the consonant class of a Latin letter; 0 for a vowel
// or h.
var latinClass = map[rune]byte{'k': 'K', 'g': 'K', 'q': 'K', 'c': 'C', 'j': 'C', 'z': 'C', 's': 'C', 'x': 'C',
	't': 'T', 'd': 'T', 'n': 'N', 'p': 'P', 'b': 'P', 'f': 'P', 'v': 'P', 'w': 'P', 'm': 'M', 'y': 'Y', 'r': 'R', 'l': 'L'}

// latinSkeleton returns the skeleton of a word in Latin letters; a final
// y is a vowel ("Pinky").
func latinSkeleton(w string) string {
	w = strings.TrimSuffix(latinDigraphs.Replace(strings.ToLower(w)), "y")
	var b []byte
	for i, r := range w {
		if r == 'y' && i > 0 && latinClass[rune(w[i-1])] != 0 {
			continue // a glide after a consonant, as ya after a virama
		}
		b = append(b, latinClass[r])
	}
	return collapse(b)
}

// collapse drops the vowels of a skeleton, a velar after a nasal (Singh,
// सिंह), a class repeated (Rajjan, रज्जन), and a stop before a sibilant
// (Lakshmi, लक्ष्मी, and Tamil's லட்சுமி, which writes ksh as ṭc).
func collapse(b []byte) string {
	out := b[:0]
	for _, c := range b {
		switch {
		case c == 0:
		case c == 'K' && len(out) > 0 && out[len(out)-1] == 'N':
		case len(out) > 0 && out[len(out)-1] == c:
		case c == 'C' && len(out) > 0 && (out[len(out)-1] == 'K' || out[len(out)-1] == 'T'):
			out[len(out)-1] = 'C'
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// A name of one or two consonant classes ("Biji", "Raju") is looked for
// by its fine skeleton, which marks its vowels too (V, runs of vowels as
// one, the rest collapsed as a skeleton is): "PVCV" of Biji and ਬੀਜੀ, not
// "PVC" of बीच. A Brahmic consonant carries the vowel a unless a vowel
// sign or a virama follows it, or it ends the word (Hindi and its
// neighbours drop a final a: राम is Ram).

// brahmicVowel reports whether the Devanagari offset o is a vowel, a
// vowel sign, or a nasal sign after a vowel.
func brahmicVowel(o rune) bool {
	return o >= 0x04 && o <= 0x14 || o >= 0x3E && o <= 0x4C || o >= 0x60 && o <= 0x63 || o == 0x55 || o == 0x56 || o == 0x57
}

// brahmicFine returns the fine skeleton of a word in a Brahmic script.
func brahmicFine(w string) string {
	rs := []rune(w)
	var b []byte
	for k, r := range rs {
		if !isBrahmic(r) {
			continue
		}
		o := offset(r)
		switch {
		case vocalicR(o):
			b = append(b, 'R', 'V')
		case brahmicVowel(o):
			b = append(b, 'V')
		case classOf(r) != 0 || o == 0x39:
			b = append(b, classAt(rs, k))
			if k+1 < len(rs) && carriesA(offset(rs[k+1])) {
				b = append(b, 'V') // the inherent a
			}
		}
	}
	return collapse(b)
}

// arabicFine returns the fine skeleton of a word in the Arabic script,
// whose long vowels alone are written: alef, and waw and ye within a word
// where they are no consonant (arabicClass), or a final he (زویا, Zoya,
// CVYV; عائشہ).
func arabicFine(w string) string {
	rs := []rune(w)
	var b []byte
	for k, r := range rs {
		switch c := arabicClass(rs, k); {
		case c != 0:
			b = append(b, c)
		case isAlef(r) || r == 'و' || r == 'ی' || r == 'ي' || r == 'ے' || r == 'ہ' && k == len(rs)-1:
			b = append(b, 'V')
		}
	}
	return collapse(b)
}

// wordFine returns the fine skeleton of a word in a Brahmic or the
// Arabic script.
func wordFine(w string) string {
	if r, _ := utf8.DecodeRuneInString(w); isArabic(r) {
		return arabicFine(w)
	}
	return brahmicFine(w)
}

// offset is r's offset in its Brahmic block, the Devanagari letter it is.
func offset(r rune) rune { return (r - brahmicFirst) % 0x80 }

// carriesA reports whether a consonant followed by the sign at offset
// next keeps its inherent a: unless a vowel sign, a virama or a nukta
// follows it.
func carriesA(next rune) bool { return !brahmicVowel(next) && next != 0x4D && next != 0x3C }

// latinFine returns the fine skeleton of a word in Latin letters.
func latinFine(w string) string {
	w = latinDigraphs.Replace(strings.ToLower(w))
	var b []byte
	for i, r := range w {
		switch {
		case strings.ContainsRune("aeiou", r) || r == 'y' && i == len(w)-1:
			b = append(b, 'V')
		default:
			b = append(b, latinClass[r])
		}
	}
	return collapse(b)
}

// aliasSplit parts a name from its alias: "Jaswant Singh @ Jassa".
var aliasSplit = regexp.MustCompile(`(?i)\s*(?:@|\balias\b|\burf\b)\s*`)

// scriptWord is a word of a text in a Brahmic script, its skeleton, its
// loose skeleton (looseSkeleton) and its fine skeleton.
type scriptWord struct {
	text, skeleton, loose, fine string
	start, end                  int
}

// is reports whether the word's skeleton, or its loose one, is s.
func (w scriptWord) is(s string) bool { return w.skeleton == s || w.loose != "" && w.loose == s }

// isScript reports whether r is a letter or sign of a word in a Brahmic
// or the Arabic script.
func isScript(r rune) bool {
	return (isBrahmic(r) || isArabic(r)) && !unicode.IsPunct(r) && !unicode.IsDigit(r)
}

// scriptWords returns the words of text in Brahmic scripts and the
// Arabic script, in order.
func scriptWords(text string) []scriptWord {
	var out []scriptWord
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isScript(r) {
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !isScript(r) {
				break
			}
			j += size
		}
		if s := brahmicSkeleton(text[i:j]); s != "" {
			out = append(out, scriptWord{text: text[i:j], skeleton: s, loose: looseSkeleton(text[i:j]), fine: wordFine(text[i:j]), start: i, end: j})
		}
		i = j
	}
	return out
}

// scriptForms returns the renderings in words of a Brahmic script of a
// name in Latin letters: each run of words, next to each other in the
// text, whose skeletons are those of the name's full words (initials
// aside), each once.
func scriptForms(text string, words []scriptWord, name string) []string {
	if parts := aliasSplit.Split(name, -1); len(parts) > 1 {
		var out []string
		for _, p := range parts {
			out = append(out, scriptForms(text, words, p)...)
		}
		return out
	}
	var want []string
	for _, w := range strings.Fields(name) {
		if !isInitials(w) {
			want = append(want, latinSkeleton(strings.TrimSuffix(w, ".")))
		}
	}
	if len(want) == 1 && len(want[0]) < minSkeleton {
		fine := latinFine(strings.TrimSuffix(name, "."))
		if len(want[0]) < 2 && len(fine) < minFine {
			return nil
		}
		return fineForms(words, fine)
	}
	if len(want) == 1 {
		return prefixForms(words, want[0])
	}
	if len(want) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for i := 0; i+len(want) <= len(words); i++ {
		if run, ok := matchRun(text, words[i:i+len(want)], want); ok && !seen[run] {
			seen[run] = true
			out = append(out, run)
		}
	}
	for _, w := range joinedForms(words, want) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// joinedForms returns the words that write a name of several Latin words
// as one, as South Indian scripts join a given name to its last part
// (ಸುಬ್ಬರಾವ್ of Subba Rao, వెంకటరమణ of Venkata Ramana): each word whose
// skeleton is the name's words' skeletons joined, glued to an honorific
// or a case ending (gluedSuffix) or not, each once.
func joinedForms(words []scriptWord, want []string) []string {
	joined := collapse([]byte(strings.Join(want, "")))
	return wordsWhere(words, func(w scriptWord) bool {
		return w.is(joined) || gluedSuffix(w.skeleton, joined)
	})
}

// matchRun returns the text of words when their skeletons are want and
// only white space parts them. The last word may carry more after the
// name, glued to it as Indian languages glue an honorific and a case
// ending ("হরিপদবাবুকে", Haripada-babu-ke): up to maxGlued classes, when
// the name's word has minSkeleton classes or more.
func matchRun(text string, words []scriptWord, want []string) (string, bool) {
	for k, w := range words {
		if k > 0 && strings.TrimSpace(text[words[k-1].end:w.start]) != "" {
			return "", false
		}
		last := k == len(words)-1
		if !w.is(want[k]) && !(last && gluedSuffix(w.skeleton, want[k])) {
			return "", false
		}
	}
	return text[words[0].start:words[len(words)-1].end], true
}

// maxGlued is how many consonant classes an honorific and a case ending
// glued to a name add: babu and ke, ji and ne.
const maxGlued = 3

// gluedSuffix reports whether skeleton is name's and at most maxGlued more.
func gluedSuffix(skeleton, name string) bool {
	return len(name) >= minSkeleton && strings.HasPrefix(skeleton, name) && len(skeleton)-len(name) <= maxGlued
}

// minFine is the least length of the fine skeleton of a name of one
// consonant class looked for ("Bappa", PVPV; not "Om").
const minFine = 4

// prefixForms returns the words whose skeleton is the name's, glued to
// an honorific or a case ending (gluedSuffix), or the start of it, of
// minSkeleton classes or more: the short form a quote calls a person by
// (مظہر of Mazharuddin), each once.
func prefixForms(words []scriptWord, name string) []string {
	return wordsWhere(words, func(w scriptWord) bool {
		return w.is(name) || gluedSuffix(w.skeleton, name) ||
			len(w.skeleton) >= minSkeleton && strings.HasPrefix(name, w.skeleton)
	})
}

// fineForms returns the words whose fine skeleton is fine, each once.
func fineForms(words []scriptWord, fine string) []string {
	return wordsWhere(words, func(w scriptWord) bool { return w.fine == fine })
}

// wordsWhere returns the text of each word that match takes, each once.
func wordsWhere(words []scriptWord, match func(scriptWord) bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		if match(w) && !seen[w.text] {
			seen[w.text] = true
			out = append(out, w.text)
		}
	}
	return out
}
