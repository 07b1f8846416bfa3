package ask

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quarrydata/quarry/domain/pii"
)

// A model sentence may share most of its words with its passage and still
// add what the passage does not hold: a person's name, a denial, a figure
// or a PAN. These checks find such additions (spec-gaps A37); a sentence
// with any of them is dropped, whatever else it shares with its passage.

// commaNumberRun reads a number with its digit-group commas ("5,00,000"),
// so that "5,000" is not supported by the "5" and "000" of another figure.
var commaNumberRun = regexp.MustCompile(`[0-9](?:[0-9.,\-]*[0-9])?`)

// numberWords are the numbers a sentence may spell out. "one" is left out:
// it is a pronoun as often ("one of the segments"), and adds no figure.
var numberWords = setOf(`two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
	sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
	million billion trillion lakh crore dozen half twice`)

// negations are the words that deny what follows them. "n't" and "cannot"
// are read as "not".
var negations = setOf(`not no never neither nor none nothing nobody nowhere without false untrue incorrect`)

// negationReach is how many words after a passage's negation the word a
// sentence negates may come: "did not file", "was not, in our view, filed".
const negationReach = 4

// auxiliaries are skipped, with the stop words, when looking for the word
// a negation denies: in "is not true" it denies "true", not "is".
var auxiliaries = setOf(`be been being had can could would should may might must shall ever any all that so`)

// sentenceOpeners are words that may start a sentence with a capital
// without naming anything, besides the stop words: the pronouns,
// determiners and conjunctions a paraphrase starts with.
var sentenceOpeners = setOf(`also although after before because both but each every he her here his however if
	in it its many most no not other she some such that the their then there these they this those thus
	under we when where whereas which while who yet`)

func setOf(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}

// addsNothing reports whether sentence adds none of the kinds of claim its
// passage must hold: a PAN-shaped string (never, the texts being
// tokenized), a number (written in digits, grouped or not, or in words), a
// negation, or a capitalised word (a name).
func addsNothing(sentence, passage string) bool {
	if pii.HasPANShaped(sentence) || pii.HasPANShaped(strings.ToUpper(sentence)) {
		return false
	}
	return subset(numbers(sentence), numbers(passage)) &&
		negationsSupported(sentence, passage) &&
		namesSupported(sentence, passage)
}

// numbers are the digit runs of text, read with and without their group
// commas, and the numbers it spells out.
func numbers(text string) map[string]bool {
	out := map[string]bool{}
	for _, re := range []*regexp.Regexp{numberRun, commaNumberRun} {
		for _, n := range re.FindAllString(text, -1) {
			out[n] = true
		}
	}
	for _, w := range words(text) {
		if w := strings.ToLower(w.text); numberWords[w] || numberWords[strings.TrimSuffix(w, "s")] {
			out[strings.TrimSuffix(w, "s")] = true
		}
	}
	return out
}

// negationsSupported reports whether every negation of sentence is in
// passage, and denies the same thing there: the first content word after
// the sentence's negation (cut to five letters, as contentStems does) comes
// within negationReach words after the same negation in the passage. So
// "It is not true that …" needs a passage that says "not true", not just
// any "not". A negation ending the sentence needs only to be in the passage.
func negationsSupported(sentence, passage string) bool {
	have := negationWords(passage)
	said := negationWords(sentence)
	for i, w := range said {
		if !negations[w] {
			continue
		}
		denied := deniedWord(said[i+1:])
		if !slices.ContainsFunc(indexes(have, w), func(k int) bool {
			return denied == "" || slices.ContainsFunc(have[k+1:min(len(have), k+1+negationReach)], func(v string) bool { return stem(v) == denied })
		}) {
			return false
		}
	}
	return true
}

// negationWords are text's words, lower-cased, with "n't" and "cannot"
// read as "not".
func negationWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(text, "’", "'")), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		w = strings.Trim(w, "'")
		if strings.HasSuffix(w, "n't") || w == "cannot" {
			w = "not"
		}
		out = append(out, w)
	}
	return out
}

// deniedWord is the stem of the first content word of after: what a
// negation just before it denies; "" when there is none.
func deniedWord(after []string) string {
	for _, w := range after {
		if !stopWords[w] && !auxiliaries[w] && !negations[w] && utf8.RuneCountInString(w) > 1 {
			return stem(w)
		}
	}
	return ""
}

// stem cuts a plural's "s" off a word and the word to its first six
// letters, as contentStems does: "risks" meets "risk", "competition"
// meets "competitive", and "compensating" stays apart from both.
func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		w = w[:len(w)-1]
	}
	if rs := []rune(w); len(rs) > 6 {
		return string(rs[:6])
	}
	return w
}

func indexes(ws []string, w string) []int {
	var out []int
	for i, v := range ws {
		if v == w {
			out = append(out, i)
		}
	}
	return out
}

// namesSupported reports whether every capitalised word of sentence is
// in passage: written with a capital there too, unless it only starts a
// sentence, where a capital is grammar, not a name; then it must be in
// the passage in any case, or be a sentence opener. Scripts without case
// (Devanagari, Han) have no capitals to check.
func namesSupported(sentence, passage string) bool {
	anyCase, capital := map[string]bool{}, map[string]bool{}
	for _, w := range words(passage) {
		l := strings.ToLower(w.text)
		anyCase[l] = true
		if startsUpper(w.text) {
			capital[l] = true
		}
	}
	for _, w := range words(sentence) {
		if !startsUpper(w.text) {
			continue
		}
		l := strings.ToLower(w.text)
		switch {
		case capital[l]:
		case w.opens && (anyCase[l] || sentenceOpeners[l] || stopWords[l]):
		default:
			return false
		}
	}
	return true
}

// word is a word of a text and whether it opens a sentence: it is the
// text's first word, or follows `.`, `?`, `!` or `:`.
type word struct {
	text  string
	opens bool
}

// words splits text into its words: runs of letters, digits and marks.
func words(text string) []word {
	var out []word
	opens, start := true, -1
	for i, r := range text + " " {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			out = append(out, word{text: text[start:i], opens: opens})
			start, opens = -1, false
		}
		if strings.ContainsRune(".?!:", r) {
			opens = true
		}
	}
	return out
}

func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// The arithmetic a record-rendered sentence may show (askderived.go): a
// ratio in percent, a change in percent, and a difference. Operands and
// results are written as number writes them.
var (
	ratioShown  = regexp.MustCompile(`(?:^|[^)] )(-?[0-9][0-9.]*) / (-?[0-9][0-9.]*) = (-?[0-9][0-9.]*)%`)
	changeShown = regexp.MustCompile(`\((-?[0-9][0-9.]*) - (-?[0-9][0-9.]*)\) / (-?[0-9][0-9.]*) = ([+-][0-9][0-9.]*)%`)
	diffShown   = regexp.MustCompile(`= (-?[0-9][0-9.]*) - (-?[0-9][0-9.]*) = (-?[0-9][0-9.]*)\b`)
)

// checkDifferences checks each difference the sentence shows (diffShown)
// as subtracted writes it, and adds its result to results.
func checkDifferences(sentence string, results *[]string) bool {
	for _, m := range diffShown.FindAllStringSubmatch(sentence, -1) {
		if subtracted(m[1], m[2]) != m[3] {
			return false
		}
		*results = append(*results, strings.TrimLeft(m[3], "+-"))
	}
	return true
}

// ArithmeticResults returns the results of the arithmetic sentence shows,
// without their signs, and false when a result is not what its operands
// give. Every other number of a sentence must be a field of a record it
// cites; a result may be only this.
func ArithmeticResults(sentence string) ([]string, bool) {
	var results []string
	check := func(re *regexp.Regexp, compute func(x []float64) string) bool {
		for _, m := range re.FindAllStringSubmatch(sentence, -1) {
			x := make([]float64, len(m)-2)
			for i := range x {
				v, err := strconv.ParseFloat(m[i+1], 64)
				if err != nil {
					return false
				}
				x[i] = v
			}
			stated := m[len(m)-1]
			if compute(x) != stated {
				return false
			}
			results = append(results, strings.TrimLeft(stated, "+-"))
		}
		return true
	}
	ok := check(ratioShown, func(x []float64) string {
		if x[1] == 0 {
			return ""
		}
		return strings.TrimSuffix(percent(100*x[0]/x[1], false), "%")
	}) && check(changeShown, func(x []float64) string {
		if x[2] == 0 || x[1] != x[2] {
			return ""
		}
		return strings.TrimSuffix(percent(100*(x[0]-x[1])/abs(x[2]), true), "%")
	}) && checkDifferences(sentence, &results)
	return results, ok
}
