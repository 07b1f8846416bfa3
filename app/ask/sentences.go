package ask

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/quarrydata/quarry/app/readcache"
)

// Layout is what a text's line breaks are. It decides where the text's
// sentences end and how a span of it reads as an answer's sentence: the
// texts Ask reads are a 10-K section's paragraphs and a judgment's printed
// lines.
type Layout int

const (
	// Paragraphs is a 10-K section's text, a line a paragraph or a heading:
	// a sentence ends at every line break, and at '.', '?' or '!' followed
	// by a space.
	Paragraphs Layout = iota
	// PrintedLines is a judgment's text, extracted from a PDF, a line a
	// printed line: a sentence ends at '.', '?' or '!' followed by white
	// space, and at a line break unless the line before it ends in a
	// lower-case letter, a comma, a semicolon, a hyphen or an opening
	// bracket, which a printed sentence running on to the next line does.
	// Headings, page numbers and neutral citations (2015:BHC-OS:12420-DB)
	// end at their line. A full stop ending an abbreviation the courts
	// write (No., Ltd., i.e., Rs.) or an initial (D. Desai) ends no
	// sentence.
	PrintedLines
)

// Sentences splits text into sentences by layout's rules, as code-point
// ranges [start, end) with surrounding white space left out.
func Sentences(text string, layout Layout) [][2]int {
	rs := []rune(text)
	var out [][2]int
	start := 0
	for i := range rs {
		if end, ok := layout.sentenceEnd(rs, i); ok {
			out = appendTrimmed(out, rs, start, end)
			start = end
		}
	}
	return appendTrimmed(out, rs, start, len(rs))
}

// sentenceEnd reports whether a sentence ends at rs[i] and where: before a
// line break, after a stop.
func (l Layout) sentenceEnd(rs []rune, i int) (int, bool) {
	switch rs[i] {
	case '\n':
		return i, l == Paragraphs || i == 0 || !runsOn(rs[i-1])
	case '.', '?', '!':
		return i + 1, i+1 < len(rs) && l.stopEnds(rs, i)
	}
	return 0, false
}

// stopEnds reports whether the stop at rs[i], with a rune after it, ends a
// sentence. A paragraph's needs a space after it. A printed line's may have
// any white space after it, the line's end among them, and a full stop
// after an abbreviation or an initial ends none.
func (l Layout) stopEnds(rs []rune, i int) bool {
	if l == Paragraphs {
		return rs[i+1] == ' '
	}
	return unicode.IsSpace(rs[i+1]) && (rs[i] != '.' || !abbreviated(rs[:i]))
}

// appendTrimmed appends the range [start, end) of rs to out with the white
// space around it left out, unless nothing is left.
func appendTrimmed(out [][2]int, rs []rune, start, end int) [][2]int {
	for start < end && unicode.IsSpace(rs[start]) {
		start++
	}
	for end > start && unicode.IsSpace(rs[end-1]) {
		end--
	}
	if end > start {
		out = append(out, [2]int{start, end})
	}
	return out
}

// courtAbbreviations are the words judgments abbreviate with a full stop,
// lower-cased, without it.
var courtAbbreviations = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`no nos mr mrs ms dr sr jr smt shri sri ltd pvt co corp inc anr ors vs v viz i.e e.g
		etc rs m/s art arts sec secs cl para paras vol p pp j jj cj hon'ble st govt dept`) {
		courtAbbreviations[w] = true
	}
}

// initialism is a run of initials with the last one's stop left off:
// "U.P" of "U.P.", "S.C" of "S.C.".
var initialism = regexp.MustCompile(`^(?:\pL\.)+\pL$`)

// abbreviated reports whether the word that text ends with is an
// abbreviation or an initial, so a full stop after it ends no sentence.
// "etc." is one, though it often ends a sentence: a sentence that goes on
// is the lesser harm, since an answer's sentence must still end well.
func abbreviated(text []rune) bool {
	i := len(text)
	for i > 0 && !unicode.IsSpace(text[i-1]) && text[i-1] != '(' {
		i--
	}
	word := string(text[i:])
	if rs := []rune(word); len(rs) == 1 && unicode.IsUpper(rs[0]) || initialism.MatchString(word) {
		return true
	}
	return courtAbbreviations[strings.ToLower(word)]
}

// runsOn reports whether a printed line ending in r may run on to the next
// line.
func runsOn(r rune) bool {
	return unicode.IsLower(r) || strings.ContainsRune(",;-–(", r)
}

// said writes a span of text laid out as l as an answer's sentence. A
// paragraph's span is said as it is. A printed span has each line break,
// tab or form feed (the breaks of the printed lines and pages) written as
// one space, so the sentence has the span's length in code points.
func (l Layout) said(span string) string {
	if l == Paragraphs {
		return span
	}
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("\t\n\v\f\r", r) {
			return ' '
		}
		return r
	}, span)
}

// proseSentence reports whether a span reads as a sentence, not a heading:
// six words or more, ending in a full stop, question or exclamation mark.
func proseSentence(s string) bool {
	return len(strings.Fields(s)) >= 6 && strings.ContainsAny(s[len(s)-1:], ".?!")
}

// sentenceMemo keeps each retrieved document's sentences as passages
// weighs them: splitting a section or judgment, and stemming every sentence
// of it, was most of a text question's CPU, and depends on the text alone.
// An entry is used only for the very text it was made from.
type sentenceMemo struct {
	memo *readcache.Memo[string, []docSentence]
}

// docSentence is one sentence of a document: its code-point range, the span
// as the text has it and as an answer says it, the content stems of what is
// said, and whether it reads as prose.
type docSentence struct {
	start, end  int
	span, said  string
	stems       []string
	proseEnough bool
	// modifies maps the stems held only as a capitalised compound's
	// first word to the words they modify (compoundModifiers).
	modifies map[string][]string
}

// newSentenceMemo keeps sentences in shared, nowhere when it is nil. An
// entry is weighed at three times its text: the text, its spans and their
// stems.
func newSentenceMemo(shared *readcache.Cache) sentenceMemo {
	return sentenceMemo{memo: readcache.NewMemo(shared, func(a, b string) bool { return a == b },
		func(text string, _ []docSentence) int { return 3 * len(text) })}
}

// of returns d's sentences, made once per document and text.
func (m sentenceMemo) of(d retrieved) []docSentence {
	return m.memo.Get(d.id, d.text, func(text string) []docSentence {
		rs := []rune(text)
		spans := Sentences(text, d.layout)
		sentences := make([]docSentence, len(spans))
		for i, sp := range spans {
			span := string(rs[sp[0]:sp[1]])
			said := d.layout.said(span)
			sentences[i] = docSentence{start: sp[0], end: sp[1], span: span, said: said, stems: contentStems(said), proseEnough: proseSentence(said),
				modifies: compoundModifiers(said)}
		}
		return sentences
	})
}
