package pii

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// People is every person and address a judgment names that may not be
// served in clear: the parties listed with it, the persons its text names
// (Litigants), each with the other forms its name is written in, and the
// addresses it gives.
type People struct {
	Persons   []Person
	Addresses []Address
}

// Address is an address as a text gives it, and the shorter forms the
// text may name the place by: the house's or village's name of its first
// part ("Rose Cottage", "Lingdong" of "Village Lingdong, P.O. ...").
type Address struct {
	Text  string
	Forms []string
}

// Person is one person's name and the other forms it may be written in:
// its words in another order ("SHARMA Rajesh Kumar"), by initials ("R.K.
// Sharma", "Sharma R.K."), and each of its words that is no English word
// alone ("Sharma"), except the words of a counsel's or judge's name; and
// its renderings in an Indian script the text quotes (scriptForms).
type Person struct {
	Name  string
	Forms []string
	// Listed is set for a party listed with the judgment, whose vault
	// entry is kept whether or not the text names it.
	Listed bool
}

// FindPeople returns the people of a judgment: its listed parties first,
// then the persons and addresses its text names.
func FindPeople(text string, judges, parties []string) People {
	d := detect(text, judges)
	var p People
	seen := map[string]bool{}
	for i, n := range append(append([]string(nil), parties...), d.found...) {
		key := strings.ToLower(strings.Join(strings.Fields(n), " "))
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		p.Persons = append(p.Persons, Person{Name: n, Forms: d.outsideJudges(d.forms(strings.Fields(n))), Listed: i < len(parties)})
	}
	p.Persons = append(p.Persons, d.parts(p.Persons, seen)...)
	if words := scriptWords(text); len(words) > 0 {
		for i := range p.Persons {
			p.Persons[i].Forms = append(p.Persons[i].Forms, scriptForms(text, words, p.Persons[i].Name)...)
		}
	}
	for _, a := range append(d.addresses(), d.hindiAddresses...) {
		p.Addresses = append(p.Addresses, Address{Text: a, Forms: placeNames(a)})
	}
	return p
}

// outsideJudges returns the forms that are no run of words of a listed
// judge's name: a party's initialled form ("N. Baruah" of Nagen Baruah)
// is left where it is part of the bench's ("D. N. Baruah Hazarika").
func (d *detector) outsideJudges(forms []string) []string {
	out := forms[:0]
	for _, f := range forms {
		needle := spacedWords(f)
		if !slices.ContainsFunc(d.judges, func(j string) bool { return strings.Contains(j, needle) }) {
			out = append(out, f)
		}
	}
	return out
}

// spacedWords writes a name lower-cased, each initial and word parted
// from the next by one space, with a space before and after: " d. n.
// baruah " of "D.N. Baruah", so that one run of words is found in another
// by strings.Contains.
func spacedWords(name string) string {
	return " " + strings.Join(strings.Fields(strings.ReplaceAll(strings.ToLower(name), ".", ". ")), " ") + " "
}

// personal reports whether words are a person's name: each a name word
// (capitalised or initials, in any case) and none a word of an
// organisation or of procedure, so "State Bank of India" gets no forms.
func personal(words []string) bool {
	if len(words) < 2 || len(words) > nameWordMax {
		return false
	}
	for _, w := range words {
		key := strings.ToLower(strings.TrimSuffix(w, "."))
		if organisationWords[key] || notNameWords[key] || !nameWordShape(w) {
			return false
		}
	}
	return true
}

// nameWordShape reports whether w is shaped like a word of a name, in
// whatever case it is written.
func nameWordShape(w string) bool {
	if w == "" {
		return false
	}
	up := strings.ToUpper(w[:1]) + w[1:]
	return isInitials(w) || fullPattern.MatchString(up) || gluedPattern.MatchString(up)
}

// forms returns the other forms of a person's name: its full words in
// every other order (up to four of them), and by initials.
func (d *detector) forms(words []string) []string {
	if !personal(words) {
		return nil
	}
	var full []string
	for _, w := range words {
		if !isInitials(w) {
			full = append(full, strings.TrimSuffix(w, "."))
		}
	}
	var out []string
	if len(full) >= 2 && len(full) <= 4 {
		permute(full, 0, func(p []string) { out = append(out, strings.Join(p, " ")) })
	}
	if len(full) >= 2 {
		out = append(out, initialForms(full)...)
	}
	return out
}

// permute calls fn with every order of words[k:] after words[:k].
func permute(words []string, k int, fn func([]string)) {
	if k == len(words) {
		fn(words)
		return
	}
	for i := k; i < len(words); i++ {
		words[k], words[i] = words[i], words[k]
		permute(words, k+1, fn)
		words[k], words[i] = words[i], words[k]
	}
}

// initialForms are the ways a name is written by the initials of all its
// words but the last: "R.K. Sharma", "R. K. Sharma", "R K Sharma", "RK
// Sharma", "Sharma R.K.", "Sharma, R.K.", and the first word whole with
// the middle ones by initials, "Rajesh K. Sharma".
func initialForms(full []string) []string {
	last := full[len(full)-1]
	var dotted, spaced, bare []string
	for _, w := range full[:len(full)-1] {
		i := firstLetter(w)
		dotted = append(dotted, i+".")
		bare = append(bare, i)
	}
	spaced = dotted
	out := []string{
		strings.Join(dotted, "") + " " + last,
		strings.Join(spaced, " ") + " " + last,
		strings.Join(bare, " ") + " " + last,
		strings.Join(bare, "") + " " + last,
		last + " " + strings.Join(dotted, ""),
		last + ", " + strings.Join(dotted, ""),
		last + " " + strings.Join(bare, ""),
		strings.Join(dotted, "") + last,
	}
	if len(full) > 2 {
		out = append(out, full[0]+" "+strings.Join(dotted[1:], " ")+" "+last)
	}
	return out
}

// firstLetter is the first letter of w, as a string.
func firstLetter(w string) string {
	for _, r := range w {
		return string(r)
	}
	return ""
}

// parts returns, as persons of their own, the given names of persons'
// names, which stand alone in a text as the person ("Sunita said"): each
// word but the last (a surname such as Singh alone names nobody, and is
// in many a cited case's name), at least three letters, no abbreviated
// given name ("Mohd"), no English word the text also writes in lower
// case, and none of a counsel's or judge's name nor of a cited case's
// party's (the Singh of "Mangal Singh Baiga" alone would be tokenized in
// "Jarnail Singh v. State").
func (d *detector) parts(persons []Person, seen map[string]bool) []Person {
	var out []Person
	for _, p := range persons {
		words := strings.Fields(p.Name)
		if !personal(words) {
			continue
		}
		for _, w := range words[:len(words)-1] {
			w = strings.TrimSuffix(w, ".")
			key := strings.ToLower(w)
			if isInitials(w+".") || len([]rune(w)) < 3 || isEnglish(w) && d.writesLower(key) || d.clear[key] || d.judgeWord(key) || d.citedWord(key) || nameAbbreviations[key+"."] || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, Person{Name: w})
		}
	}
	return out
}

// writesLower reports whether the text writes the lower-case word w in
// lower case somewhere, as a word of its own: a given name that is an
// English word ("Dimple", "Rose") is tokenized alone only where the text
// never uses the word as a word, since a form is matched in any case.
func (d *detector) writesLower(w string) bool {
	for from := 0; ; {
		i := strings.Index(d.text[from:], w)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(d.text[:i])
		after, _ := utf8.DecodeRuneInString(d.text[i+len(w):])
		if (i == 0 || !nameRune(before)) && !nameRune(after) {
			return true
		}
		from = i + 1
	}
}

// judgeWord reports whether w is a word of a counsel's or judge's name
// met, with or without its full stop ("Mohd" of "Syed Mohd. Haider").
func (d *detector) judgeWord(w string) bool {
	for n := range d.clear {
		for _, x := range strings.Fields(n) {
			if x = strings.TrimSuffix(x, "."); x == w || strings.HasSuffix(x, "."+w) {
				return true
			}
		}
	}
	return false
}
