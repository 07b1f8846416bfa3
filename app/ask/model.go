package ask

import (
	"context"
	"regexp"
	"strings"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// A model answer's passages: at most this many, each at most this many
// code points, starting at the section's sentence that best matches the
// question.
const (
	maxModelPassages  = 5
	maxPassageRunes   = 1200
	minSupportedWords = 2
)

// text answers a text question: through the model when one is set, else
// (and when the model fails) with the extractive answerer. ans.Answerer
// records which answered.
func (a *Service) text(ctx context.Context, q Query, searched []dataset.ID, ans *Answer) ([]sentence, error) {
	if a.model != nil {
		cited, err := a.modelAnswer(ctx, q, searched)
		if err == nil {
			ans.Answerer = a.model.Name()
			return cited, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// The endpoint failed or timed out: fall back to the extractive
		// answerer rather than fail the request (spec-gaps A37).
	}
	return a.passages(ctx, q, searched)
}

// modelAnswer gives the model the best passages retrieved for q, numbered,
// and keeps each sentence of its answer only where the passage it cites
// supports it (Supported).
func (a *Service) modelAnswer(ctx context.Context, q Query, searched []dataset.ID) ([]sentence, error) {
	docs, named, _, err := a.retrieve(ctx, q, searched)
	if err != nil {
		return nil, err
	}
	words := contentStems(q.Question)
	var topical []string
	for _, w := range words {
		if !named[w] {
			topical = append(topical, w)
		}
	}
	var passages []ports.Passage
	var cites []Citation
	for _, d := range docs {
		if len(passages) == min(maxModelPassages, q.MaxCitations) {
			break
		}
		start, end := passageWindow(d.text, d.layout, topical)
		if end <= start {
			continue
		}
		text := string([]rune(d.text)[start:end])
		passages = append(passages, ports.Passage{Marker: len(passages) + 1, Title: d.title, Text: d.layout.said(text)})
		cites = append(cites, d.cite(start, end, text))
	}
	if len(passages) == 0 {
		return nil, nil
	}
	out, err := a.model.Answer(ctx, ports.AnswerRequest{Question: q.Question, Passages: passages})
	if err != nil {
		return nil, err
	}
	var kept []sentence
	for _, s := range out {
		text := strings.TrimSpace(s.Text)
		if s.Marker < 1 || s.Marker > len(passages) || !Supported(text, passages[s.Marker-1].Text) {
			continue
		}
		kept = append(kept, sentence{text: text, cite: cites[s.Marker-1]})
	}
	return kept, nil
}

// passageWindow is the span of text, in code points, that starts at the
// sentence holding most of words (the first such) and runs through the
// sentences after it while the span stays within maxPassageRunes.
func passageWindow(text string, layout Layout, words []string) (int, int) {
	spans := Sentences(text, layout)
	if len(spans) == 0 {
		return 0, 0
	}
	best, bestN := 0, -1
	rs := []rune(text)
	for i, sp := range spans {
		if n := matched(words, contentStems(string(rs[sp[0]:sp[1]]))); n > bestN {
			best, bestN = i, n
		}
	}
	start := spans[best][0]
	end := min(spans[best][1], start+maxPassageRunes)
	for _, sp := range spans[best+1:] {
		if sp[1]-start > maxPassageRunes {
			break
		}
		end = sp[1]
	}
	return start, end
}

// numberRun is a number, date or accession number as a sentence writes
// it: the same reading as the rule for record-rendered sentences.
var numberRun = regexp.MustCompile(`[0-9](?:[0-9.\-]*[0-9])?`)

// Supported reports whether passage supports a model's sentence (spec-gaps
// A37): the sentence adds no PAN-shaped string, number, negation or
// capitalised word the passage lacks (addsNothing), and it has at least
// minSupportedWords content words (contentStems, numbers left out) of which
// at least minCoverage (60%) occur in the passage.
func Supported(sentence, passage string) bool {
	if !addsNothing(sentence, passage) {
		return false
	}
	var words []string
	for _, w := range contentStems(sentence) {
		if !isNumber(w) {
			words = append(words, w)
		}
	}
	if len(words) < minSupportedWords {
		return false
	}
	return float64(matched(words, contentStems(passage))) >= minCoverage*float64(len(words))
}
