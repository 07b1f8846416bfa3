package pii

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A judgment in Hindi, or a Hindi passage of one in English (a dying
// declaration, an FIR), names persons by the same contexts in Devanagari:
// an honorific (श्री, श्रीमती), a kinship (पुत्र, पत्नी, उर्फ़), a role
// (अभियुक्त, वादिनी, साक्षी), a witness's number after the name ((अ.सा.-1)),
// and an address after निवासी or ग्राम. Devanagari has no capitals, so a
// name is the Devanagari words after such a context up to a word of
// grammar, procedure or place (hindiStop), at most four of them.
var (
	hindiBefore = regexp.MustCompile(`^(?:नाम|श्रीमती|श्रीमान|सुश्री|कुमारी|श्री|कु\.|स्व\.|स्वर्गीय|डॉ\.|डा\.|मो\.|पुत्र|पुत्री|पत्नी|पति|पिता|माता|मां|भाई|बहन|सास|ससुर|देवर|ननद|जेठ|जेठानी|देवरानी|भाभी|बेटा|बेटी|दादा|दादी|नाना|नानी|चाचा|चाची|मामा|मामी|भतीजा|भांजा|दामाद|बहू|उर्फ़|उर्फ|अभियुक्त|आरोपी|अपीलार्थी|प्रार्थी|प्रार्थिनी|याची|विपक्षी|परिवादी|परिवादिनी|वादी|वादिनी|प्रतिवादी|मृतक|मृतका|पीड़िता|गवाह|साक्षी|अभियोक्त्री|नाबालिग|बालक|बालिका|उपनिरीक्षक|निरीक्षक|थानाध्यक्ष|सिपाही|कांस्टेबल|चिकित्सक|डॉक्टर|विवेचक)[ \t]*(?:स्व\.[ \t]*|श्री[ \t]+|श्रीमती[ \t]+)?`)
	// hindiAfter follows a name: a kinship, an alias, a witness's number,
	// an age, an address.
	hindiAfter = regexp.MustCompile(`^[ \t]*(?:\((?:उम्र|आयु|अ\.[ \t]?सा\.|ब\.[ \t]?सा\.)|पुत्र|पुत्री|पत्नी|उर्फ़|उर्फ|निवासी|नि\.|,[ \t]*(?:उम्र|आयु))`)
	// hindiOffice follows the name of counsel or a judge, who stay in
	// clear: ", अधिवक्ता", ", अपर सत्र न्यायाधीश".
	hindiOffice = regexp.MustCompile(`^[ \t]*,?[ \t]*(?:[^\s,।]+[ \t]+){0,4}?(?:अधिवक्ता|न्यायाधीश|मजिस्ट्रेट|शासकीय)`)
	// hindiAddress introduces an address, which runs to a danda, a line's
	// end, an age or a word of grammar.
	hindiAddress    = regexp.MustCompile(`^(?:निवासी|नि\.|ग्राम|मकान[ \t]+(?:नंबर|नं\.|संख्या)|मोहल्ला)`)
	hindiAddressEnd = regexp.MustCompile(`।|\n|;|\.\.|…|,[ \t]*(?:उम्र|आयु)|[ \t](?:ने|का|की|के|को|से|में|है|था|थी|थे|पर|तथा|एवं)[ \t,।]`)
)

// hindiStop are the words that end a name in Devanagari.
var hindiStop = setOf(`का की के ने को से में पर और है था थी थे हैं तथा एवं व या जो कि द्वारा इस उस उसके उसकी उसका अपनी
अपने अपना यह वह ही भी तो पक्ष ओर न्यायालय थाना जनपद जिला ग्राम निवासी अपर सत्र न्यायाधीश अभियुक्त अभियोजन
बनाम राज्य सरकार दिनांक धारा सन संख्या मुकदमा वादी वादिनी गांव घटना समय साथ द्वारा उर्फ़ उर्फ पुत्र पुत्री पत्नी
पति पिता माता भाई बहन साक्षी गवाह मृतक श्री श्रीमती स्व. डॉ. मो. कुमारी नाबालिग बालक बालिका आदि`)

// hindi adds the Devanagari names and addresses of the text.
func (d *detector) hindi() []string {
	var addresses []string
	for i := 0; i < len(d.text); {
		r, size := utf8.DecodeRuneInString(d.text[i:])
		if !unicode.Is(unicode.Devanagari, r) || i > 0 && devanagariBefore(d.text, i) {
			i += size
			continue
		}
		window := d.text[i:min(len(d.text), i+600)]
		if m := hindiAddress.FindStringIndex(window); m != nil {
			if a := hindiAddressAt(d.text, i); a != "" {
				addresses = append(addresses, a)
			}
		}
		if m := hindiBefore.FindStringIndex(window); m != nil {
			if n, end := hindiNameAt(d.text, i+m[1]); n != nil && !hindiOffice.MatchString(d.text[end:min(len(d.text), end+200)]) {
				d.add(n)
			}
		}
		if m := hindiAfter.FindStringIndex(window); m != nil {
			if n := hindiNameBefore(d.text, i); n != nil {
				d.add(n)
			}
		}
		i += size
	}
	return addresses
}

// devanagariBefore reports whether a Devanagari letter or mark stands
// just before text[i]: i is inside a word, not at its start.
func devanagariBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.Is(unicode.Devanagari, r) && r != '।'
}

// hindiWordAt returns the Devanagari word at text[i] and where it ends.
func hindiWordAt(text string, i int) (string, int) {
	j := i
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if !unicode.Is(unicode.Devanagari, r) || r == '।' || r == '॥' {
			break
		}
		j += size
	}
	return text[i:j], j
}

// hindiNameAt reads the name at text[i]: up to four Devanagari words,
// ending at a word of hindiStop or anything else.
func hindiNameAt(text string, i int) ([]string, int) {
	var words []string
	end := i
	for pos := i; len(words) < 4; {
		for pos < len(text) && (text[pos] == ' ' || text[pos] == '\t') {
			pos++
		}
		w, next := hindiWordAt(text, pos)
		if w == "" || hindiStop[w] {
			break
		}
		words, end, pos = append(words, w), next, next
	}
	if len(words) == 0 {
		return nil, 0
	}
	return words, end
}

// hindiNameBefore reads the name that ends at text[i] (after spaces).
func hindiNameBefore(text string, i int) []string {
	var words []string
	for j := i; len(words) < 4; {
		for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
			j--
		}
		k := j
		for k > 0 {
			r, size := utf8.DecodeLastRuneInString(text[:k])
			if !unicode.Is(unicode.Devanagari, r) || r == '।' {
				break
			}
			k -= size
		}
		w := text[k:j]
		if w == "" || hindiStop[w] {
			break
		}
		words = append([]string{w}, words...)
		j = k
	}
	if len(words) == 0 {
		return nil
	}
	return words
}

// hindiAddressAt returns the address that starts at text[i].
func hindiAddressAt(text string, i int) string {
	window := text[i:min(len(text), i+maxAddress*3)]
	end := len(window)
	if m := hindiAddressEnd.FindStringIndex(window); m != nil {
		end = m[0]
	}
	return strings.TrimRight(window[:end], " \t,")
}
