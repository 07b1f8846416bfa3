package pii

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Redactor replaces the parties' names and every PAN in the texts of one
// judgment by their tokens, and remembers which tokens it used. It is not
// safe for concurrent use.
type Redactor struct {
	key     Key
	names   []name // longest first
	entries map[string]Entry
}

// name is a party name split into its words, with its token.
type name struct {
	words []string
	runes int
	token string
}

// NewRedactor returns a Redactor for the named parties. Names are matched
// as whole words, case-insensitively, with any white space between their
// words, and longest first, so "State Bank of India" is replaced before
// "State" could be.
func (k Key) NewRedactor(parties []string) (*Redactor, error) {
	r := &Redactor{key: k, entries: map[string]Entry{}}
	for _, p := range parties {
		original := strings.Join(strings.Fields(p), " ")
		tok, err := k.Token(KindParty, original)
		if err != nil {
			return nil, fmt.Errorf("party %q: %w", p, err)
		}
		if _, seen := r.entries[tok]; seen {
			continue
		}
		r.entries[tok] = Entry{Token: tok, Kind: KindParty, Original: original}
		words := strings.Fields(nfc(original))
		r.names = append(r.names, name{words: words, runes: utf8.RuneCountInString(strings.Join(words, " ")), token: tok})
	}
	slices.SortStableFunc(r.names, func(a, b name) int { return b.runes - a.runes })
	return r, nil
}

// Redact returns text with every PAN and every occurrence of a party's name
// replaced by its token.
func (r *Redactor) Redact(text string) string {
	text = r.redactPANs(text)
	if len(r.names) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	prevWord := false
	for i := 0; i < len(text); {
		c, size := utf8.DecodeRuneInString(text[i:])
		if !prevWord {
			if n, tok := r.matchAt(text, i); n > 0 {
				b.WriteString(text[last:i])
				b.WriteString(tok)
				i += n
				last = i
				prevWord = true
				continue
			}
		}
		prevWord = wordRune(c)
		i += size
	}
	b.WriteString(text[last:])
	return b.String()
}

// redactPANs replaces every PAN findPANs finds in text by its token.
func (r *Redactor) redactPANs(text string) string {
	spans := findPANs(text)
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, s := range spans {
		tok, err := r.key.Token(KindPAN, s.pan)
		if err != nil {
			// Only a zero Key fails here, and NewRedactor cannot make one
			// with parties; with none, say so loudly rather than leak.
			panic(err)
		}
		r.entries[tok] = Entry{Token: tok, Kind: KindPAN, Original: s.pan}
		b.WriteString(text[last:s.start])
		b.WriteString(tok)
		last = s.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// matchAt returns the length in bytes of the longest party name that
// starts at text[i:] and ends at a word boundary, and its token.
func (r *Redactor) matchAt(text string, i int) (int, string) {
	for _, n := range r.names {
		if end := matchWords(text, i, n.words); end > 0 {
			return end - i, n.token
		}
	}
	return 0, ""
}

// matchWords returns where words, separated by white space, end in text
// from i, or 0 when they do not match there as whole words.
func matchWords(text string, i int, words []string) int {
	pos := i
	for wi, w := range words {
		if wi > 0 {
			start := pos
			for pos < len(text) {
				c, size := utf8.DecodeRuneInString(text[pos:])
				if !unicode.IsSpace(c) {
					break
				}
				pos += size
			}
			if pos == start {
				return 0
			}
		}
		for _, want := range w {
			if pos >= len(text) {
				return 0
			}
			c, size := utf8.DecodeRuneInString(text[pos:])
			if !sameLetter(c, want) {
				return 0
			}
			pos += size
		}
	}
	if pos < len(text) {
		if c, _ := utf8.DecodeRuneInString(text[pos:]); wordRune(c) {
			return 0
		}
	}
	return pos
}

// Entries returns the vault entries of the tokens used so far, every party
// given and every PAN met, ordered by token.
func (r *Redactor) Entries() []Entry {
	out := make([]Entry, 0, len(r.entries))
	for _, e := range r.entries {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Token, b.Token) })
	return out
}

// Token returns the token that replaces party's name.
func (r *Redactor) Token(party string) (string, error) {
	return r.key.Token(KindParty, party)
}

// wordRune reports whether c continues a word: a letter, a digit, a
// combining mark (Devanagari vowel signs are marks) or an underscore, so
// that a name never matches inside a token.
func wordRune(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.IsMark(c) || c == '_'
}

// sameLetter compares two runes under simple case folding.
func sameLetter(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(b); f != b; f = unicode.SimpleFold(f) {
		if f == a {
			return true
		}
	}
	return false
}
