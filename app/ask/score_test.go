package ask_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/app/ask"
)

// scoredCase is one question of testdata/ask_eval_dev.json,
// ask_eval_test.json or ask_eval_blind.json: what the data holds to answer
// it, not the exact words of an answer.
type scoredCase struct {
	Question string `json:"question"`
	AsOf     string `json:"as_of,omitempty"`
	Kind     string `json:"kind"`
	// Supported says the data Ask reads holds an answer; a question it
	// does not support is answered right only by a refusal.
	Supported bool `json:"supported"`
	Expect    struct {
		// Figures must all be in the answer's text.
		Figures []string `json:"figures"`
		// Contains must all be in the answer's text.
		Contains []string `json:"contains"`
		// Documents are the documents that hold the answer: every
		// citation must be one of them.
		Documents []string `json:"documents"`
		// Fact names where the expected answer comes from.
		Fact string `json:"fact"`
	} `json:"expect"`
}

// scoredSet is an evaluation part: its header and its questions.
type scoredSet struct {
	About string       `json:"about"`
	Cases []scoredCase `json:"cases"`
}

// Score counts an evaluation part's answers: right, refused (a supported
// question not answered), wrong (an answer whose figure, text or citation
// is not the expected one, or any answer to an unsupported question) and
// unsupported questions rightly refused; uncited counts answered
// sentences a citation does not support.
type Score struct {
	Supported, Right, Refused, Wrong, RefusedRightly, Unsupported int
	Sentences, Uncited                                            int
	wrong, refused                                                []string
}

func (s Score) String() string {
	pct := 0.0
	if s.Supported > 0 {
		pct = 100 * float64(s.Right) / float64(s.Supported)
	}
	return fmt.Sprintf("%d supported: %d right (%.1f%%), %d refused, %d wrong; %d unsupported: %d refused rightly; %d/%d answered sentences cited and supported",
		s.Supported, s.Right, pct, s.Refused, s.Wrong, s.Unsupported, s.RefusedRightly, s.Sentences-s.Uncited, s.Sentences)
}

func loadScored(t testing.TB, part string) scoredSet {
	t.Helper()
	raw, err := os.ReadFile("testdata/ask_eval_" + part + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var set scoredSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	return set
}

// verdict says whether got answers c as expected.
func verdict(c scoredCase, got ask.Answer) (right bool, why string) {
	if !c.Supported {
		return false, "answered a question the data does not support"
	}
	for _, f := range c.Expect.Figures {
		if !holdsFigure(got.Text, f) {
			return false, fmt.Sprintf("%q is not in the answer", f)
		}
	}
	for _, f := range c.Expect.Contains {
		if !strings.Contains(got.Text, f) {
			return false, fmt.Sprintf("%q is not in the answer", f)
		}
	}
	for _, ci := range got.Citations {
		if !slices.Contains(c.Expect.Documents, ci.DocumentID) {
			return false, fmt.Sprintf("cites %s, not one of %v", ci.DocumentID, c.Expect.Documents)
		}
	}
	return true, ""
}

// answerNumber is a number as an answer writes it.
var answerNumber = regexp.MustCompile(`-?[0-9]+(?:\.[0-9]+)?`)

// holdsFigure says whether text states figure: written as it is, or, for a
// figure with decimals, a number that rounds to it at the figure's
// precision (an expected 78.4% is stated by an answer's 78.35%).
func holdsFigure(text, figure string) bool {
	if strings.Contains(text, figure) {
		return true
	}
	dot := strings.IndexByte(figure, '.')
	want, err := strconv.ParseFloat(figure, 64)
	if dot < 0 || err != nil {
		return false
	}
	half := 0.5*math.Pow(10, -float64(len(figure)-dot-1)) + 1e-9
	for _, n := range answerNumber.FindAllString(text, -1) {
		if v, err := strconv.ParseFloat(n, 64); err == nil && math.Abs(v-want) <= half {
			return true
		}
	}
	return false
}

// scoreAsk answers every question of a part and scores the answers.
func scoreAsk(t *testing.T, a *ask.Service, texts map[string]string, set scoredSet) Score {
	t.Helper()
	var s Score
	for _, c := range set.Cases {
		got := askCase(t, a, evalCase{Question: c.Question, AsOf: c.AsOf})
		if c.Supported {
			s.Supported++
		} else {
			s.Unsupported++
		}
		if got.Text == "" {
			if c.Supported {
				s.Refused++
				s.refused = append(s.refused, c.Question)
			} else {
				s.RefusedRightly++
			}
			continue
		}
		n, ok := checkSupported(t, c.Question, got, texts)
		s.Sentences, s.Uncited = s.Sentences+n, s.Uncited+n-ok
		if right, why := verdict(c, got); right {
			s.Right++
		} else {
			s.Wrong++
			s.wrong = append(s.wrong, fmt.Sprintf("%q (as of %q): %s\n  answer: %s", c.Question, c.AsOf, why, got.Text))
		}
	}
	return s
}

// TestAskEval scores Ask on the three parts of the evaluation. The dev part
// must meet issue 27's goal: at least 90% of supported questions right,
// none wrong, every answered sentence supported by its citation. The test
// part is held out: its score is reported, and it fails only on a wrong
// answer or an unsupported sentence. The blind part, written from the raw
// sample files by an author who never read the answerer or its grammar, is
// held out like the test part and fails alike; its wrong answers and
// refusals are listed so that a reader sees what a new analyst would meet,
// never to tune on. The second blind part (blind2, issue 40) is the
// measure of the next round: its score alone is reported, none of its
// questions, and it fails only on an unsupported sentence until that
// round is done. The benchmark reads the "ask eval" lines
// (scripts/bench.sh).
func TestAskEval(t *testing.T) {
	a, texts := sampleAsk(t)
	for _, part := range []string{"dev", "test", "blind", "blind2"} {
		s := scoreAsk(t, a, texts, loadScored(t, part))
		t.Logf("ask eval %s: %s", part, s)
		if part == "blind2" {
			if s.Uncited > 0 {
				t.Errorf("blind2: %d unsupported sentences", s.Uncited)
			}
			continue
		}
		// The dev part's answers are printed on request and the blind
		// part's always; the test part's never: it is held out, and
		// tuning on it (or on the blind part) would void its score.
		if (part == "dev" && os.Getenv("ASK_EVAL_PRINT") != "") || part == "blind" {
			for _, w := range s.wrong {
				t.Logf("wrong: %s", w)
			}
			for _, q := range s.refused {
				t.Logf("refused: %q", q)
			}
		}
		if s.Wrong > 0 || s.Uncited > 0 {
			detail := ""
			if part == "dev" {
				detail = strings.Join(s.wrong, "\n")
			}
			t.Errorf("%s: %d wrong answers, %d unsupported sentences %s", part, s.Wrong, s.Uncited, detail)
		}
		if part == "dev" && s.Right*10 < s.Supported*9 {
			t.Errorf("dev: %d of %d supported questions right, under 90%%", s.Right, s.Supported)
		}
	}
}
