package ask_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ingest"
)

// evalNow is the clock of the evaluation: after every bundled filing.
var evalNow = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

// allActive says every dataset Ask reads is activated.
type allActive struct{}

func (allActive) Status(context.Context, dataset.ID) (dataset.Status, error) {
	return dataset.StatusFor(true), nil
}

// sampleAsk is Ask over memory stores holding the bundled samples, and the
// stored text of every section and judgment by id, to check citations
// against.
func sampleAsk(t testing.TB) (*ask.Service, map[string]string) {
	t.Helper()
	return sampleAskWith(t, func([]judgment.Judgment) {})
}

// sampleAskWith is sampleAsk with the sample judgments changed by edit
// before they are stored.
func sampleAskWith(t testing.TB, edit func([]judgment.Judgment)) (*ask.Service, map[string]string) {
	t.Helper()
	ctx := context.Background()
	shared, err := readcache.New(256<<20, time.Hour, usecase.SystemClock)
	if err != nil {
		t.Fatal(err)
	}
	fin := usfinancials.New(memory.NewFinancials(), func() time.Time { return evalNow }, shared)
	if _, err := ingest.LoadUSFinancialsSample(ctx, fin); err != nil {
		t.Fatal(err)
	}
	secs := memory.NewSecurities()
	if _, err := ingest.LoadChinaSecuritiesSample(ctx, secs); err != nil {
		t.Fatal(err)
	}
	idx, err := bleveadapter.New()
	if err != nil {
		t.Fatal(err)
	}
	mf := memory.NewFilings()
	filings := usfilings.New(mf, mf, idx)
	fs, sections, err := ingest.LoadUSFilingsSample()
	if err != nil {
		t.Fatal(err)
	}
	if err := filings.Store(ctx, fs, sections); err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, s := range sections {
		byID[s.ID] = s.Text
	}
	jidx, err := bleveadapter.NewJudgments()
	if err != nil {
		t.Fatal(err)
	}
	judgments := indiajudgments.New(memory.NewJudgments(), jidx, nil, usecase.SystemClock)
	js, err := ingest.LoadJudgmentsSample()
	if err != nil {
		t.Fatal(err)
	}
	edit(js)
	if _, err := judgments.Store(ctx, js); err != nil {
		t.Fatal(err)
	}
	for _, j := range js {
		byID[j.ID] = j.Text
	}
	cp := chinaprices.New(memory.NewChinaPrices(), func() time.Time { return evalNow })
	if _, err := ingest.LoadChinaPricesSample(ctx, cp); err != nil {
		t.Fatal(err)
	}
	ip := indiaprices.New(memory.NewIndiaPrices(), func() time.Time { return evalNow })
	if _, err := ingest.LoadIndiaPricesSample(ctx, ip); err != nil {
		t.Fatal(err)
	}
	fh := memory.NewFundHoldings()
	if _, err := ingest.LoadFundHoldersSample(ctx, fh); err != nil {
		t.Fatal(err)
	}
	return ask.New(fin, chinasecurities.New(secs), filings, shared).WithJudgments(judgments).
		WithPrices(cp, ip).WithHolders(fundholders.New(fh)), byID
}

// evalCase is one question of testdata/ask_eval.json and what it must get.
type evalCase struct {
	Question string `json:"question"`
	AsOf     string `json:"as_of,omitempty"`
	Kind     string `json:"kind"`
	// Answer is the exact answer, citation markers included; empty means
	// no_supported_answer.
	Answer    string   `json:"answer"`
	Documents []string `json:"documents,omitempty"`
}

func loadEval(t *testing.T) []evalCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/ask_eval.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []evalCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func askCase(t *testing.T, a *ask.Service, c evalCase) ask.Answer {
	t.Helper()
	q, err := ask.Parse(ask.Request{Question: c.Question, AsOf: c.AsOf}, evalNow)
	if err != nil {
		t.Fatalf("%q: %v", c.Question, err)
	}
	got, err := governedAnswer(a, q, scope.Strings(scope.SelfServe()), allActive{})
	if err != nil {
		t.Fatalf("%q: %v", c.Question, err)
	}
	return got
}

// governedAnswer answers q as POST /ask does: from what Governance lets a
// credential holding scopes read.
func governedAnswer(a *ask.Service, q ask.Query, scopes []string, st ask.Statuses) (ask.Answer, error) {
	r, err := a.Governance(context.Background(), q, scopes, st)
	if err != nil {
		return ask.Answer{}, err
	}
	return a.Answer(context.Background(), q, r)
}

// TestAskEvaluation runs the evaluation set and asserts every answer, its
// cited documents, and that every sentence is supported by its citation.
func TestAskEvaluation(t *testing.T) {
	a, texts := sampleAsk(t)
	cases := loadEval(t)
	refused, exact, sentences, supported := 0, 0, 0, 0
	for _, c := range cases {
		got := askCase(t, a, c)
		if os.Getenv("ASK_EVAL_PRINT") != "" {
			docs := []string{}
			for _, ci := range got.Citations {
				docs = append(docs, ci.DocumentID)
			}
			b, _ := json.Marshal(map[string]any{"question": c.Question, "as_of": c.AsOf, "answer": got.Text, "documents": docs})
			t.Log(string(b))
			continue
		}
		if got.Text != c.Answer {
			t.Errorf("%q (as of %q):\n got %q\nwant %q", c.Question, c.AsOf, got.Text, c.Answer)
		}
		if got.Text == "" {
			refused++
		}
		if c.Answer == "" {
			if got.Reason != ask.ReasonNoSupportedAnswer || len(got.Citations) != 0 {
				t.Errorf("%q: reason %q with %d citations, want no_supported_answer and none", c.Question, got.Reason, len(got.Citations))
			}
		}
		var docs []string
		for _, ci := range got.Citations {
			docs = append(docs, ci.DocumentID)
		}
		if !slices.Equal(docs, c.Documents) {
			t.Errorf("%q: cites %v, want %v", c.Question, docs, c.Documents)
		}
		if got.Text == c.Answer && slices.Equal(docs, c.Documents) {
			exact++
		}
		n, ok := checkSupported(t, c.Question, got, texts)
		sentences, supported = sentences+n, supported+ok
	}
	// The benchmark reads this line (scripts/bench.sh).
	t.Logf("evaluation: %d questions; accuracy %d/%d (answer and citations as expected); citation precision %d/%d sentences supported by their citation; refusal rate %d/%d",
		len(cases), exact, len(cases), supported, sentences, refused, len(cases))
}

// markedSentence is one sentence of an answer and its marker.
// An arithmetic sentence carries the markers of every record it uses.
var markedSentence = regexp.MustCompile(`(.+?) ((?:\[\d+\])+)(?: |$)`)

// marker reads the markers of a sentence.
var marker = regexp.MustCompile(`\[(\d+)\]`)

// numberToken is a number, date or accession number as a sentence writes it.
var numberToken = regexp.MustCompile(`[0-9](?:[0-9.\-]*[0-9])?`)

// checkSupported checks every sentence of an answer against its citation:
// a passage's sentence must be the cited span of the stored section text,
// verbatim; a record-rendered sentence may hold no number (digit run,
// date, accession number) that is not a number of a field of the cited
// record, read the same way. It returns how many sentences it checked and
// how many were supported.
func checkSupported(t *testing.T, question string, got ask.Answer, texts map[string]string) (sentences, supported int) {
	t.Helper()
	if got.Text == "" {
		return 0, 0
	}
	ms := markedSentence.FindAllStringSubmatch(got.Text, -1)
	if strings.Join(func() []string {
		var s []string
		for _, m := range ms {
			s = append(s, m[0])
		}
		return s
	}(), "") != got.Text {
		t.Errorf("%q: answer %q is not a run of cited sentences", question, got.Text)
		return len(ms), 0
	}
	for _, m := range ms {
		if supportedBy(t, question, m, got, texts) {
			supported++
		}
	}
	return len(ms), supported
}

// supportedBy checks one marked sentence against its citations: a
// passage's sentence against the one passage it cites; a record-rendered
// sentence against the records it cites, each of its numbers a field of
// one of them or the result of arithmetic the sentence shows.
func supportedBy(t *testing.T, question string, m []string, got ask.Answer, texts map[string]string) bool {
	t.Helper()
	var cited []ask.Citation
	for _, mk := range marker.FindAllStringSubmatch(m[2], -1) {
		n, err := strconv.Atoi(mk[1])
		if err != nil || n < 1 || n > len(got.Citations) {
			t.Errorf("%q: marker [%s] cites nothing", question, mk[1])
			return false
		}
		cited = append(cited, got.Citations[n-1])
	}
	c := cited[0]
	switch {
	case c.Offsets != nil:
		id := c.Offsets.Section + c.Offsets.Judgment
		text, ok := texts[id]
		if len(cited) > 1 || !ok || c.Offsets.Section != "" && c.Offsets.Judgment != "" || c.DocumentID != id {
			t.Errorf("%q: cites unknown document %+v", question, c.Offsets)
			return false
		}
		span := string([]rune(text)[c.Offsets.Start:c.Offsets.End])
		// A judgment's sentence is its span with the printed lines'
		// breaks written as spaces, one for one; a section's is the span.
		if sentence := strings.Map(lineBreakAsSpace, span); sentence != m[1] || c.Snippet != span {
			t.Errorf("%q: sentence %q is not the cited span %q", question, m[1], span)
			return false
		}
		return true
	case c.Fields != nil:
		values := map[string]bool{}
		for _, ci := range cited {
			for _, v := range ci.Fields {
				for _, num := range numberToken.FindAllString(v, -1) {
					values[num] = true
				}
			}
		}
		results, ok := ask.ArithmeticResults(m[1])
		if !ok {
			t.Errorf("%q: the arithmetic of %q does not hold", question, m[1])
			return false
		}
		for _, r := range results {
			values[r] = true
		}
		for _, num := range numberToken.FindAllString(m[1], -1) {
			if !values[num] {
				t.Errorf("%q: number %s of %q is neither a field of the cited records nor a result shown", question, num, m[1])
				return false
			}
		}
		return true
	default:
		t.Errorf("%q: citation has neither offsets nor fields", question)
		return false
	}
}

func lineBreakAsSpace(r rune) rune {
	if strings.ContainsRune("\t\n\v\f\r", r) {
		return ' '
	}
	return r
}
