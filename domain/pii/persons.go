package pii

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Litigants returns the names of the persons a judgment's text names as
// litigants or their relatives, found by what stands around them rather
// than by a list, each once:
//
//   - after an honorific (Shri, Sri, Smt., Shrimati, Kumari, Mr., Mrs.,
//     Ms., Miss, Dr.), unless the name is a counsel's or a judge's (below);
//   - on either side of a kinship (S/o, D/o, W/o, H/o, son of, daughter of,
//     wife of, husband of, widow of);
//   - after a role (petitioner, respondent, appellant, accused,
//     complainant, plaintiff, defendant, applicant, claimant, opposite
//     party, deceased, victim, informant, partner, proprietor, karta; with
//     an ordinal before it or "No. n", "Nos. n to m" after it), the name
//     itself or a list of names, in parentheses or not ("defendant Nos.2 to
//     4 (A, B and C)", "partners, namely, A and B"), unless the role
//     follows "for" (counsel for the respondent);
//   - before "partner of", "proprietor of" or "karta of".
//
// A name is one to five words, each capitalised or initials ("A.K.",
// "R.Sarpotdar"), ending at punctuation or at a word that is no name
// (courts, roles, "Senior", "Advocate"...); a name next to a word of an
// organisation ("Ltd.", "Society", "Corporation", "M/s") is no person's.
// An honorific's name stays in clear when it is a counsel's, told by what
// follows it or the names listed with it ("learned counsel", "Senior
// Advocate", "Adv.", "AGP", "i/b", "appearing", "for the petitioner",
// "for R-3", "for BMC"), or follows "Through:"; or a judge's ("J.", "JJ.",
// "CORAM", "Justice"), or one of judges; or when it is a lone surname
// (initials aside) of a counsel or judge named so elsewhere in the text
// ("Mr. Khambata" after "Mr. Darius Khambata, Senior Advocate"). Names
// found in other ways are litigants whatever else the text says of them:
// when unsure, a name is tokenized.
//
// Beyond these, a person is found by a relation to the case or to another
// person ("her brother-in-law Suresh", "the prosecutrix Kumari X", "his
// guardian and next friend Y", "PW-3 Z"), before what follows only a
// person's name ("X (PW-1)", "Y, aged 14 years", "Z (minor)"), on both
// sides of an alias ("A alias B", "C @ D"), and, by no context, as two to
// five capitalised words one of which is no English word (generic).
func Litigants(text string, judges []string) []string {
	return detect(text, judges).found
}

// detect runs every rule of Litigants over text.
func detect(text string, judges []string) *detector {
	d := &detector{text: text, clear: map[string]bool{}, seen: map[string]bool{}, cited: map[string]bool{}, judgeWords: map[string]bool{}}
	for _, j := range judges {
		n := judgeName(j)
		d.keep(n)
		d.judges = append(d.judges, spacedWords(strings.Join(n, " ")))
		for _, w := range n {
			if !isInitials(w) {
				d.judgeWords[strings.ToLower(strings.TrimSuffix(w, "."))] = true
			}
		}
	}
	d.collectAppearances()
	d.collectCited()
	d.collectCounsel()
	d.honorifics() // first: it remembers the counsel the others pass over
	d.kinship()
	d.roles()
	d.businessRoles()
	d.relations()
	d.markedNames()
	d.initialled()
	d.namedAs()
	d.proprietorships()
	d.lines()
	d.signature()
	d.staffMarks()
	d.hindiAddresses = d.hindi()
	d.generic() // last: it passes over every counsel and judge met
	return d
}

// detector holds one text's detection: the names of counsel and judges
// met, and the litigants found so far.
type detector struct {
	text  string
	clear map[string]bool // lower-cased names and surnames of counsel and judges
	seen  map[string]bool
	found []string
	// appearances are the byte ranges of the lines naming counsel or a
	// bench (appearanceLines).
	appearances [][2]int
	// cited holds the lower-cased names of cited cases' parties.
	cited map[string]bool
	// judgeWords are the lower-cased words of the listed judges' names,
	// each of which alone names the judge ("Indira" of Indira Banerjee).
	judgeWords map[string]bool
	// judges are the listed judges' names as spacedWords writes them.
	judges []string
	// hindiAddresses are the addresses its Devanagari text gives.
	hindiAddresses []string
}

const nameWordMax = 5

var (
	honorificPattern = regexp.MustCompile(`(?i)^(?:shri|sri|shrimati|srimati|smt|sushri|kumari|kum|km|mr|mrs|ms|miss|dr|sarvasri|sarvashri|master|mst|thiru|tmt|selvi|sh|janab|begum|sardar|sardarni|baby)\b\.?[ \t]*\n?[ \t]*`)
	kinshipPattern   = regexp.MustCompile(`(?i)^(?:[sdwh]\s?/\s?o|son\s+of|daughter\s+of|wife\s+of|husband\s+of|widow\s+of)\b\.?\s*(?:late\s+)?`)
	rolePattern      = regexp.MustCompile(`(?i)^(?:(?:first|second|third|fourth|fifth|sixth|sole|original)\s+)?(?:petitioner|respondent|appellant|accused|complainant|plaintiff|defendant|applicant|claimant|opposite\s+party|deceased|victim|informant|partner|proprietor|proprietress|karta)s?\b(?:\s*nos?\.?\s*\d+(?:\s*(?:,|and|&|to|-)\s*\d+)*)?(?:\s*,)?(?:\s*(?:namely|viz|i\.e)\b\.?\s*,?)?[ \t]*(?:-[ \t]*)?\n?[ \t]*`)
	ofRolePattern    = regexp.MustCompile(`(?i)^(?:the\s+|a\s+)?(?:sole\s+|managing\s+)?(?:partner|proprietor|proprietress|karta)\s+of\b`)
	forBefore        = regexp.MustCompile(`(?i)\bfor\s+(?:the\s+)?$`)
	counselAfter     = regexp.MustCompile(`(?i)^\s*(?:\(\d{1,6}\)\s*)?(?:['"‘“](?-i:\p{Lu})[\p{L} .]{1,28}['"’”]\s*)?(?:,|[-–]+)?\s*(?:learned\b|ld\.|(?:(?:senior|sr\.?)\s*)?(?:counsel|advocates?|advs?\b\.?|standing\s+counsel|d\.?\s?r\b)|(?:(?:deputy|additional|addl\.?|assistant|asst\.?|senior|sr\.?|special|spl\.?|chief)\s+)*(?:advocate\s+general|government\s+(?:pleader|advocate)|public\s+prosecutor|standing\s+counsel|panel\s+(?:lawyer|advocate))|amicus\s+curiae|authori[sz]ed\s+representative|cit\s*[-(]?\s*d\.?\s?r\b|(?:addl\.?\s*)?(?:a\.?\s?g\.?\s?p|g\.?\s?p|a\.?\s?p\.?\s?p|p\.?\s?p|s\.?\s?p\.?\s?p|h\.?c\.?g\.?p|s\.?s\.?c|d\.?a\.?g|a\.?a\.?g|a\.?g\.?a|a\.?s\.?g|g\.?a|c\.?g\.?s\.?c)\b|i/b|appear(?:s|ed|ing)?\s+(?:for|on\s+behalf)|for\s+(?:the\s+)?(?:` + appearedFor + `)\b|(?-i:for\s+[A-Z]{2,}\b))`)
	inPerson         = regexp.MustCompile(`(?i)\bin\s+person\b`)
	judgeAfter       = regexp.MustCompile(`^\s*,?\s*(?:J|JJ|C\.\s?J|CJ)\b\.?`)
	counselBefore    = regexp.MustCompile(`(?i)(?:through\s*:|(?m:^[ \t]*through[ \t]*)|learned\s+(?:(?:senior|special|defence|additional|addl\.?)\s+)?(?:counsel|advocate|a\.?r|d\.?r|p\.?\s?p|a\.?p\.?p|public\s+prosecutor)\.?\s*,?|(?:counsel|advocate)s?\s+(?:for|appearing\s+for|on\s+behalf\s+of)\s+(?:the\s+)?[\pL\d.-]+(?:\s+nos?\.?\s*\d+)?\s*,|counsel\s*,?|(?:^|\n|;|\bby|\bwith)\s*adv\.?|(?:public\s+prosecutor|government\s+pleader|standing\s+counsel|amicus\s+curiae)\s*,?|coram\s*:?)\s*$`)
	counselMarker    = regexp.MustCompile(`(?i)^(?:i/b\b|for\s+(?:the\s+)?(?:petitioner|respondent|appellant)s?\b|(?:learned\s+)?(?:senior\s+)?(?:counsel|advocate)\b)`)
	listSeparator    = regexp.MustCompile(`,|;|&|\band\b`)
	listGlue         = regexp.MustCompile(`^\s*(?:,|&|\band\b)\s*`)
	groupGlue        = regexp.MustCompile(`(?i)^(?:\s|,|&|\band\b|\bwith\b|\balongwith\b|\balong\s+with\b|i/b\.?|\ba/w\.?)*$`)
)

// The words each pattern starts with, lower case.
var (
	honorificWords = setOf(`shri sri shrimati srimati smt sushri kumari kum km mr mrs ms miss dr sarvasri sarvashri master mst thiru tmt selvi sh janab begum sardar sardarni baby`)
	kinshipWords   = setOf(`s d w h son daughter wife husband widow`)
	roleWords      = setOf(`first second third fourth fifth sixth sole original petitioner respondent appellant accused
		complainant plaintiff defendant applicant claimant opposite deceased victim informant partner proprietor
		proprietress karta petitioners respondents appellants complainants plaintiffs defendants applicants claimants
		victims informants partners proprietors`)
	ofRoleWords  = setOf(`the a sole managing partner proprietor proprietress karta`)
	counselWords = setOf(`i for learned senior counsel advocate`)
)

// findAll returns the matches of re, anchored, which starts with one of
// words: re is tried only where such a word starts, so a long text is
// read once, word by word, and the patterns only on short windows; one
// case-folding pattern over the whole text would be many times slower.
func (d *detector) findAll(re *regexp.Regexp, words map[string]bool) [][]int {
	var out [][]int
	for i := 0; i < len(d.text); {
		if !isASCIILetter(rune(d.text[i])) {
			i++
			continue
		}
		j := i
		for j < len(d.text) && isASCIILetter(rune(d.text[j])) {
			j++
		}
		if j-i <= 12 && (i == 0 || !asciiWord(rune(d.text[i-1]))) && inSetOrPlural(words, d.text[i:j]) {
			if m := re.FindStringIndex(d.text[i:min(len(d.text), i+300)]); m != nil {
				out = append(out, []int{i, i + m[1]})
				i += max(m[1], 1)
				continue
			}
		}
		i = j
	}
	return out
}

// honorifics adds the names after honorifics that are not counsel's or
// judges': names listed together ("Mr. A and Mr. B, Advocates") are
// counsel together, and every counsel's and judge's name is remembered.
func (d *detector) honorifics() {
	type cand struct {
		start, end int // of the honorific and of the name
		name       []string
		clear      bool
	}
	var cs []cand
	for _, m := range d.findAll(honorificPattern, honorificWords) {
		n, end := d.nameAt(m[1])
		if n == nil {
			n, end = initialsAt(d.text, m[1]) // "Dr. M.R.S. (PW-3)"
		}
		if n != nil && !d.precedent(m[0], end) { // "Rangappa v. Sri Mohan" names a cited case
			cs = append(cs, cand{m[0], end, n, d.counselOrJudge(m[0], end)})
		}
	}
	for i := len(cs) - 2; i >= 0; i-- {
		if cs[i+1].clear && glued(d.text, cs[i].end, cs[i+1].start) {
			cs[i].clear = true
		}
	}
	for i := 1; i < len(cs); i++ {
		if cs[i-1].clear && glued(d.text, cs[i-1].end, cs[i].start) {
			cs[i].clear = true
		}
	}
	for _, c := range cs {
		if c.clear {
			d.keep(c.name)
		}
	}
	for _, c := range cs {
		if !c.clear && !d.known(c.name) {
			d.add(c.name)
		}
	}
}

// glued reports whether text[end:start] only joins two names of a list.
func glued(text string, end, start int) bool {
	return end <= start && groupGlue.MatchString(text[end:start])
}

// counselOrJudge tells a counsel's or a judge's name by its surroundings,
// and remembers the surname.
func (d *detector) counselOrJudge(start, end int) bool {
	after := d.text[end:min(len(d.text), end+60)]
	before := d.text[max(0, start-60):start]
	if inPerson.MatchString(after) {
		return false // a party in person is no counsel
	}
	if courtOfficerBefore.MatchString(before) {
		return false // "the Commissioner of Partition, Sri A, Advocate": the court's officer
	}
	return counselAfter.MatchString(after) || judgeAfter.MatchString(after) || benchAfter.MatchString(after) || strings.HasSuffix(d.text[start:end], "-J") ||
		counselBefore.MatchString(before) || benchBefore.MatchString(before) ||
		strings.HasSuffix(strings.ToLower(strings.TrimSpace(retired.ReplaceAllString(before, ""))), "justice") || d.appearing(start, end)
}

// courtOfficerBefore ends the text before a name that a court appoints to
// act for it in the parties' affair (a commissioner to partition, inspect
// or record, a receiver): an advocate so appointed is named as a person the
// case touches, not as counsel.
var courtOfficerBefore = regexp.MustCompile(`(?i)\b(?:commissioner[ \t]+(?:of|for)[ \t]+(?:partition|inspection|local[ \t]+inspection)|(?:local|court|advocate|survey)[ \t]*-?[ \t]*commissioner|(?:official|court)?[ \t]*receiver)[ \t]*,?[ \t]*(?:(?:shri|sri|smt|mr|mrs|ms|dr|sh)\b\.?[ \t]*)?$`)

// courtOfficerNamed ends the text before a counsel's marker when the name
// it follows is a court's officer's: "the Commissioner of Partition, Sri
// Ajit Kumar Dutta, Advocate".
var courtOfficerNamed = regexp.MustCompile(strings.TrimSuffix(courtOfficerBefore.String(), "$") + `(?:\p{Lu}[\pL.]*[ \t]+){0,4}\p{Lu}[\pL.]*[ \t]*,?[ \t]*$`)

// retired is a retired judge's mark after "Justice": "Mr. Justice (Retd.)
// Rajiv Sahai Endlaw".
var retired = regexp.MustCompile(`(?i)[ \t]*\(?[ \t]*(?:retd|retired)\.?[ \t]*\)?[ \t]*$`)

// collectCounsel remembers the names of counsel the text names without
// an honorific ("Vimal Gupta for the respondents").
func (d *detector) collectCounsel() {
	for _, m := range d.findAll(counselMarker, counselWords) {
		if n := d.nameBefore(m[0]); n != nil && !courtOfficerNamed.MatchString(d.text[max(0, m[0]-120):m[0]]) {
			d.keep(n)
		}
	}
}

// keep remembers a counsel's or judge's name and surname.
func (d *detector) keep(words []string) {
	if len(words) > 0 {
		d.clear[strings.ToLower(strings.Join(words, " "))] = true
		d.clear[nameKey(words)] = true
		d.clear[strings.ToLower(surname(words))] = true
	}
}

// known reports whether name is a counsel's or judge's name met
// elsewhere, or only their surname, perhaps with initials.
func (d *detector) known(name []string) bool {
	if d.clear[strings.ToLower(strings.Join(name, " "))] || d.clear[nameKey(name)] || d.isCited(name) {
		return true
	}
	full := 0
	for _, w := range name {
		if !isInitials(w) {
			full++
		}
	}
	return full == 1 && d.clear[strings.ToLower(surname(name))] || d.judgesWords(name)
}

// judgesWords reports whether every word of name that is no initials is a
// word of a listed judge's name: "Indira" of Indira Banerjee, "IRFAN
// RASOOL" of Irfan Rasool Shah.
func (d *detector) judgesWords(name []string) bool {
	full := 0
	for _, w := range name {
		if isInitials(w) {
			continue
		}
		if !d.judgeWords[strings.ToLower(strings.TrimSuffix(w, "."))] {
			return false
		}
		full++
	}
	return full > 0
}

// nameKey is a name as known compares it: in lower case, without the
// spaces between initials and after them ("A. K. Jayasankaran" and
// "A.K.JAYASANKARAN" alike), nor the full stop of trailing ones.
func nameKey(words []string) string {
	k := strings.ToLower(strings.Join(words, " "))
	k = strings.ReplaceAll(k, ". ", ".")
	return strings.TrimSuffix(k, ".")
}

// surname is the last word of a name, without the initials glued to it.
func surname(words []string) string {
	w := words[len(words)-1]
	if i := strings.LastIndexByte(w, '.'); i >= 0 && i+1 < len(w) {
		return w[i+1:]
	}
	return w
}

// kinship adds the names on both sides of a kinship.
func (d *detector) kinship() {
	for _, m := range d.findAll(kinshipPattern, kinshipWords) {
		if n := d.nameBefore(m[0]); n != nil {
			d.add(n)
		}
		if n, _ := d.nameAt(m[1]); n != nil {
			d.add(n)
		}
	}
}

// roles adds the names and lists of names that follow a role.
func (d *detector) roles() {
	for _, m := range d.findAll(rolePattern, roleWords) {
		if forBefore.MatchString(d.text[max(0, m[0]-12):m[0]]) {
			continue
		}
		d.listAt(m[1])
	}
}

// businessRoles adds the names before "partner of" and "proprietor of".
func (d *detector) businessRoles() {
	for _, m := range d.findAll(ofRolePattern, ofRoleWords) {
		if n := d.nameBefore(m[0]); n != nil {
			d.add(n)
		}
	}
}

// listAt adds the names of a list starting at i: one name, or names
// separated by commas, "and" or "&", in parentheses or not, each perhaps
// after an honorific. An item that is no name (a token, "others") is
// passed over inside parentheses and ends a list outside them.
func (d *detector) listAt(i int) {
	if strings.HasPrefix(d.text[i:], "(") {
		end := strings.IndexByte(d.text[i:min(len(d.text), i+400)], ')')
		if end < 0 {
			return
		}
		for _, item := range listSeparator.Split(d.text[i+1:i+end], -1) {
			item = strings.TrimSpace(item)
			if m := honorificPattern.FindStringIndex(item); m != nil {
				item = item[m[1]:]
			}
			if n, e := (&detector{text: item}).nameAt(0); n != nil && strings.TrimSpace(item[e:]) == "" {
				d.addParty(n) // not "(BY SRI K. N. RAO, ADVOCATE FOR R3)", whose counsel are known
			}
		}
		return
	}
	for {
		start := i
		if m := honorificPattern.FindStringIndex(d.text[i:min(len(d.text), i+12)]); m != nil {
			i += m[1]
		}
		n, end := d.nameAt(i)
		if n == nil || d.counselOrJudge(start, end) {
			return // a counsel's line under a cause title's role
		}
		d.addParty(n)
		glue := listGlue.FindStringIndex(d.text[end:min(len(d.text), end+12)])
		if glue == nil {
			return
		}
		i = end + glue[1]
	}
}

// addParty adds a name found by its role, unless it is a counsel's or
// judge's met elsewhere.
func (d *detector) addParty(words []string) {
	if !d.known(words) {
		d.add(words)
	}
}

func (d *detector) add(words []string) {
	words = withoutPossessive(words)
	name := strings.Join(words, " ")
	if key := strings.ToLower(name); !d.seen[key] {
		d.seen[key] = true
		d.found = append(d.found, name)
	}
}

// nameAt reads the name starting at text[i] (after spaces and at most one
// line break) and returns its words and where it ends, or nil when none
// starts there.
func (d *detector) nameAt(i int) ([]string, int) {
	words, end := d.wordsAt(i)
	if words == nil || organisationNext(d.text, end) {
		return nil, 0
	}
	return words, end
}

// wordsAt reads the words of a name starting at text[i], as nameAt does,
// whatever follows them: a firm's too ("Haji Adam" of "Haji Adam & Co.").
func (d *detector) wordsAt(i int) ([]string, int) {
	var words []string
	end := i
	for pos := i; len(words) < nameWordMax; {
		pos = skipSpace(d.text, pos)
		w, next, stop := wordAt(d.text, pos)
		if len(words) > 0 && caseChangesAcrossLines(d.text[end:pos], words[len(words)-1], w) {
			break // "Digitally signed by\nSUNIL KUMAR\n   Cargo Handling at"
		}
		kind := classify(w)
		if kind == organisation {
			return nil, 0
		}
		if kind == notName {
			break
		}
		sentenceEnd := kind == fullWord && strings.HasSuffix(w, ".") && !nameAbbreviations[strings.ToLower(w)]
		if sentenceEnd {
			w = strings.TrimSuffix(w, ".")
		}
		words = append(words, w)
		end = pos + len(w)
		if stop || sentenceEnd {
			break
		}
		pos = next
	}
	if !hasFullWord(words) || acronym(words) {
		return nil, 0
	}
	return words, end
}

// caseChangesAcrossLines reports whether the words prev and w, parted by
// gap, are on two lines and one is in capitals and the other not: a name
// wrapped over a line keeps its case.
func caseChangesAcrossLines(gap, prev, w string) bool {
	if !strings.Contains(gap, "\n") || isInitials(prev) || isInitials(w) || len(prev) < 2 || len(w) < 2 {
		return false
	}
	return (strings.ToUpper(prev) == prev) != (strings.ToUpper(w) == w)
}

// nameBefore reads the name that ends at text[i], before spaces and a
// comma, or nil: the longest run of up to five name words ending there.
func (d *detector) nameBefore(i int) []string {
	j := i
	for j > 0 && strings.ContainsRune(" \t,", rune(d.text[j-1])) {
		j--
	}
	var best []string
	k := j
	for range nameWordMax {
		for k > 0 {
			r, size := utf8.DecodeLastRuneInString(d.text[:k])
			if !nameRune(r) {
				break
			}
			k -= size
		}
		n, end := d.nameAt(k)
		if n == nil || end != j && !(end == j-1 && d.text[end] == '.') {
			break
		}
		best = n
		if k == 0 || d.text[k-1] != ' ' && d.text[k-1] != '\n' {
			break
		}
		k--
	}
	return best
}

// acronym reports whether a name is one upper-case word of two to four
// letters, or an acronym's plural: BMC, MCD, CIT, AOs; what a role is
// followed by in a judgment when it is an authority's, and no one's name.
func acronym(words []string) bool {
	return len(words) == 1 && (len(words[0]) <= 4 && strings.ToUpper(words[0]) == words[0] || acronymPlural.MatchString(words[0]))
}

// acronymPlural is an acronym's plural: "AOs", "FIRs", "PWs".
var acronymPlural = regexp.MustCompile(`^[A-Z]{2,5}s$`)

func hasFullWord(words []string) bool {
	for _, w := range words {
		if !isInitials(w) {
			return true
		}
	}
	return false
}

// skipSpace moves past spaces and tabs and at most one line break: a
// name may be wrapped across lines, but not run into the next paragraph.
func skipSpace(text string, i int) int {
	breaks := 0
	for i < len(text) {
		switch text[i] {
		case ' ', '\t', '\r':
		case '\n':
			breaks++
			if breaks > 1 {
				return i
			}
		default:
			return i
		}
		i++
	}
	return i
}

// wordAt returns the word at text[i], where the next word may start, and
// whether the name must end after it (punctuation follows).
func wordAt(text string, i int) (string, int, bool) {
	j := i
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if !nameRune(r) {
			break
		}
		j += size
	}
	w := text[i:j]
	if j == len(text) {
		return w, j, true
	}
	r, _ := utf8.DecodeRuneInString(text[j:])
	if unicode.IsSpace(r) {
		return w, j, false
	}
	if r == '_' || r == '/' || unicode.IsDigit(r) || unicode.IsLetter(r) {
		return "", j, true // part of a token, "M/s", a code: no name word
	}
	return w, j, true
}

func nameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || r == '.' || r == '\'' || r == '’' || r == '-'
}

// wordKind is what a word can be in a name.
type wordKind int

const (
	notName wordKind = iota
	fullWord
	initials
	organisation
)

var (
	initialsPattern = regexp.MustCompile(`^(?:\p{Lu}\.)+\p{Lu}?$`)
	gluedPattern    = regexp.MustCompile(`^(?:\p{Lu}\.)+\p{Lu}[\p{L}\p{M}'’-]*[\p{L}\p{M}]\.?$`)
	fullPattern     = regexp.MustCompile(`^\p{Lu}[\p{L}\p{M}'’-]*[\p{L}\p{M}]\.?$`)
)

func isInitials(w string) bool { return initialsPattern.MatchString(w) }

func classify(w string) wordKind {
	key := strings.ToLower(strings.TrimSuffix(w, "."))
	switch {
	case w == "":
		return notName
	case organisationWords[key]:
		return organisation
	case key == "j" || key == "jj":
		return notName // a judge's suffix, not an initial
	case isInitials(w):
		return initials
	case notNameWords[key]:
		return notName
	case gluedPattern.MatchString(w) || fullPattern.MatchString(w):
		return fullWord
	}
	return notName
}

// organisationNext reports whether an organisation's word or "&" follows
// a name at text[i], perhaps after "&", as in "Nityananda Bar &
// Restaurant", "Naidu & Co." or "Jet Enterprises Private Limited".
func organisationNext(text string, i int) bool {
	rest := strings.TrimLeft(text[i:], " \t.,&")
	if m := parenthesisedWord.FindStringIndex(rest); m != nil {
		rest = rest[m[1]:] // "Newey (India) Holding Ltd.", "Sharma (P) Ltd."
	}
	w, next, _ := wordAt(rest, 0)
	if classify(w) != organisation {
		return false
	}
	after, _, _ := wordAt(rest, skipSpace(rest, next))
	return !officeOfCompany[strings.ToLower(after)] // "Tanvi Rastogi, Company Secretary"
}

// officeOfCompany are the words after an organisation's word that make
// it an office a person holds: "Company Secretary", "Company Commander".
var officeOfCompany = setOf(`secretary commander`)

// parenthesisedWord is a word in parentheses inside a company's name.
var parenthesisedWord = regexp.MustCompile(`^\(\pL+\.?\)[ \t]*`)

// nameAbbreviations are abbreviated first names, whose full stop does
// not end the name.
var nameAbbreviations = setOf(`mohd. md. sk. mst. syd. kh. th. ng. ph. oi. ch.`)

// notNameWords end a name: words of courts, roles, procedure and
// honorifics, which are capitalised in judgments but name nobody.
var notNameWords = setOf(`a an the and or of for in on at to by from with v vs versus
mr mrs ms miss shri sri smt dr kumari sarvasri justice hon'ble honble learned
senior counsel advocate advocates adv advs agp gp app pp spp addl standing
j jj cj coram date dated p.c pc per judgment order present heard through
petitioner petitioners respondent respondents appellant appellants accused
complainant plaintiff plaintiffs defendant defendants applicant applicants claimant
opposite party deceased victim informant partner partners proprietor karta
no nos section article rule act code chapter schedule order clause
court high supreme district sessions tribunal bench judge chief registrar
state union india government commissioner collector officer inspector
secretary director manager chairman president member authority department
ministry police station village tehsil taluka city road dist
his her their who which whose is was has had are were be this that it he she
ors anr others another etc lrs dead since late through alias
sir madam hon ble retd retired pan sh km kum mst thiru tmt janab begum sardarni sushri
india hindustan maharashtra gujarat karnataka kerala tamil nadu andhra pradesh telangana uttar
madhya himachal arunachal bihar jharkhand odisha orissa punjab haryana rajasthan assam meghalaya
manipur mizoram nagaland tripura sikkim uttarakhand uttaranchal chhattisgarh bengal ladakh puducherry
pondicherry lakshadweep andaman nicobar dadra haveli daman diu goa jammu kashmir delhi mumbai bombay
kolkata calcutta chennai madras bengaluru bangalore hyderabad pune ahmedabad surat jaipur lucknow kanpur
nagpur indore thane bhopal patna vadodara baroda ghaziabad ludhiana agra nashik faridabad meerut rajkot
varanasi srinagar aurangabad amritsar allahabad prayagraj ranchi howrah coimbatore jabalpur gwalior
vijayawada jodhpur madurai raipur kota guwahati chandigarh mysore mysuru gurgaon gurugram noida panaji
shimla dehradun cuttack bhubaneswar thiruvananthapuram trivandrum kochi cochin ernakulam kozhikode
calicut thrissur mangalore mangaluru hubli dharwad belgaum solapur kolhapur satara ahmednagar nanded
latur jalgaon amravati ratnagiri raigad palghar navi
nagar colony vihar enclave puram ganj bagh chowk bazar bazaar mohalla gali sector marg bhawan bhavan
tehsildar taluk mandal zilla parishad panchayat gram samiti sangh sabha vidhan lok adalat thana
kotwali sadar mofussil vakalatnama panchnama mahazar roznamcha khasra khatauni jamabandi benami
stridhan nikah talaq hiba wakf dargah gurudwara mandir masjid ashram
hindu muslim sikh christian parsi buddhist
prima facie bona fide res judicata suo motu mens rea actus reus ratio decidendi obiter dicta
ipso facto inter alia per incuriam locus standi habeas corpus certiorari mandamus quo warranto
novo pendente lite status quo sine qua non
ipc crpc cpc ndps pocso fir chargesheet vide reportable non-reportable prothonotary sheriff crore crores lakh lakhs lac lacs
indlaw scc scr air online cestat itat cat nclt nclat ngt cce cit kar ker del mp bom mad cal guj
ori utt hp jk ap sc hc lj crlj cri mh ilr`)

// organisationWords make a name an organisation's.
var organisationWords = setOf(`ltd limited pvt private company co corporation
society bank industries enterprises associates sons trust union board
council committee association federation llp inc firm traders builders
developers construction mills bar restaurant hotel hospital college school
university agency agencies group holding holdings services products exports imports
m/s`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// withoutPossessive returns words without the "'s" of their last: "Ved
// Lal's letter" names Ved Lal.
func withoutPossessive(words []string) []string {
	last := words[len(words)-1]
	for _, s := range []string{"'s", "’s", "'S", "’S"} {
		if w, ok := strings.CutSuffix(last, s); ok && w != "" {
			return append(append([]string(nil), words[:len(words)-1]...), w)
		}
	}
	return words
}

// inSetOrPlural reports whether the ASCII word w or, when it ends in
// "s", its singular is in set: "minors" starts what "minor" does.
func inSetOrPlural(set map[string]bool, w string) bool {
	return inSet(set, w) || len(w) > 3 && (w[len(w)-1] == 's' || w[len(w)-1] == 'S') && inSet(set, w[:len(w)-1])
}

// inSet reports whether the lower case of the ASCII word w is in set,
// without allocating: most words of a text are looked up and are not.
func inSet(set map[string]bool, w string) bool {
	var buf [16]byte
	if len(w) > len(buf) {
		return set[strings.ToLower(w)]
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return set[string(buf[:len(w)])]
}
