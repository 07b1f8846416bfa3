package ask_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/domain/judgment"
)

// segments is the passage the grounding tests write about, as the sample's
// Apple 10-K gives it.
const segments = "The Company’s reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific. " +
	"Americas includes both North and South America. Rest of Asia Pacific includes Australia and those Asian countries " +
	"not included in the Company’s other reportable segments. The segments had 4 regional offices and 1,200 staff, " +
	"paid Rs. 5,00,000 in fees, and filed in 2023."

// groundingCases are sentences a model might write about segments: each
// attack adds something the passage does not hold and is dropped; each
// paraphrase adds nothing and is kept.
var groundingCases = []struct {
	name     string
	sentence string
	kept     bool
}{
	{"verbatim", "The Company’s reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", true},
	{"the right name, but one the passage lacks", "Apple's reportable segments are the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", false},
	{"reworded", "Its reportable segments consist of the Americas, Europe, Greater China, Japan and the Rest of Asia Pacific.", true},
	{"lower-case start", "the reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", true},
	{"stop word opening the sentence", "For the Company, the reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", true},
	{"sentence-initial word of the passage", "Americas includes both North and South America.", true},
	{"passage's negation", "Rest of Asia Pacific covers Asian countries not included in the other reportable segments.", true},
	{"passage's negation as n't", "Asian countries that aren't included in other reportable segments belong to Rest of Asia Pacific.", true},
	{"passage's figures", "The segments had 4 regional offices and 1,200 staff.", true},
	{"passage's grouped figure", "The segments paid Rs. 5,00,000 in fees.", true},

	{"name appended", "The Company’s reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific, under Ramesh Kumar.", false},
	{"name inside", "The Company’s reportable segments, run by Kumar, consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", false},
	{"name after an honorific", "Mr. Kumar said the reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", false},
	{"name opening the sentence", "Ramesh said the reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", false},
	{"passage word capitalised as a name", "The Company’s reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific, led by Staff.", false},
	{"negation prepended", "It is not true that the Company’s reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", false},
	{"negation inserted", "The Company’s reportable segments do not consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", false},
	{"negation as n't", "The Company’s reportable segments don't consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", false},
	{"negation the passage lacks", "The Company’s reportable segments never consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.", false},
	{"denial as false", "That the Company’s reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific is false.", false},
	{"PAN from the passage's digits", "The segments had 4 regional offices and 1,200 staff, filed by ABCDE2023F.", false},
	{"PAN glued, lower case", "The segments had 4 regional offices and 1,200 staff, filed by pan abcde2023f.", false},
	{"PAN spaced", "The segments had 4 regional offices and 1,200 staff, filed by A B C D E 2 0 2 3 F.", false},
	{"PAN spaced, lower case", "The segments had 4 regional offices and 1,200 staff, filed by abcde 2023 f.", false},
	{"invented number", "The segments had 7 regional offices and 1,200 staff.", false},
	{"number built from another's groups", "The segments paid Rs. 5,000 in fees.", false},
	{"invented number in words", "The segments had four regional offices and twelve hundred staff.", false},
}

func TestSupportedDropsAdditions(t *testing.T) {
	for _, c := range groundingCases {
		if got := ask.Supported(c.sentence, segments); got != c.kept {
			t.Errorf("%s: Supported(%q) = %v, want %v", c.name, c.sentence, got, c.kept)
		}
	}
}

// TestModelAnswerDropsAdditions has a fake model answer the sample's
// segments question with each attack on the passage it was given, and with
// paraphrases of it: only the paraphrases are answered.
func TestModelAnswerDropsAdditions(t *testing.T) {
	const consist = "The Company’s reportable segments consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific"
	for _, c := range []struct {
		name, sentence string
		kept           bool
	}{
		{"verbatim", consist + ".", true},
		{"reworded", "Its reportable segments are the Americas, Europe, Greater China, Japan and the Rest of Asia Pacific.", true},
		{"name appended", consist + ", as Ramesh Kumar reported.", false},
		{"negation prepended", "It is not true that t" + strings.TrimPrefix(consist, "T") + ".", false},
		{"PAN from the passage's digits", consist + ", under AAAPA1234A.", false},
		{"invented number", consist + ", across 17 countries.", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := fakeModel(t, func(p map[string]string) string {
				for n, text := range p {
					if strings.Contains(text, consist) {
						return c.sentence + " [" + n + "]"
					}
				}
				t.Errorf("no passage holds %q: %v", consist, p)
				return ""
			})
			got := askText(t, askWithModel(t, srv.URL, 5*time.Second), "What are Apple's reportable segments?")
			if got.Answerer != "chat-v1:fake-1" {
				t.Fatalf("answerer %q, want the model", got.Answerer)
			}
			if kept := got.Reason == ""; kept != c.kept || kept && !strings.HasPrefix(got.Text, c.sentence+" [") {
				t.Errorf("answer %+v, want the sentence kept: %v", got, c.kept)
			}
		})
	}
}

// TestAnswerHoldingAPANIsDropped stores the sample judgment that answers
// the buzzwords question with a PAN the redactor missed (glued to a word,
// spaced out) in the sentence the extractive answerer quotes: the sentence
// is dropped from the answer, citation and all.
func TestAnswerHoldingAPANIsDropped(t *testing.T) {
	const quoted = `are the two new buzzwords and rightly so.`
	for _, pan := range []string{"PANABCPK1234D", "ABCPK 1234 D", "abcpk1234d"} {
		t.Run(pan, func(t *testing.T) {
			asker, _ := sampleAskWith(t, func(js []judgment.Judgment) {
				for i := range js {
					js[i].Text = strings.Replace(js[i].Text, quoted, `are the two new buzzwords of `+pan+` and rightly so.`, 1)
				}
			})
			got := askText(t, asker, "What are the two new buzzwords?")
			if strings.Contains(got.Text, pan) || slices.ContainsFunc(got.Citations, func(c ask.Citation) bool { return strings.Contains(c.Snippet, pan) }) {
				t.Errorf("answer %+v quotes the PAN %q", got, pan)
			}
		})
	}
	// Unchanged, the same question quotes that sentence: it is the one
	// the PAN was put in.
	asker, _ := sampleAsk(t)
	if got := askText(t, asker, "What are the two new buzzwords?"); !strings.Contains(got.Text, quoted) {
		t.Fatalf("answer %q, want the sentence the test puts a PAN in", got.Text)
	}
}

// TestSupportedKeepsTheSourcesOwnSentences: a model that quotes its
// passage adds nothing. Every sentence the extractive answerer quotes for
// the evaluation's text and judgment questions is Supported by the passage
// it cites, so the grounding rule drops none of them.
func TestSupportedKeepsTheSourcesOwnSentences(t *testing.T) {
	a, _ := sampleAsk(t)
	n := 0
	for _, c := range loadEval(t) {
		if c.Answer == "" || c.Kind != "text" && c.Kind != "judgment" {
			continue
		}
		got := askCase(t, a, c)
		for _, m := range markedSentence.FindAllStringSubmatch(got.Text, -1) {
			marker, _ := strconv.Atoi(strings.Trim(m[2], "[]"))
			if snippet := got.Citations[marker-1].Snippet; !ask.Supported(m[1], snippet) {
				t.Errorf("%q: Supported(%q) by its own passage %q = false", c.Question, m[1], snippet)
			}
			n++
		}
	}
	if n < 10 {
		t.Fatalf("%d sentences checked, want the evaluation's ten answers' sentences", n)
	}
}
