package judgment_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
)

// annotation is testdata/persons.json: every person named in each sample
// judgment, annotated by hand (its _comment says how).
type annotation struct {
	Judgments []struct {
		JudgmentID string   `json:"judgment_id"`
		Heldout    bool     `json:"heldout"`
		Persons    []person `json:"persons"`
	} `json:"judgments"`
}

// person is one annotated person: the name as printed, its class and
// other spellings.
type person struct {
	Name  string   `json:"name"`
	Class string   `json:"class"`
	Forms []string `json:"forms"`
}

// mustTokenize are the classes that may not stay in clear.
var mustTokenize = map[string]bool{"litigant": true, "relative": true}

// TestSampleLitigantsRecall retokenizes the sample judgments as they stood
// before pii.Litigants and measures, against the hand annotation, the
// share of litigants no form of whose name survives anywhere in the
// stored fields (recall; 100% is required), and how many persons who may
// stay in clear were tokenized anyway (counted; reported, not required).
// Held-out judgments are reported apart. The sample holds no PAN, so any
// PAN found in it is a false one.
func TestSampleLitigantsRecall(t *testing.T) {
	var ann annotation
	readJSON(t, "testdata/persons.json", &ann)
	stored := sampleBefore(t)
	key := testKey(t)
	type tally struct{ litigants, tokenized, mayStay, tokenizedAnyway, notPersons int }
	var tuned, heldout tally
	for _, a := range ann.Judgments {
		j, ok := stored[a.JudgmentID]
		if !ok {
			t.Fatalf("%s: not in the sample", a.JudgmentID)
		}
		got, entries, err := judgment.Retokenize(key, j)
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Join(append(append([]string{got.Title, got.CaseNumber, got.Bench, got.Text}, got.Citations...), got.Judges...), "\n")
		tl := &tuned
		if a.Heldout {
			tl = &heldout
		}
		for _, e := range entries {
			if e.Kind == pii.KindPAN {
				t.Errorf("%s: %q taken for a PAN; the sample holds none", a.JudgmentID, e.Original)
			}
			if e.Kind == pii.KindParty && !annotated(e.Original, a.Persons) {
				tl.notPersons++
				t.Logf("%s: %q, no person, was tokenized", a.JudgmentID, e.Original)
			}
		}
		for _, p := range a.Persons {
			if !survives(j.Text+"\n"+j.Title, p.Name) {
				t.Fatalf("%s: %q is not in the text as annotated", a.JudgmentID, p.Name)
			}
			if mustTokenize[p.Class] {
				tl.litigants++
				left := false
				for _, f := range append([]string{p.Name}, p.Forms...) {
					left = left || survives(all, f)
				}
				if left {
					t.Errorf("%s: the %s %q stays in clear", a.JudgmentID, p.Class, p.Name)
				} else {
					tl.tokenized++
				}
				continue
			}
			tl.mayStay++
			if !survives(all, p.Name) {
				tl.tokenizedAnyway++
				t.Logf("%s: the %s %q was tokenized anyway", a.JudgmentID, p.Class, p.Name)
			}
		}
	}
	for name, tl := range map[string]tally{"tuned on": tuned, "held out": heldout} {
		recall := "n/a, none annotated"
		if tl.litigants > 0 {
			recall = fmt.Sprintf("%.1f%%", 100*float64(tl.tokenized)/float64(tl.litigants))
		}
		t.Logf("%s: litigants tokenized %d of %d (recall %s); persons who may stay tokenized anyway %d of %d; names of no person tokenized %d",
			name, tl.tokenized, tl.litigants, recall, tl.tokenizedAnyway, tl.mayStay, tl.notPersons)
	}
	if tuned.tokenized+heldout.tokenized != tuned.litigants+heldout.litigants {
		t.Fatal("recall on the sample is below 100%")
	}
}

// annotated reports whether name is one of the persons' names or forms.
func annotated(name string, persons []person) bool {
	for _, p := range persons {
		for _, f := range append([]string{p.Name}, p.Forms...) {
			if strings.EqualFold(strings.Join(strings.Fields(f), " "), name) {
				return true
			}
		}
	}
	return false
}

// survives reports whether the words of name occur in text as whole
// words, in any case, with any white space between them.
func survives(text, name string) bool {
	words := strings.Fields(name)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(`(?i)(?:^|[^\pL\pN_])` + strings.Join(words, `\s+`) + `(?:$|[^\pL\pN_])`).MatchString(text)
}

// sampleBefore reads testdata/sample-before-persons.jsonl: the bundled
// sample as it was shipped before pii.Litigants, listed parties as tokens
// and the persons its texts name as litigants still in clear.
func sampleBefore(t *testing.T) map[string]judgment.Judgment {
	t.Helper()
	f, err := os.Open("testdata/sample-before-persons.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]judgment.Judgment{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			ID, Court, Bench, Title, Text, Language string
			CaseNumber                              string `json:"case_number"`
			Judges, Citations                       []string
			DecisionDate                            string    `json:"decision_date"`
			RetrievedAt                             time.Time `json:"retrieved_at"`
			JudgmentID                              string    `json:"judgment_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out[l.JudgmentID] = judgment.Judgment{ID: l.JudgmentID, Court: l.Court, Bench: l.Bench, CaseNumber: l.CaseNumber, Title: l.Title,
			Judges: l.Judges, DecisionDate: l.DecisionDate, Citations: l.Citations, Language: l.Language, Text: l.Text, RetrievedAt: l.RetrievedAt}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func testKey(t *testing.T) pii.Key {
	t.Helper()
	k, err := pii.NewKey([]byte(strings.Repeat("k", pii.MinKeyBytes)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}
