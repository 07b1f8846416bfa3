package judgment_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
)

// The sets are evaluations of Tokenize: synthetic judgments written by
// someone who had not read the tokenizer's rules, each with every person,
// address and PAN in it annotated. TestHeldbackRecall reports how many of
// them Tokenize replaces and fails for each one that survives; its failure
// messages name only the judgment, the class and the family, so that the
// score can be read without reading the set. Set QUARRY_HELDBACK_SHOW=1 to
// see the surviving text as well.
//
// Every set was written blind, by someone who had read none of the rules
// nor the sets before it; then its failures were read and the rules grown
// on it (issue 35), and it became a set tuned on. In order: families,
// regions, heldback (95.0% of persons and 85.1% of addresses when first
// measured), heldback2 (written on 2026-12-02 for the rules of that day:
// persons 242/248 and addresses 44/52 on them, 245/248 and 51/52 once
// the first held-back set had been tuned on, before heldback2 was read).
// A set still held back is measured and reported, not required: growing
// the rules on what it misses would make it one more tuned set, and
// nobody who changes the rules reads it.
//
// heldback3 was written blind on 2026-12-02 for the rules of that day,
// after heldback2 had been tuned on (persons 243/252, addresses 59/61,
// PANs 39/39 on them), then tuned on.
//
// heldback4 was written blind on 2026-12-02 after heldback3 had been
// tuned on (persons 212/218, addresses 54/56, PANs 35/35 on the rules of
// then), then tuned on.
//
// heldback5 was written blind on 2026-12-02 after heldback4 had been
// tuned on (persons 240/243, addresses 43/44, PANs 36/36 on the rules of
// then), then tuned on.
//
// heldback6 was written blind on 2026-12-02 after heldback5 had been
// tuned on (persons 257/258, addresses 37/38, PANs 42/42 on the rules of
// then), then tuned on.
//
// heldback7 was written blind on 2026-12-02 after heldback6 had been
// tuned on (persons 221/227, addresses 33/34, PANs 36/36 on the rules of
// then), then tuned on.
//
// heldback8 was written blind on 2026-12-02 after heldback7 had been
// tuned on (persons 201/209, addresses 45/46, PANs 37/37 on the rules
// of then), then tuned on.
//
// heldback9 was written blind on 2026-12-02 after heldback8 had been
// tuned on (persons 230/234, addresses 41/43, PANs 39/39 on the rules
// of then), then tuned on.
//
// heldback10 was written blind on 2026-12-02 after heldback9 had been
// tuned on (persons 255/257, addresses 48/49, PANs 39/39 on the rules
// of then), then tuned on.
//
// heldback11 was written blind on 2026-12-02 after heldback10 had been
// tuned on (persons 223/232, addresses 60/61, PANs 38/40 on the rules of
// then), then tuned on.
//
// heldback12 was written blind on 2026-12-02 after heldback11 had been
// tuned on, and is held back: measured, not required.
//
// Recall on a tuned set is required to be 100%.
var heldbackSets = []string{"testdata/families/judgments.json", "testdata/regions/judgments.json", "testdata/heldback/judgments.json", "testdata/heldback2/judgments.json", "testdata/heldback3/judgments.json", "testdata/heldback4/judgments.json", "testdata/heldback5/judgments.json", "testdata/heldback6/judgments.json", "testdata/heldback7/judgments.json", "testdata/heldback8/judgments.json", "testdata/heldback9/judgments.json", "testdata/heldback10/judgments.json", "testdata/heldback11/judgments.json", "testdata/heldback12/judgments.json"}

// heldbackKnownMisses are the annotations of tuned sets that no rule finds
// and none is meant to, by judgment id and family, with the reason. They
// count as survived in every summary; the test does not fail on them.
var heldbackKnownMisses = map[string]string{
	"hb3-allahabad-murder-eyewitness/room_in_accused_house": "a room of a house named by its use (\"the bhusaul in the house of the accused\"), where a weapon was found: no address of the kind a rule reads, and nothing that locates the person",
	"hb7-kerala-pocso-teacher/victim_pseudonym":             "a victim called by one letter (\"X\"), the court's own pseudonym, which names nobody",
	"hb7-goa-inventory-proceedings/full_name":               "an English short form of a given name (\"Tony\" of Anthony), which no rule derives from the name",
	"hb7-manipur-election-petition/full_name":               "a name quoted in Meetei Mayek, a script the rules do not read (not of the Brahmic layout)",
}

// heldbackMeasured are the sets whose recall is reported, not required:
// the sets still held back (heldback12 since heldback11 was tuned on).
var heldbackMeasured = map[string]bool{"testdata/heldback12/judgments.json": true}

// heldbackCase is one judgment of the held-back set and its annotations.
type heldbackCase struct {
	ID          string               `json:"id"`
	Source      heldbackSource       `json:"source"`
	Annotations []heldbackAnnotation `json:"annotations"`
}

// heldbackSource is a judgment.Source as the set writes it.
type heldbackSource struct {
	Court        string          `json:"court"`
	Bench        string          `json:"bench"`
	CaseNumber   string          `json:"case_number"`
	Title        string          `json:"title"`
	Parties      []heldbackParty `json:"parties"`
	Judges       []string        `json:"judges"`
	DecisionDate string          `json:"decision_date"`
	Citations    []string        `json:"citations"`
	Language     string          `json:"language"`
	PageCount    int             `json:"page_count"`
	Text         string          `json:"text"`
}

// heldbackParty is a listed party as the delivery's metadata gives it.
type heldbackParty struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// heldbackAnnotation is one person, address or PAN of a judgment: the
// text as it appears, other spellings of it that also appear, its class
// and the family of disguise or phrasing it belongs to.
type heldbackAnnotation struct {
	Form       string   `json:"form"`
	Class      string   `json:"class"`
	Family     string   `json:"family"`
	OtherForms []string `json:"other_forms,omitempty"`
}

// heldbackGroups maps each class that must be tokenized to the group it
// is reported under.
var heldbackGroups = map[string]string{
	"party": "persons", "minor": "persons", "victim": "persons", "guardian": "persons",
	"relative": "persons", "alias": "persons", "witness": "persons", "official": "persons",
	"other_person": "persons", "address": "addresses", "pan": "PANs",
}

// heldbackMayStay lists the classes that may stay in clear.
var heldbackMayStay = map[string]bool{"judge": true, "advocate": true, "precedent_party": true, "author": true}

// heldbackPANFamilies are the PAN disguises the set must cover at least
// twice each.
var heldbackPANFamilies = []string{
	"pan_dot", "pan_slash", "pan_underscore", "pan_tab", "pan_double_space", "pan_en_dash",
	"pan_nbsp", "pan_thin_space", "pan_spread", "pan_greek", "pan_cyrillic", "pan_fullwidth",
	"pan_math", "pan_devanagari", "pan_arabic_indic", "pan_line_break", "pan_lower_spaced",
}

// mustTokenize reports whether a's class must be tokenized.
func (a heldbackAnnotation) mustTokenize() bool { return heldbackGroups[a.Class] != "" }

// forms returns the form and the other forms of a.
func (a heldbackAnnotation) forms() []string { return append([]string{a.Form}, a.OtherForms...) }

// loadHeldback reads the set at path.
func loadHeldback(t *testing.T, path string) []heldbackCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	var cases []heldbackCase
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cases
}

// source returns s as Tokenize takes it.
func (s heldbackSource) source() judgment.Source {
	parties := make([]judgment.SourceParty, len(s.Parties))
	for i, p := range s.Parties {
		parties[i] = judgment.SourceParty{Name: p.Name, Role: judgment.Role(p.Role)}
	}
	return judgment.Source{
		Court: s.Court, Bench: s.Bench, CaseNumber: s.CaseNumber, Title: s.Title,
		Parties: parties, Judges: s.Judges, DecisionDate: s.DecisionDate, Citations: s.Citations,
		Language: s.Language, PageCount: s.PageCount, Text: s.Text,
		RetrievedAt: time.Date(2024, 1, 15, 9, 30, 0, 0, time.UTC),
	}
}

// joinFields joins the fields a name may survive in, one a line.
func joinFields(title, caseNumber, bench string, judges, citations []string, text string) string {
	parts := []string{title, caseNumber, bench}
	parts = append(parts, judges...)
	parts = append(parts, citations...)
	parts = append(parts, text)
	return strings.Join(parts, "\n")
}

// heldbackText is a text and the copies of it that annotations are
// looked for in.
type heldbackText struct {
	s      string
	folded foldedText
	pan    string
}

// newHeldbackText returns s ready to be searched.
func newHeldbackText(s string) heldbackText {
	return heldbackText{s: s, folded: fold(s), pan: normalizePAN(s)}
}

// heldbackOutput is what a judgment exposes: all of it, for what must be
// tokenized, and its title and text, for what may stay (the judges and
// citations fields are lists of their own and say nothing of the text).
type heldbackOutput struct {
	all, prose heldbackText
}

// newHeldbackOutput returns the output of a tokenized judgment.
func newHeldbackOutput(j judgment.Judgment) heldbackOutput {
	return heldbackOutput{
		all:   newHeldbackText(joinFields(j.Title, j.CaseNumber, j.Bench, j.Judges, j.Citations, j.Text)),
		prose: newHeldbackText(j.Title + "\n" + j.Text),
	}
}

// inputAsOutput returns the input of a case as if Tokenize had changed
// nothing.
func inputAsOutput(s heldbackSource) heldbackOutput {
	return heldbackOutput{
		all:   newHeldbackText(joinFields(s.Title, s.CaseNumber, s.Bench, s.Judges, s.Citations, s.Text)),
		prose: newHeldbackText(s.Title + "\n" + s.Text),
	}
}

// foldedText is a text in lower case with each run of white space (line
// breaks, tabs, no-break and thin spaces included) made one space, and
// for each of its bytes the offset of the original byte it comes from.
type foldedText struct {
	s   string
	off []int
}

// fold returns s folded.
func fold(s string) foldedText {
	var b strings.Builder
	off := make([]int, 0, len(s)+1)
	space := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
				off = append(off, i)
			}
			space = true
			continue
		}
		space = false
		n := b.Len()
		b.WriteRune(unicode.ToLower(r))
		for ; n < b.Len(); n++ {
			off = append(off, i)
		}
	}
	return foldedText{s: b.String(), off: append(off, len(s))}
}

// isWordRune reports whether r is part of a word.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) }

// find returns the original offsets of the first occurrence in f of the
// folded needle as whole words, or -1, -1.
func (f foldedText) find(needle string) (int, int) {
	if needle == "" {
		return -1, -1
	}
	for from := 0; from < len(f.s); {
		i := strings.Index(f.s[from:], needle)
		if i < 0 {
			break
		}
		i += from
		j := i + len(needle)
		before, _ := utf8.DecodeLastRuneInString(f.s[:i])
		after, _ := utf8.DecodeRuneInString(f.s[j:])
		if (i == 0 || !isWordRune(before)) && (j == len(f.s) || !isWordRune(after)) {
			return f.off[i], f.off[j]
		}
		from = i + 1
	}
	return -1, -1
}

// foldForm returns form as it is looked for: folded, without white space
// at its ends.
func foldForm(form string) string { return fold(strings.TrimSpace(form)).s }

// heldbackMatcher finds an annotation in an output.
type heldbackMatcher struct {
	ann heldbackAnnotation
	// needles are the folded forms of a name or an address, and for an
	// address also every two consecutive comma-separated parts of a form.
	needles []string
	// canonical holds the normalized PAN of each form of a PAN.
	canonical []string
}

// newHeldbackMatcher returns the matcher of a. A name survives when the
// words of any of its forms survive as whole words, in any case and with
// any white space between them. An address survives when any of its
// forms does, or any two consecutive comma-separated parts of a form
// (house number and street, street and locality) do. A PAN survives when
// any of its forms survives literally, or when its canonical ten
// characters appear in the normalized output (normalizePAN).
func newHeldbackMatcher(a heldbackAnnotation) *heldbackMatcher {
	m := &heldbackMatcher{ann: a}
	for _, f := range a.forms() {
		if a.Class == "pan" {
			m.canonical = append(m.canonical, normalizePAN(f))
			continue
		}
		m.needles = append(m.needles, foldForm(f))
		if a.Class != "address" {
			continue
		}
		if parts := strings.Split(f, ","); len(parts) > 2 {
			for i := 0; i+1 < len(parts); i++ {
				m.needles = append(m.needles, foldForm(parts[i]+", "+parts[i+1]))
			}
		}
	}
	return m
}

// find reports whether the annotation survives in t, and an excerpt of
// 60 characters around where it does.
func (m *heldbackMatcher) find(t heldbackText) (bool, string) {
	if m.ann.Class == "pan" {
		for _, f := range m.ann.forms() {
			if i := strings.Index(t.s, f); i >= 0 {
				return true, excerpt(t.s, i)
			}
		}
		for _, c := range m.canonical {
			if i := strings.Index(t.pan, c); i >= 0 {
				return true, "normalized: " + excerpt(t.pan, i)
			}
		}
		return false, ""
	}
	for _, n := range m.needles {
		if i, _ := t.folded.find(n); i >= 0 {
			return true, excerpt(t.s, i)
		}
	}
	return false, ""
}

// keeps reports whether every form of the annotation survives in t: a
// judge, counsel or cited party counts as kept only if none of its
// mentions was tokenized.
func (m *heldbackMatcher) keeps(t heldbackText) bool {
	for _, f := range m.ann.forms() {
		if found, _ := newHeldbackMatcher(heldbackAnnotation{Form: f, Class: m.ann.Class}).find(t); !found {
			return false
		}
	}
	return true
}

// excerpt returns the 60 characters of s around byte offset i.
func excerpt(s string, i int) string {
	start := i
	for n := 0; n < 30 && start > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(s[:start])
		start -= size
	}
	r := []rune(s[start:])
	if len(r) > 60 {
		r = r[:60]
	}
	return string(r)
}

// confusables maps Greek and Cyrillic letters that look like Latin
// capitals to those capitals.
var confusables = map[rune]rune{
	// Greek
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N',
	'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'α': 'A', 'β': 'B', 'ε': 'E', 'ι': 'I',
	'κ': 'K', 'ο': 'O', 'ρ': 'P', 'τ': 'T', 'υ': 'Y', 'χ': 'X',
	// Cyrillic
	'А': 'A', 'В': 'B', 'С': 'C', 'Е': 'E', 'Н': 'H', 'І': 'I', 'Ј': 'J', 'К': 'K', 'М': 'M',
	'О': 'O', 'Р': 'P', 'Ѕ': 'S', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'а': 'A', 'в': 'B', 'с': 'C',
	'е': 'E', 'н': 'H', 'і': 'I', 'ј': 'J', 'к': 'K', 'м': 'M', 'о': 'O', 'р': 'P', 'ѕ': 'S',
	'т': 'T', 'х': 'X', 'у': 'Y',
}

// normalizePAN returns s as a PAN is looked for in it, independently of
// the tokenizer: NFKC (full-width and mathematical letters and digits
// become ASCII), Greek and Cyrillic look-alikes become Latin, every
// decimal digit becomes its ASCII digit, letters are upper-cased, and
// everything else (spaces, separators, line breaks) is removed.
func normalizePAN(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(s) {
		if l, ok := confusables[r]; ok {
			r = l
		}
		switch {
		case unicode.IsDigit(r):
			b.WriteByte(byte('0' + digitValue(r)))
		case unicode.IsLetter(r):
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// digitValue returns the value of the decimal digit r. Unicode encodes
// decimal digits in runs of ten from zero, so the value is the number of
// digits just before r, modulo ten.
func digitValue(r rune) int {
	n := 0
	for unicode.IsDigit(r - rune(n) - 1) {
		n++
	}
	return n % 10
}

// heldbackTally counts annotations and how many of them were tokenized.
type heldbackTally struct{ tokenized, total int }

// add counts one annotation.
func (t *heldbackTally) add(tokenized bool) {
	t.total++
	if tokenized {
		t.tokenized++
	}
}

// showHeldback reports whether failures may show the set's text.
func showHeldback() bool { return os.Getenv("QUARRY_HELDBACK_SHOW") == "1" }

// hidden returns s quoted when failures may show the set's text, and a
// placeholder otherwise.
func hidden(s string) string {
	if showHeldback() {
		return strconv.Quote(s)
	}
	return "(hidden; QUARRY_HELDBACK_SHOW=1 shows it)"
}

// TestHeldbackRecall tokenizes each judgment of each set and checks that
// no person, address or PAN it annotates survives. It reports, for each
// set and over all of them, the precision on what may stay: how many of
// the annotated judges, counsel and cited cases' parties were tokenized
// anyway (measured, not required).
func TestHeldbackRecall(t *testing.T) {
	total := map[string]*heldbackTally{}
	for _, path := range heldbackSets {
		t.Run(path, func(t *testing.T) {
			survived := t.Errorf
			if heldbackMeasured[path] {
				survived = t.Logf
			}
			for class, n := range recallOn(t, loadHeldback(t, path), survived) {
				if heldbackMayStay[class] {
					if total[class] == nil {
						total[class] = &heldbackTally{}
					}
					total[class].tokenized += n.tokenized
					total[class].total += n.total
				}
			}
		})
	}
	t.Log("over every set, " + heldbackPrecision(total))
}

// heldbackPrecision returns the precision line: of the annotated judges,
// advocates and cited parties, how many were tokenized anyway.
func heldbackPrecision(classes map[string]*heldbackTally) string {
	get := func(k string) heldbackTally {
		if classes[k] == nil {
			return heldbackTally{}
		}
		return *classes[k]
	}
	a, j, p := get("advocate"), get("judge"), get("precedent_party")
	return fmt.Sprintf("held-back precision: tokenized anyway advocates %d/%d, judges %d/%d, precedent parties %d/%d",
		a.tokenized, a.total, j.tokenized, j.total, p.tokenized, p.total)
}

// recallOn is TestHeldbackRecall on one set's cases; survived reports
// each annotation that survives. It returns the tally of each class.
func recallOn(t *testing.T, cases []heldbackCase, survived func(string, ...any)) map[string]*heldbackTally {
	key, err := pii.NewKey([]byte(strings.Repeat("k", pii.MinKeyBytes)))
	if err != nil {
		t.Fatal(err)
	}
	show := showHeldback()
	classes, families, groups := map[string]*heldbackTally{}, map[string]*heldbackTally{}, map[string]*heldbackTally{}
	mayFamilies := map[string]bool{}
	tally := func(m map[string]*heldbackTally, k string, tokenized bool) {
		if m[k] == nil {
			m[k] = &heldbackTally{}
		}
		m[k].add(tokenized)
	}
	for _, c := range cases {
		j, _, err := judgment.Tokenize(key, c.Source.source())
		var out heldbackOutput
		if err != nil {
			if show {
				t.Errorf("%s: Tokenize: %v", c.ID, err)
			} else {
				t.Errorf("%s: Tokenize failed (QUARRY_HELDBACK_SHOW=1 shows the error)", c.ID)
			}
		} else {
			out = newHeldbackOutput(j)
		}
		for _, a := range c.Annotations {
			m := newHeldbackMatcher(a)
			if a.mustTokenize() {
				survives, ctx := true, ""
				if err == nil {
					survives, ctx = m.find(out.all)
				}
				tally(classes, a.Class, !survives)
				tally(families, a.Family, !survives)
				tally(groups, heldbackGroups[a.Class], !survives)
				if survives && err == nil {
					report := survived
					if why, ok := heldbackKnownMisses[c.ID+"/"+a.Family]; ok {
						report = t.Logf // counted as survived all the same
						t.Logf("%s: %s (%s) survives, a known miss: %s", c.ID, a.Class, a.Family, why)
					}
					if show {
						report("%s: %s (%s) survives: %q in %q", c.ID, a.Class, a.Family, a.Form, ctx)
					} else {
						report("%s: %s (%s) survives", c.ID, a.Class, a.Family)
					}
				}
				continue
			}
			kept := false
			if err == nil {
				kept = m.keeps(out.prose)
			}
			if !kept && show && err == nil {
				t.Logf("%s: %s (%s) tokenized anyway: %q", c.ID, a.Class, a.Family, a.Form)
			}
			tally(classes, a.Class, !kept)
			tally(families, a.Family, !kept)
			tally(groups, "may stay", !kept)
			mayFamilies[a.Family] = true
		}
	}
	t.Log("held-back summary:\n" + strings.Join(append(heldbackSummary(classes, families, groups, mayFamilies), heldbackPrecision(classes)), "\n"))
	return classes
}

// heldbackSummary returns the report lines: one a family, one a class
// (the classes last, so that the tail of the output shows them), and the
// overall recall. For the classes and families that may stay (mayFamilies
// names the families), the count is of those tokenized anyway.
func heldbackSummary(classes, families, groups map[string]*heldbackTally, mayFamilies map[string]bool) []string {
	line := func(kind, name string, n *heldbackTally, may bool) string {
		if may {
			return fmt.Sprintf("%s %-34s (may stay) tokenized anyway %d of %d", kind, name, n.tokenized, n.total)
		}
		return fmt.Sprintf("%s %-34s tokenized %d of %d", kind, name, n.tokenized, n.total)
	}
	var lines []string
	for _, kind := range []struct {
		name string
		m    map[string]*heldbackTally
	}{{"family", families}, {"class", classes}} {
		names := make([]string, 0, len(kind.m))
		for k := range kind.m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			may := heldbackMayStay[k]
			if kind.name == "family" {
				may = mayFamilies[k]
			}
			lines = append(lines, line(kind.name, k, kind.m[k], may))
		}
	}
	get := func(k string) heldbackTally {
		if groups[k] == nil {
			return heldbackTally{}
		}
		return *groups[k]
	}
	p, a, n, may := get("persons"), get("addresses"), get("PANs"), get("may stay")
	lines = append(lines,
		fmt.Sprintf("held-back may-stay tokenized anyway: %d/%d", may.tokenized, may.total),
		fmt.Sprintf("held-back recall: persons %d/%d, addresses %d/%d, PANs %d/%d",
			p.tokenized, p.total, a.tokenized, a.total, n.tokenized, n.total))
	return lines
}

// panPattern is the shape of a canonical PAN.
var panPattern = regexp.MustCompile(`^[A-Z]{5}[0-9]{4}[A-Z]$`)

// TestHeldbackHarness checks the held-back set and the matchers of
// TestHeldbackRecall against the input itself: every annotation is
// found in the untokenized input, every PAN normalizes to a well-formed
// PAN, no two annotations of a judgment overlap, and an ideal tokenizer
// that replaced exactly the annotated forms would leave nothing that
// must be tokenized and everything that may stay.
func TestHeldbackHarness(t *testing.T) {
	for _, path := range heldbackSets {
		t.Run(path, func(t *testing.T) { harnessOn(t, loadHeldback(t, path)) })
	}
}

// harnessOn is TestHeldbackHarness on one set's cases.
func harnessOn(t *testing.T, cases []heldbackCase) {
	if len(cases) < 24 {
		t.Errorf("%d judgments, want at least 24", len(cases))
	}
	ids, familyMust := map[string]bool{}, map[string]bool{}
	counts := map[string]int{}
	for _, c := range cases {
		if c.ID == "" || ids[c.ID] {
			t.Errorf("judgment id %q is empty or repeated", c.ID)
		}
		ids[c.ID] = true
		s := c.Source
		if n := utf8.RuneCountInString(s.Text); n < 1500 || n > 6000 {
			t.Errorf("%s: text of %d characters, want 1,500-6,000", c.ID, n)
		}
		if _, err := time.Parse(time.DateOnly, s.DecisionDate); err != nil {
			t.Errorf("%s: decision date: %v", c.ID, err)
		}
		if s.Language != "en" || s.Court == "" || s.CaseNumber == "" || s.Title == "" || len(s.Parties) == 0 || len(s.Judges) == 0 {
			t.Errorf("%s: incomplete source", c.ID)
		}
		for _, p := range s.Parties {
			if _, err := judgment.ParseRole(p.Role); err != nil || p.Name == "" {
				t.Errorf("%s: party %s: role %q: %v", c.ID, hidden(p.Name), p.Role, err)
			}
		}
		in := inputAsOutput(s)
		canon := map[string]bool{}
		var matchers []*heldbackMatcher
		for _, a := range c.Annotations {
			if !a.mustTokenize() && !heldbackMayStay[a.Class] || a.Family == "" {
				t.Errorf("%s: %s: class %q, family %q", c.ID, hidden(a.Form), a.Class, a.Family)
				continue
			}
			counts[a.Class]++
			counts["family:"+a.Family]++
			if prev, ok := familyMust[a.Family]; ok && prev != a.mustTokenize() {
				t.Errorf("%s: family %s holds classes that must be tokenized and classes that may stay", c.ID, a.Family)
			}
			familyMust[a.Family] = a.mustTokenize()
			if a.mustTokenize() {
				counts["must"]++
			}
			for _, f := range a.forms() {
				if strings.TrimSpace(f) == "" || !strings.Contains(in.all.s, f) {
					t.Errorf("%s: %s (%s) form %s does not occur in the input", c.ID, a.Class, a.Family, hidden(f))
				}
				if a.Class == "pan" {
					n := normalizePAN(f)
					if !panPattern.MatchString(n) {
						t.Errorf("%s: PAN (%s) form %s normalizes to %s", c.ID, a.Family, hidden(f), hidden(n))
					}
					if !strings.Contains(in.all.pan, n) {
						t.Errorf("%s: PAN (%s) %s not found in the normalized input", c.ID, a.Family, hidden(n))
					}
					if canon[n] {
						t.Errorf("%s: PAN (%s) %s annotated twice", c.ID, a.Family, hidden(n))
					}
					canon[n] = true
				}
			}
			m := newHeldbackMatcher(a)
			matchers = append(matchers, m)
			if found, _ := m.find(in.all); !found {
				t.Errorf("%s: %s (%s) %s not found in the input", c.ID, a.Class, a.Family, hidden(a.Form))
			}
			if !a.mustTokenize() {
				if !m.keeps(in.prose) {
					t.Errorf("%s: %s (%s) %s not found in the title or text", c.ID, a.Class, a.Family, hidden(a.Form))
				}
			}
		}
		// No form of one annotation may be found within a form of
		// another, or the two could not be scored apart.
		for _, m := range matchers {
			for _, o := range matchers {
				if m == o || m.ann.Class == "pan" || o.ann.Class == "pan" {
					continue
				}
				for _, f := range o.ann.forms() {
					if found, _ := m.find(newHeldbackText(f)); found {
						t.Errorf("%s: %s (%s) %s is found within %s (%s) %s", c.ID, m.ann.Class, m.ann.Family, hidden(m.ann.Form), o.ann.Class, o.ann.Family, hidden(f))
					}
				}
			}
		}
		// An ideal tokenizer replaces exactly the forms to be tokenized.
		ideal := newHeldbackText(redact(in.all.s, c.Annotations...))
		prose := newHeldbackText(redact(in.prose.s, c.Annotations...))
		for _, m := range matchers {
			if m.ann.mustTokenize() {
				if found, ctx := m.find(ideal); found {
					t.Errorf("%s: %s (%s) %s survives ideal tokenization in %s", c.ID, m.ann.Class, m.ann.Family, hidden(m.ann.Form), hidden(ctx))
				}
			} else if !m.keeps(prose) {
				t.Errorf("%s: %s (%s) %s lost to ideal tokenization", c.ID, m.ann.Class, m.ann.Family, hidden(m.ann.Form))
			}
		}
	}
	t.Logf("%d judgments; annotations: %v", len(cases), counts)
	for _, want := range []struct {
		key string
		min int
	}{{"must", 150}, {"pan", 30}, {"address", 10}} {
		if counts[want.key] < want.min {
			t.Errorf("%d %s annotations, want at least %d", counts[want.key], want.key, want.min)
		}
	}
	for _, f := range heldbackPANFamilies {
		if counts["family:"+f] < 2 {
			t.Errorf("%d PANs of family %s, want at least 2", counts["family:"+f], f)
		}
	}
}

// redact returns s with every form of the annotations that must be
// tokenized replaced by a token, longest forms first.
func redact(s string, anns ...heldbackAnnotation) string {
	var forms []heldbackAnnotation
	for _, a := range anns {
		if !a.mustTokenize() {
			continue
		}
		for _, f := range a.forms() {
			forms = append(forms, heldbackAnnotation{Form: f, Class: a.Class})
		}
	}
	sort.SliceStable(forms, func(i, j int) bool { return len(forms[i].Form) > len(forms[j].Form) })
	for _, a := range forms {
		if a.Class == "pan" {
			s = strings.ReplaceAll(s, a.Form, "PAN_REDACTED")
			continue
		}
		needle := foldForm(a.Form)
		for {
			i, j := fold(s).find(needle)
			if i < 0 {
				break
			}
			s = s[:i] + "PTY_REDACTED" + s[j:]
		}
	}
	return s
}
