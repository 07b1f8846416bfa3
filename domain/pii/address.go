package pii

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An address is found after what introduces one ("r/o", "r/at", "resident of",
// "residing at", "address:") or where it starts itself ("House No.",
// "Flat No.", "Flat 6,", "Sy. No.", "Village", Odisha's "At-X, PO-Y"),
// and runs to the first thing that ends it.
var (
	addressIntro = regexp.MustCompile(`(?i)^(?:(?:both|all|each|presently|permanently|now|at[ \t]+present)[ \t]+)*(?:r[ \t]*/[ \t]*(?:o|at\b)|c[ \t]*/[ \t]*o|residents?[ \t]+of|residing[ \t]+at|resides[ \t]+at|resident[ \t]+at|permanent[ \t]+address|present[ \t]+address|address[ \t]*:|(?:residence|house|home|premises|shop|office|flat|dwelling)[ \t]+(?:at|situated[ \t]+at|situate[ \t]+at|bearing)|(?:lived|living|lives|stayed|staying|stays|residing|reside|resided)[ \t]+at|situated[ \t]+at|situate[ \t]+at)\.?[ \t]*[:,-]?[ \t]*\n?[ \t]*`)
	addressStart = regexp.MustCompile(`(?i)^(?:(?:house|h|flat|plot|door|d|shop|room|quarter|qtr|qr|khasra|survey|sy|rs|gat|ward|building|bldg|block|unit|apartment|apt|villa|tower|wing|khata|khewat|dag|holding|office|gala|godown|stall)[ \t]*\.?[ \t]*(?:nos?|numbers?)\b\.?|(?:house|flat|plot|shop|unit|apartment|apt|villa|bungalow|tower|block|room|quarter|qtr|gala)[ \t]+(?:[a-z]{1,3}-?)?\d+[a-z]?(?:[-/][a-z0-9]+)*[ \t]*,|(?:village|vill\.|vpo|mauza|mouza|moza|gram|at[ \t]*(?:&|and)[ \t]*p(?:ost|\.[ \t]?o\.?))[ \t]*[:-]?[ \t]*\p{Lu}|(?-i:At)[ \t]*[-:/][ \t]*\p{Lu}[\p{L}]+,[ \t]*(?:P\.?[ \t]?O|Po|Post)\b)`)
	// addressEnd ends an address: a semicolon, a blank line, a page's
	// number alone on a line, a list's next number at a line's start,
	// "(for short", a PAN or a labelled line ("Mobile:") after it, a line
	// that names counsel ("Shri R. M. Bhangde, Advocate for"), a role
	// or a cause title's dots, "versus", an age, a clause's verb or gerund
	// ("using", "having"), or a full stop that ends a sentence (one after
	// a lone letter or an abbreviation of an address's words does not).
	addressEnd    = regexp.MustCompile(`(?i);|\n[ \t]*\n|\n[ \t]*\d+[ \t]*\n|\n[ \t]*\(?\d{1,3}[.)][ \t]|\(\s*(?:for\s+short|hereinafter)|\bPAN\b|\bGSTIN\b|\bpermanent\s+account|\n[ \t]*[\p{L} .]{2,24}:|\n[ \t]*(?:shri|sri|smt|mr|mrs|ms|adv)\.?[ \t]+[^\n,]{1,40},[ \t]*(?:advocates?|counsel)\b|\.\.|…|\(\s*(?:petitioner|respondent|appellant|accused|complainant|plaintiff|defendant|applicant)|\b(?:petitioners?|respondents?|appellants?|applicants?|plaintiffs?|defendants?|complainants?|accused|versus|vs\.?|v\.)(?:\s|$)|,?\s+(?:aged|who|which|was|were|is|are|has|had|have|filed|lodged|stated|deposed|through|by|using|being|having|alleging|claiming|seeking)\b|,?\s+(?:and|&)\s+(?:another|others|ors)\b|(?-i:,?\s+(?:in|and|for|by|with|from|on|to|at|of)\s+(?:an?|the|his|her|their|its)\s)|(?-i:\.\s+(?:\p{Lu}\p{Ll}|[AI]\s))`)
	addressAbbrev = setOf(`no nos qr qtr sy rs apt dist distt tq tal teh tah p.o po p.s ps st rd nr opp sec vill vpo h.no hno ph e.g near ext extn apt bldg flr mkt dt post rly stn govt co ltd pvt soc hsg coop bazar mohalla mohd vtc tah sub div`)
	addressFirst  = setOf(`c block village vill vpo mauza mouza moza gram residence home premises shop office flat dwelling lived living lives stayed staying stays reside resided situated situate both all each presently permanently now at r resident residents residing resides permanent present address house h flat plot door d shop room quarter qtr qr khasra survey sy rs gat ward building bldg unit apartment apt villa tower wing khata khewat dag holding bungalow gala godown stall`)
)

// Two more starts of an address: the house name and place a cause title
// gives after an age ("aged 38 years, Puthenpurayil House, Pampady"), and
// a house's code before a locality ("C-5/112, Yamuna Vihar", "No. 14,
// South Masi Street", "14, Lake Place") or a floor before the building it
// is in ("3rd Floor, Shantinath Complex").
var (
	agedIntro = regexp.MustCompile(`(?i)^aged[ \t]+(?:about[ \t]+|around[ \t]+)?\d{1,3}[ \t]*(?:years?|yrs\.?)(?:[ \t]+old)?[ \t]*,[ \t]*\n?[ \t]*`)
	agedFirst = setOf(`aged`)
	houseCode = regexp.MustCompile(`(?i)^(\d{1,2}(?:st|nd|rd|th)[ \t]+floor[ \t]*,[ \t]*\n?[ \t]*(?-i:\p{Lu})|(?:no\.?[ \t]*|#)?(?:[a-z]{1,3}[-/ ]?)?\d+[a-z]?(?:[-/]\d+[a-z]?)*(?:[ \t]*\((?:old|new)[ \t]+no\.?[ \t]*[\w/-]+\))?,[ \t]*\n?[ \t]*(?:(?:\p{Lu}[\p{L}.'-]*|\d+(?:st|nd|rd|th))[ \t]+){0,3}(?:vihar|nagar|colony|enclave|road|rd|street|st|marg|lane|gali|sector|block|phase|puram|bagh|extension|layout|apartments?|society|chawl|mohalla|park|garden|bazar|chowk|cross|main|salai|veedhi|peth|wadi|pada|palli|place|avenue|terrace|complex|plaza|arcade)\b)`)
)

// pinCode is an Indian postal code as an address ends with it: "PIN
// 560001", "Pin Code: 110 053", "- 781001".
var pinCode = regexp.MustCompile(`(?i)(?:\bpin(?:[ \t]*code)?[ \t]*(?:no\.?)?[ \t]*[:.-]?[ \t]*|[-–][ \t]*)[1-9]\d{2}[ \t]?\d{3}\b`)

// addressBack ends what precedes an address, read backwards: a sentence's
// end, a clause's mark, or a word that introduces one.
var addressBack = regexp.MustCompile(`(?i)(?:[;:(]|\n[ \t]*\n|(?-i:\b[a-z]{2,}\.)\s+|\b(?:r/o|at|of|in|to|from|situated|situate|residing|resides|resident|lived|living|address|premises|bearing|house|home|residence|flat|shop|office),?\s+)$`)

// pinAddresses returns the addresses that end with a PIN code, each read
// back from its code over at most maxAddress bytes to what introduces it.
func pinAddresses(text string) []string {
	var out []string
	for _, m := range pinCode.FindAllStringIndex(text, -1) {
		if !pinAfterPlace(text, m[0]) {
			continue
		}
		start, ok := addressStartBefore(text, m[0])
		if !ok {
			continue
		}
		if a := strings.TrimSpace(strings.TrimLeft(text[start:m[1]], " \t\n,.-")); len(a) > 8 && !startsWithToken(a) {
			out = append(out, a)
		}
	}
	return out
}

// pinAfterPlace reports whether the PIN code matched at text[i] follows a
// place's name, as an address writes it ("Mumbai – 400050", "Pin
// 560001"), not a number in prose ("Rs. 5,00,000 - 100000").
func pinAfterPlace(text string, i int) bool {
	if strings.HasPrefix(strings.ToLower(text[i:]), "pin") {
		return true
	}
	before := strings.TrimRight(text[max(0, i-40):i], " \t")
	if before == "" {
		return false
	}
	c := before[len(before)-1]
	return isASCIILetter(rune(c)) || c == ')'
}

// addressStartBefore returns where the address that ends at text[end]
// starts: after the nearest thing before it that ends what precedes an
// address, within maxAddress bytes; false when nothing there introduces
// one.
func addressStartBefore(text string, end int) (int, bool) {
	lo := max(0, end-maxAddress)
	for i := end - 1; i > lo; i-- {
		if addressBack.MatchString(text[max(lo, i-24):i]) {
			return i, true
		}
	}
	return 0, false
}

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
		case isASCIILetter(rune(c)) || c == '-' || c == '/' || c == '.' || c == '#' || c == ' ' && j > 0:
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
	for _, a := range pinAddresses(d.text) {
		if !seen[strings.ToLower(a)] {
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
	if end == maxAddress {
		end = cutAtPart(window) // no end within reach: the last whole part
	}
	for _, m := range addressEnd.FindAllStringIndex(window[:end], -1) {
		if window[m[0]] == '.' && m[1]-m[0] > 2 && abbreviationBefore(window, m[0]) {
			continue
		}
		end = m[0]
		break
	}
	a := strings.TrimRight(window[:end], " \t\n,.-:(")
	if len(a) < 3 || !hasLetterOrDigit(a) || startsWithToken(a) {
		return ""
	}
	return a
}

// cutAtPart returns where the last comma of a window cut short stands, or
// its last space: an address is never taken to end inside a word.
func cutAtPart(window string) int {
	if i := strings.LastIndexByte(window, ','); i > 0 {
		return i
	}
	return max(0, strings.LastIndexByte(window, ' '))
}

// abbreviationBefore reports whether the full stop at s[i] ends a lone
// letter or an abbreviation of an address's words ("Dist. Pune").
func abbreviationBefore(s string, i int) bool {
	j := i
	for j > 0 && (isASCIILetter(rune(s[j-1])) || s[j-1] == '.') {
		j--
	}
	w := strings.ToLower(s[j:i])
	return w != "" && (len(w) == 1 || addressAbbrev[w] || dottedLetters(w))
}

// dottedLetters reports whether w is single letters joined by full stops,
// as initials and abbreviations are written ("m.g" of "M.G. Road").
func dottedLetters(w string) bool {
	for i, part := range strings.Split(w, ".") {
		if len(part) != 1 && (i > 0 || part != "") {
			return false
		}
	}
	return true
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

// placeIntro is what a part of an address starts with before the name of
// a house or a village: "Village", "Vill.", "House No. 12", "Flat No. 9".
var placeIntro = regexp.MustCompile(`(?i)^(?:(?:village|vill\.?|mauza|mouza|gram|at[ \t]*(?:&|and)[ \t]*post|house|h|flat|plot|door|d|shop|room|block|building|bldg)\b\.?[ \t]*(?:no\b\.?)?[ \t]*[:-]?[ \t]*)?[\w/-]*\d[\w/-]*[ \t]*|^(?:village|vill\.?|mauza|mouza|gram)\b\.?[ \t]*`)

// placeNames returns the name a text may call an address's place by
// alone: the capitalised words of its first part that names one, within
// its first two parts ("Gloria Apartments" of "Flat No. 9, Gloria
// Apartments, Hill Road, ..."), unless they are a word of courts or places
// such as a city's.
func placeNames(a string) []string {
	parts := strings.Split(a, ",")
	for _, part := range parts[:min(2, len(parts)-1)] {
		rest := strings.Trim(strings.TrimSpace(placeIntro.ReplaceAllString(strings.TrimSpace(part), "")), `'"‘’“”`)
		words := strings.Fields(rest)
		if len(words) == 0 || len(words) > 4 || !capitalised(words) || len(words) == 1 && notNameWords[strings.ToLower(words[0])] {
			continue
		}
		return []string{strings.Join(words, " ")}
	}
	return nil
}

// capitalised reports whether every word starts with a capital letter.
func capitalised(words []string) bool {
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}
