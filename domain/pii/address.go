package pii

import (
	"regexp"
	"strings"
)

// An address is found after what introduces one ("r/o", "resident of",
// "residing at", "address:") or where it starts itself ("House No.",
// "Flat No.", "Village"), and runs to the first thing that ends it.
var (
	addressIntro = regexp.MustCompile(`(?i)^(?:(?:both|all|each|presently|permanently|now|at[ \t]+present)[ \t]+)*(?:r[ \t]*/[ \t]*o|residents?[ \t]+of|residing[ \t]+at|resides[ \t]+at|resident[ \t]+at|permanent[ \t]+address|present[ \t]+address|address[ \t]*:)\.?[ \t]*[:,-]?[ \t]*\n?[ \t]*`)
	addressStart = regexp.MustCompile(`(?i)^(?:house|h|flat|plot|door|d|shop|room|quarter|qtr|khasra|survey|gat|ward|building|bldg)[ \t]*\.?[ \t]*(?:no|number)\b\.?`)
	// addressEnd ends an address: a semicolon, a blank line, a page's
	// number alone on a line, "(for short", a role or a
	// cause title's dots, "versus", an age, a clause's verb, or a full stop
	// that ends a sentence (one after a lone letter or an abbreviation of
	// an address's words does not).
	addressEnd    = regexp.MustCompile(`(?i);|\n[ \t]*\n|\n[ \t]*\d+[ \t]*\n|\(\s*(?:for\s+short|hereinafter)|\.\.|…|\(\s*(?:petitioner|respondent|appellant|accused|complainant|plaintiff|defendant|applicant)|\b(?:petitioners?|respondents?|appellants?|applicants?|plaintiffs?|defendants?|complainants?|accused|versus|vs\.?|v\.)(?:\s|$)|,?\s+(?:aged|who|which|was|were|is|are|has|had|have|filed|lodged|stated|deposed|through)\b|,?\s+(?:and|&)\s+(?:another|others|ors)\b|(?-i:\.\s+\p{Lu}\p{Ll})`)
	addressAbbrev = setOf(`no nos dist distt tq tal teh tah p.o po p.s ps st rd nr opp sec vill vpo h.no hno ph e.g near`)
	addressFirst  = setOf(`both all each presently permanently now at r resident residents residing resides permanent present address house h flat plot door d shop room quarter qtr khasra survey gat ward building bldg`)
)

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
	if len(a) < 3 || !hasLetterOrDigit(a) {
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

func hasLetterOrDigit(s string) bool {
	for _, r := range s {
		if isASCIILetter(r) || isASCIIDigit(r) || r > 0x7f {
			return true
		}
	}
	return false
}
