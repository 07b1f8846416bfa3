package pii

import (
	"regexp"
	"strings"
)

// The rules by which a name is told to be a judge's, a counsel's or a
// cited case's party, all of whom stay in clear (spec-gaps B25): by the
// line of appearances it stands on, by the bench's words around it, and by
// the citation of the case it names.
var (
	// appearanceLabel starts a line that names counsel and what they
	// appear for: "For the Respondent :", "Counsel for Applicant :-",
	// "Assessee by :", "Appearances:", "BY ADVS.", "Present:", and a
	// tribunal's bench by its offices: "Chairman :", "Members :".
	appearanceLabel = regexp.MustCompile(`(?i)^[ \t]*(?:(?:(?:ld\.?|learned)[ \t]+)?(?:(?:sr\.?|senior)[ \t]+)?(?:counsel|advocates?)[ \t]+(?:for|on[ \t]+behalf[ \t]+of)\b[^\n:]{0,60}(?::-?|--|–)|for[ \t]+(?:the[ \t]+)?(?:` + appearedFor + `)[^\n:]{0,40}?(?::-?|--|–)|(?:assessee|revenue|department|appellants?|respondents?|petitioners?|applicants?|state|accused|complainants?|claimants?|opposite[ \t]+part(?:y|ies))[ \t]+by[ \t]*:|appearances?[ \t]*(?::|$)|present[ \t]*:|(?:chairman|chairperson|president|members?)[ \t]*:|through[ \t]*:|by[ \t]+(?:advs?\.?|advocates?)(?:[ \t]*:)?|\([ \t]*by[ \t]+(?:advs?\.?|advocates?)\b)`)
	// appearanceBy starts a line of a cause title that names counsel by
	// "(BY" when the line also says what they are: "(BY SRI X, ADVOCATE
	// FOR R3)".
	appearanceBy   = regexp.MustCompile(`(?i)^[ \t]*\(?[ \t]*by\b`)
	counselOfficer = regexp.MustCompile(`(?i)\b(?:advocates?|advs?|counsel|pleader|prosecutor|a\.?g\.?a|h?c?g\.?p|a\.?g\.?p|a\.?p\.?p|amicus)\b`)
	// benchBefore precedes a judge's or a presiding officer's name:
	// "Presiding Officer:", "Presided by:", "IN THE COURT OF", "CORAM:",
	// "BEFORE" or "Present:" at a line's start, "Hon'ble".
	benchBefore = regexp.MustCompile(`(?i)(?:presiding[ \t]+officer[ \t]*:|presided[ \t]+(?:over[ \t]+)?by[ \t]*:?|in[ \t]+the[ \t]+court[ \t]+of|(?m:^[ \t]*(?:before|present|coram)\b[ \t]*:?[ \t]*(?:\n[ \t]*)?)|hon'?ble[ \t]+(?:the[ \t]+)?|honourable[ \t]+)[ \t]*(?:(?:mr|mrs|ms|smt|smti|sri|shri|dr|justice)\.?[ \t]+)*$`)
	// benchAfter follows a judge's or a tribunal member's name: "-J",
	// ", Special Judge", ", JM", ", Member (Technical)", ", President".
	benchAfter = regexp.MustCompile(`(?i)^[ \t]*(?:\(retd\.?\)[ \t]*)?(?:-[ \t]*J\b|,?[ \t]*\n?[ \t]*(?:(?:addl\.?|additional|principal|special|subordinate|district|sessions|civil|chief|judicial|senior|junior|division|family|court|[ivx]+|\d+(?:st|nd|rd|th))[ \t]+){0,4}(?:judge|magistrate|munsiff?|presiding[ \t]+officer)\b|\n[ \t]*(?:(?:addl\.?|additional|principal|special|subordinate|district|sessions|civil|chief|judicial|senior|junior|division|family|[ivx]+)[ \t]+){1,4}(?:judge|magistrate)\b|,[ \t]*(?:jm|am|judicial[ \t]+member|accountant[ \t]+member|technical[ \t]+member|president|chairman|chairperson)\b|,[ \t]*member\b[ \t]*(?:\((?:j|a|t|judicial|technical|administrative|accountant)\)|$|\n|\.))`)
	// citationNear is a law report's citation after a cited case's name:
	// "(2019) 3 SCC 1", "AIR 1973 SC 1461", "2012 (4) ALD 512",
	// "ILR 2013 KAR 4101", "(supra)".
	citationNear = regexp.MustCompile(`(?:\(\d{4}\)|\[\d{4}\]|\bAIR[ \t]+\d{4}|\b\d{4}[ \t]+\(\w{1,4}\)[ \t]+\p{Lu}|\b\d{4}[ \t]+SCC|\bSCC[ \t]+OnLine|\bILR\b|\bCri\.?[ \t]*L\.?[ \t]*J\b|\bINSC\b|\(supra\))`)
	citedV       = regexp.MustCompile(`(?i)^(?:v\.|vs\.?|v/s\.?|versus)[ \t\n]`)
)

// appearedFor are the sides counsel appear for, after "For the".
const appearedFor = `petitioners?|respondents?|appellants?|applicants?|plaintiffs?|defendants?|complainants?|accused|claimants?|opponents?|opposite|opp\.|o\.?[ \t]?p\.?|state|revenue|union|department|management|workm[ae]n|employers?|insurers?|insurance|bank|financial|corporate|interven[eo]rs?|caveators?|aggrieved|r[ \t]?-?[ \t]?\d`

// appearanceLines returns the byte ranges of the lines that name counsel
// or a bench after a label: the labelled line, the lines indented under
// it, and, when the label stands alone ("Appearance:"), the lines after
// it up to a blank one.
func appearanceLines(text string) [][2]int {
	var out [][2]int
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		line := text[start:end]
		m := appearanceLabel.FindStringIndex(line)
		if m == nil && appearanceBy.MatchString(line) && counselOfficer.MatchString(line) {
			m = appearanceBy.FindStringIndex(line)
		}
		if m == nil {
			start = end + 1
			continue
		}
		alone := strings.TrimSpace(line[m[1]:]) == ""
		last := end
		for n, next := 0, end+1; n < 8 && next < len(text); n++ {
			e := lineEnd(text, next)
			l := text[next:e]
			if strings.TrimSpace(l) == "" || !alone && l[0] != ' ' && l[0] != '\t' || strings.Trim(l, "=-_ \t") == "" || causeTitleLine.MatchString(l) {
				break
			}
			last, next = e, e+1
		}
		out = append(out, [2]int{start + m[1], last})
		start = last + 1
	}
	return out
}

// causeTitleLine is a line of a cause title, which ends the lines of
// appearances above it: "versus", a role after dots.
var causeTitleLine = regexp.MustCompile(`(?i)\b(?:versus|vs\.?|v/s)(?:\s|$)|\.{3}|…`)

// officerBefore and officerAfter mark a police officer who attends with
// counsel on a line of appearances: "with SI Pawan Dahiya, P.S.
// Bhajanpura".
var (
	officerBefore = regexp.MustCompile(`(?i)(?:\b(?:si|asi|hc|io|sho|dsp|dysp)|inspector|constable|sub-inspector)\.?[ \t]*$`)
	officerAfter  = regexp.MustCompile(`^[ \t]*,[ \t]*(?:P\.[ \t]?S\.|PS\b|Police[ \t]+Station)`)
)

// lineEnd returns where the line starting at text[start] ends.
func lineEnd(text string, start int) int {
	if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
		return start + i
	}
	return len(text)
}

// appearing reports whether the name at text[start:end] is on a line that
// names counsel or a bench, and is no police officer's attending.
func (d *detector) appearing(start, end int) bool {
	for _, r := range d.appearances {
		if start >= r[0] && start < r[1] {
			return !officerBefore.MatchString(d.text[max(0, start-16):start]) && !officerAfter.MatchString(d.text[end:min(len(d.text), end+24)])
		}
	}
	return false
}

// collectAppearances remembers every name on the lines of appearances,
// save a party in person: none of them is a litigant's.
func (d *detector) collectAppearances() {
	d.appearances = appearanceLines(d.text)
	for _, r := range d.appearances {
		for i := r[0]; i < r[1]; {
			if !startsCapital(d.text, i) {
				i++
				continue
			}
			n, end := d.nameAt(i)
			if n == nil || end > r[1] {
				i = nextWord(d.text, i)
				continue
			}
			if d.appearing(i, end) && !inPerson.MatchString(d.text[end:min(len(d.text), end+40)]) {
				d.keep(n)
			}
			i = end
		}
	}
}

// collectCited remembers the names of the parties of cases cited with a
// law report's citation ("Baijnath v. State of M.P., (2017) 1 SCC 101"),
// so that the same case named again alone ("In Baijnath this Court")
// stays in clear too.
func (d *detector) collectCited() {
	for i := 0; i+2 < len(d.text); i++ {
		if (d.text[i] != 'v' && d.text[i] != 'V') || i > 0 && asciiWord(rune(d.text[i-1])) || !citedV.MatchString(d.text[i:min(len(d.text), i+8)]) {
			continue
		}
		after := i + len(citedV.FindString(d.text[i:]))
		sentence := d.text[after:min(len(d.text), after+160)]
		sentence = sentence[:citedSentenceEnd(sentence)]
		if !citationNear.MatchString(sentence) && !d.citedAfterReliance(i) {
			continue
		}
		d.citeBefore(i)
		if m := honorificPattern.FindStringIndex(d.text[after:min(len(d.text), after+14)]); m != nil {
			after += m[1]
		}
		if n, end := d.wordsAt(after); n != nil {
			d.cite(n) // a firm's words too: "Pr. CIT v. Mohommad Haji Adam & Co."
			d.citeAlias(end)
		}
	}
}

// aliasAfter starts the alias after a name: "@", "alias", "urf".
var aliasAfter = regexp.MustCompile(`(?i)^[ \t]*(?:@|alias\b|urf\b)[ \t]*`)

// citeAlias remembers the alias that follows a cited party's name ending
// at text[end] ("State of Maharashtra v. Bandu @ Daulat").
func (d *detector) citeAlias(end int) {
	if m := aliasAfter.FindStringIndex(d.text[end:min(len(d.text), end+12)]); m != nil {
		if n, _ := d.nameAt(end + m[1]); n != nil {
			d.cite(n)
		}
	}
}

// citedAfterReliance reports whether the case name whose "v." is at
// text[i] follows what cites a case: "relied on X v. Y", "In X v. Y this
// Court held", "see X v. Y".
func (d *detector) citedAfterReliance(i int) bool {
	n := d.nameBefore(i)
	if n == nil {
		return false
	}
	start := strings.LastIndex(d.text[:i], n[0])
	return start > 0 && relianceBefore.MatchString(d.text[max(0, start-40):start])
}

// relianceBefore ends what cites a case before its name.
var relianceBefore = regexp.MustCompile(`(?i)(?:\b(?:relied|relies|relying|rely|placed|reliance)\s+(?:up)?on|\b(?:see|following|followed|explained\s+in|held\s+in|decision\s+in|judgment\s+in|cf\.|vide)|(?:^|[.;:]\s+)in)\s+$`)

// sentenceEnd ends a sentence: a full stop before a capitalised word.
var sentenceEnd = regexp.MustCompile(`\.\s+\p{Lu}\p{Ll}`)

// firmAbbrev are the abbreviations inside a company's or a person's name
// whose full stop ends no sentence: "New India Assurance Co. Ltd.".
var firmAbbrev = setOf(`co corpn corp bros mfg pvt mr mrs ms dr smt sh st`)

// citedSentenceEnd returns where the sentence s starts with ends: after
// the first full stop before a capitalised word that ends no abbreviation
// of firmAbbrev, or len(s).
func citedSentenceEnd(s string) int {
	for _, e := range sentenceEnd.FindAllStringIndex(s, -1) {
		j := e[0]
		for j > 0 && isASCIILetter(rune(s[j-1])) {
			j--
		}
		if !firmAbbrev[strings.ToLower(s[j:e[0]])] {
			return e[0] + 1
		}
	}
	return len(s)
}

// citeBefore remembers the cited party's name that ends before text[i],
// and the name its alias is of ("Mohd. Muslim @ Hussain v.").
func (d *detector) citeBefore(i int) {
	n := d.nameBefore(i)
	if n == nil {
		return
	}
	d.cite(n)
	start := strings.LastIndex(d.text[:i], n[0])
	if m := aliasBefore.FindStringIndex(d.text[max(0, start-12):max(0, start)]); start > 0 && m != nil {
		if left := d.nameBefore(max(0, start-12) + m[0]); left != nil {
			d.cite(left)
		}
	}
}

// aliasBefore ends the name an alias is of.
var aliasBefore = regexp.MustCompile(`(?i)[ \t]*(?:@|\balias|\burf)[ \t]*$`)

// cite remembers a cited party's name.
func (d *detector) cite(words []string) {
	d.cited[strings.ToLower(strings.Join(words, " "))] = true
}

// isCited reports whether name is a cited party's, whole.
func (d *detector) isCited(name []string) bool {
	return d.cited[strings.ToLower(strings.Join(name, " "))]
}

// citedWord reports whether the lower-cased w is a word of a cited
// party's name: a word that alone would be tokenized inside the case's
// name ("Verma" of "Sarla Verma v. Delhi Transport Corporation").
func (d *detector) citedWord(w string) bool {
	for n := range d.cited {
		for _, x := range strings.Fields(n) {
			if strings.TrimSuffix(x, ".") == w {
				return true
			}
		}
	}
	return false
}

// benchTitles are the words before a judge's name in a list of judges
// that are no part of it: "Justice", "Hon'ble", "Dr.", "(Retd.)".
var benchTitles = setOf(`justice hon'ble honble honourable mr mrs ms smt smti sri shri dr col lt gen retd (retd) (retd.) the`)

// judgeName returns a judge's name as a list of judges gives it, without
// the titles before or after it.
func judgeName(j string) []string {
	var out []string
	for _, w := range strings.Fields(j) {
		if !benchTitles[strings.ToLower(strings.TrimSuffix(w, "."))] && !benchTitles[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	return out
}
