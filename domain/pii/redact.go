package pii

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Redactor replaces the parties' names, the addresses and every PAN in
// the texts of one judgment by their tokens, and remembers which tokens it
// used. It is not safe for concurrent use.
type Redactor struct {
	key Key
	// names holds every name and form, by the lower case of its first
	// letter, longest first.
	names   map[rune][]name
	entries map[string]Entry
	// unused holds the entries of names found in a text, which are
	// entries only once a text uses them.
	unused map[string]Entry
}

// name is a party name, one of its forms or an address, split into its
// words, with its token.
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
	p := People{Persons: make([]Person, len(parties))}
	for i, n := range parties {
		p.Persons[i] = Person{Name: n, Listed: true}
	}
	return k.PeopleRedactor(p)
}

// PeopleRedactor returns a Redactor for people: each person's name and
// every form of it get the token of the name, each address its own. A
// listed person's entry is one from the start, the others' once a text
// uses their token.
func (k Key) PeopleRedactor(p People) (*Redactor, error) {
	r := &Redactor{key: k, names: map[rune][]name{}, entries: map[string]Entry{}, unused: map[string]Entry{}}
	for _, person := range p.Persons {
		tok, err := r.add(KindParty, person.Name, "", person.Listed)
		if err != nil {
			return nil, err
		}
		for _, f := range person.Forms {
			if _, err := r.add(KindParty, f, tok, false); err != nil {
				return nil, err
			}
		}
	}
	for _, a := range p.Addresses {
		tok, err := r.add(KindAddress, a.Text, "", false)
		if err != nil {
			return nil, err
		}
		for _, f := range a.Forms {
			if _, err := r.add(KindAddress, f, tok, false); err != nil {
				return nil, err
			}
		}
	}
	for c := range r.names {
		slices.SortStableFunc(r.names[c], func(a, b name) int { return b.runes - a.runes })
	}
	return r, nil
}

// add makes original matched: by its own token, or by tok when it is a
// form of the name tok stands for. It returns the token.
func (r *Redactor) add(kind Kind, original, tok string, listed bool) (string, error) {
	original = strings.Join(strings.Fields(original), " ")
	if tok == "" {
		t, err := r.key.Token(kind, original)
		if err != nil {
			return "", fmt.Errorf("%s %q: %w", kind, original, err)
		}
		tok = t
		e := Entry{Token: tok, Kind: kind, Original: original}
		if _, seen := r.entries[tok]; !seen && listed {
			r.entries[tok] = e
			delete(r.unused, tok)
		} else if !seen {
			r.unused[tok] = e
		}
	}
	words := strings.Fields(nfc(original))
	if len(words) == 0 {
		return tok, nil
	}
	first, _ := utf8.DecodeRuneInString(words[0])
	c := unicode.ToLower(first)
	r.names[c] = append(r.names[c], name{words: words, runes: utf8.RuneCountInString(strings.Join(words, " ")), token: tok})
	return tok, nil
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
				r.use(tok)
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

// RedactPANs returns text with every PAN replaced by its token and
// nothing else: the text persons and addresses are looked for in, so that
// an address or a name found there is matched as the text reads once its
// PANs are tokens.
func (r *Redactor) RedactPANs(text string) string { return r.redactPANs(text) }

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
	c, _ := utf8.DecodeRuneInString(text[i:])
	for _, n := range r.names[unicode.ToLower(c)] {
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
		for k, want := range w {
			if pos >= len(text) {
				return 0
			}
			if k > 0 {
				pos += lineHyphen(text, pos) // "Raj-\nesh" is Rajesh broken at a line's end
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

// use makes the entry of tok one of the entries, if it is not yet.
func (r *Redactor) use(tok string) {
	if e, ok := r.unused[tok]; ok {
		r.entries[tok] = e
		delete(r.unused, tok)
	}
}

// lineHyphen returns the length of the hyphen and line break that split a
// word at text[pos] across two lines ("-\n", with spaces around the
// break), or 0.
func lineHyphen(text string, pos int) int {
	if pos >= len(text) || text[pos] != '-' {
		return 0
	}
	i := pos + 1
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
		i++
	}
	if i >= len(text) || text[i] != '\n' {
		return 0
	}
	i++
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i - pos
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

// Token returns the token that replaces party's name, whose entry it
// makes one of the entries.
func (r *Redactor) Token(party string) (string, error) {
	tok, err := r.key.Token(KindParty, strings.Join(strings.Fields(party), " "))
	if err == nil {
		r.use(tok)
	}
	return tok, err
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
