package pii

import (
	"regexp"
	"strings"
)

// An address is found after what introduces one ("r/o", "resident of",
// "residing at", "address:") or where it starts itself ("House No.",
// "Flat No.", "Village"), and runs to the first thing that ends it.
var (
	addressIntro = regexp.MustCompile(`(?i)^(?:(?:both|all|each|presently|permanently|now|at[ \t]+present)[ \t]+)*(?:r[ \t]*/[ \t]*o|residents?[ \t]+of|residing[ \t]+at|resides[ \t]+at|resident[ \t]+at|permanent[ \t]+address|present[ \t]+address|address[ \t]*:|(?:residence|house|home|premises|shop|office|flat|dwelling)[ \t]+(?:at|situated[ \t]+at|situate[ \t]+at|bearing)|(?:lived|living|lives|stayed|staying|stays|residing)[ \t]+at|situated[ \t]+at|situate[ \t]+at)\.?[ \t]*[:,-]?[ \t]*\n?[ \t]*`)
	addressStart = regexp.MustCompile(`(?i)^(?:house|h|flat|plot|door|d|shop|room|quarter|qtr|khasra|survey|gat|ward|building|bldg)[ \t]*\.?[ \t]*(?:no|number)\b\.?`)
	// addressEnd ends an address: a semicolon, a blank line, a page's
	// number alone on a line, "(for short", a PAN or a labelled line
	// ("Mobile:") after it, a role or a
	// cause title's dots, "versus", an age, a clause's verb, or a full stop
	// that ends a sentence (one after a lone letter or an abbreviation of
	// an address's words does not).
	addressEnd    = regexp.MustCompile(`(?i);|\n[ \t]*\n|\n[ \t]*\d+[ \t]*\n|\(\s*(?:for\s+short|hereinafter)|\bPAN\b|\bpermanent\s+account|\n[ \t]*[\p{L} .]{2,24}:|\.\.|…|\(\s*(?:petitioner|respondent|appellant|accused|complainant|plaintiff|defendant|applicant)|\b(?:petitioners?|respondents?|appellants?|applicants?|plaintiffs?|defendants?|complainants?|accused|versus|vs\.?|v\.)(?:\s|$)|,?\s+(?:aged|who|which|was|were|is|are|has|had|have|filed|lodged|stated|deposed|through)\b|,?\s+(?:and|&)\s+(?:another|others|ors)\b|(?-i:\.\s+\p{Lu}\p{Ll})`)
	addressAbbrev = setOf(`no nos dist distt tq tal teh tah p.o po p.s ps st rd nr opp sec vill vpo h.no hno ph e.g near`)
	addressFirst  = setOf(`residence home premises shop office flat dwelling lived living lives stayed staying stays situated situate both all each presently permanently now at r resident residents residing resides permanent present address house h flat plot door d shop room quarter qtr khasra survey gat ward building bldg`)
)

// Two more starts of an address: the house name and place a cause title
// gives after an age ("aged 38 years, Puthenpurayil House, Pampady"), and
// a house's code before a locality ("C-5/112, Yamuna Vihar", "No. 14,
// South Masi Street").
var (
	agedIntro = regexp.MustCompile(`(?i)^aged[ \t]+(?:about[ \t]+|around[ \t]+)?\d{1,3}[ \t]*(?:years?|yrs\.?)(?:[ \t]+old)?[ \t]*,[ \t]*\n?[ \t]*`)
	agedFirst = setOf(`aged`)
	houseCode = regexp.MustCompile(`(?i)^((?:no\.?[ \t]*)?(?:[a-z]{1,3}[-/ ]?)?\d+[a-z]?(?:[-/]\d+[a-z]?)*,[ \t]*\n?[ \t]*(?:\p{Lu}[\p{L}.'-]*[ \t]+){0,3}(?:vihar|nagar|colony|enclave|road|rd|street|st|marg|lane|gali|sector|block|phase|puram|bagh|extension|layout|apartments?|society|chawl|mohalla|park|garden|bazar|chowk|cross|main|salai|veedhi|peth|wadi|pada|palli)\b)`)
)

// houseCodes returns where the house codes of text start: each word that
// starts after a space, a comma or a parenthesis with a digit, or with up
// to three letters or "No." and a digit, and reads as houseCode.
func houseCodes(text string) []int {
	var out []int
	for i := 0; i < len(text); i++ {
		if i > 0 && strings.IndexByte(" \t\n,(", text[i-1]) < 0 || !codeStart(text[i:min(len(text), i+8)]) {
			continue
		}
		if houseCode.MatchString(text[i:min(len(text), i+120)]) {
			out = append(out, i)
		}
	}
	return out
}

// codeStart reports whether s starts like a house's code: a digit within
// its first five bytes, after nothing but letters, "-", "/", "." or a space.
func codeStart(s string) bool {
	for j := 0; j < len(s) && j < 5; j++ {
		c := s[j]
		switch {
		case c >= '0' && c <= '9':
			return true
		case isASCIILetter(rune(c)) || c == '-' || c == '/' || c == '.' || c == ' ' && j > 0:
		default:
			return false
		}
	}
	return false
}

// addressLike reports whether what follows an age reads as an address:
// a house name or a place's words, capitalised, not a relation or a
// sentence ("aged 38 years, Puthenpurayil House", not "aged 38 years,
// was").
func addressLike(a string) bool {
	w, _, _ := wordAt(a, 0)
	return w != "" && w[0] >= 'A' && w[0] <= 'Z' && !notNameWords[strings.ToLower(w)] && !isEnglish(w) || strings.Contains(strings.ToLower(a), "house")
}

// maxAddress bounds what one address takes: a full Indian address with
// its district, state and PIN code runs to about two hundred characters.
const maxAddress = 240

// addresses returns the addresses the text gives, each once, as written.
func (d *detector) addresses() []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range d.findAll(addressIntro, addressFirst) {
		if a := addressAt(d.text, m[1]); a != "" && !seen[strings.ToLower(a)] {
			seen[strings.ToLower(a)] = true
			out = append(out, a)
		}
	}
	for _, m := range d.findAll(agedIntro, agedFirst) {
		if a := addressAt(d.text, m[1]); a != "" && addressLike(a) && !seen[strings.ToLower(a)] {
			seen[strings.ToLower(a)] = true
			out = append(out, a)
		}
	}
	for _, i := range houseCodes(d.text) {
		if a := addressAt(d.text, i); a != "" && !seen[strings.ToLower(a)] {
			seen[strings.ToLower(a)] = true
			out = append(out, a)
		}
	}
	for _, m := range d.findAll(addressStart, addressFirst) {
		if a := addressAt(d.text, m[0]); a != "" && !seen[strings.ToLower(a)] {
			seen[strings.ToLower(a)] = true
			out = append(out, a)
		}
	}
	return out
}

// addressAt returns the address that starts at text[i], up to what ends
// it, or "" when nothing like an address is there.
func addressAt(text string, i int) string {
	window := text[i:min(len(text), i+maxAddress)]
	end := len(window)
	for _, m := range addressEnd.FindAllStringIndex(window, -1) {
		if window[m[0]] == '.' && m[1]-m[0] > 2 && abbreviationBefore(window, m[0]) {
			continue
		}
		end = m[0]
		break
	}
	a := strings.TrimRight(window[:end], " \t\n,.-:")
	if len(a) < 3 || !hasLetterOrDigit(a) || startsWithToken(a) {
		return ""
	}
	return a
}

// abbreviationBefore reports whether the full stop at s[i] ends a lone
// letter or an abbreviation of an address's words ("Dist. Pune").
func abbreviationBefore(s string, i int) bool {
	j := i
	for j > 0 && (isASCIILetter(rune(s[j-1])) || s[j-1] == '.') {
		j--
	}
	w := strings.ToLower(s[j:i])
	return len(w) <= 1 || addressAbbrev[w]
}

// startsWithToken reports whether a starts with a token: an address
// replaced already, which is never replaced again.
func startsWithToken(a string) bool {
	f := strings.Fields(a)
	return len(f) > 0 && IsToken(strings.TrimRight(f[0], ",.;:)"))
}

func hasLetterOrDigit(s string) bool {
	for _, r := range s {
		if isASCIILetter(r) || isASCIIDigit(r) || r > 0x7f {
			return true
		}
	}
	return false
}
