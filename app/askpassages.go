package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// Text answers: at most this many sentences, each from its own section,
// and only a sentence holding most of the question's content words.
const (
	maxTextSentences  = 2
	retrievedSections = 10
	// minCoverage is the share of the question's content words a
	// sentence must hold, and minMatched how many at least.
	minCoverage = 0.6
	minMatched  = 2
)

// passages answers from the best-matching sentences of the retrieved
// documents.
func (a *Ask) passages(ctx context.Context, q AskQuery, searched []dataset.ID) ([]sentence, error) {
	docs, named, err := a.retrieve(ctx, q, searched)
	if err != nil {
		return nil, err
	}
	words := contentStems(q.Question)
	words = slices.DeleteFunc(words, func(w string) bool { return named[w] })
	need := minMatched
	if len(named) > 0 {
		// A question about a named company may have one content word
		// left ("When was Microsoft founded?").
		need = 1
	}
	if len(words) < need {
		return nil, nil
	}
	// Numbers (years above all) narrow a question but do not say what it
	// is about: a sentence must also hold enough of its other words.
	topical := slices.DeleteFunc(slices.Clone(words), isNumber)
	needTopical := min(need, len(topical))
	type candidate struct {
		doc      retrieved
		sentence docSentence
		score    float64
	}
	var best []candidate
	for _, d := range docs {
		var top *candidate
		for _, sn := range a.sentences.of(d) {
			n := matched(words, sn.stems)
			score := float64(n) / float64(len(words))
			if n < need || matched(topical, sn.stems) < needTopical || score < minCoverage || !sn.proseEnough {
				continue
			}
			if top == nil || score > top.score {
				top = &candidate{doc: d, sentence: sn, score: score}
			}
		}
		if top != nil {
			best = append(best, *top)
		}
	}
	// Highest coverage first; the retriever's order breaks ties.
	slices.SortStableFunc(best, func(x, y candidate) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	limit := min(maxTextSentences, q.MaxCitations)
	if need == 1 {
		limit = 1 // one matching word makes a second sentence chance
	}
	var out []sentence
	for _, c := range best {
		sn := c.sentence
		// Later sentences must cover the question as well as the first,
		// and say something the answer does not already say.
		if len(out) == limit || c.score < best[0].score || slices.ContainsFunc(out, func(o sentence) bool { return o.text == sn.said }) {
			continue
		}
		out = append(out, sentence{text: sn.said, cite: c.doc.cite(sn.start, sn.end, sn.span)})
	}
	return out, nil
}

// retrieved is a document retrieved for a text question, a 10-K section or
// a judgment: its stored text, its layout, and how a span of it is cited.
type retrieved struct {
	// id names the document among all retrieved ones.
	id    string
	text  string
	title string
	// layout says how text splits into sentences and how a span of it
	// reads as an answer's sentence.
	layout Layout
	// cite cites the span [start, end) of text, whose text is snippet.
	cite func(start, end int, snippet string) Citation
}

// retrieve returns the documents retrieved for q from the datasets
// searched: the 10-K sections, kept to the companies the question names
// (mentioned), then the judgments, unless the question names a company.
// It also returns the stems of the naming words.
func (a *Ask) retrieve(ctx context.Context, q AskQuery, searched []dataset.ID) ([]retrieved, map[string]bool, error) {
	rq := ports.RetrievalQuery{Text: q.Question, AsOf: q.AsOf, Limit: retrievedSections}
	var docs []retrieved
	named := map[string]bool{}
	if slices.Contains(searched, dataset.USSearch) {
		hits, err := a.sections.Retrieve(ctx, rq)
		if err != nil {
			return nil, nil, err
		}
		if hits, named, err = a.mentioned(ctx, q.Question, hits); err != nil {
			return nil, nil, err
		}
		for _, h := range hits {
			docs = append(docs, sectionDoc(h.Section))
		}
	}
	if a.judgments == nil || len(named) > 0 || !slices.Contains(searched, dataset.IndiaJudgments) {
		return docs, named, nil
	}
	hits, err := a.judgments.Retrieve(ctx, rq)
	if err != nil {
		return nil, nil, err
	}
	for _, h := range hits {
		docs = append(docs, judgmentDoc(h.Judgment))
	}
	return docs, named, nil
}

func sectionDoc(s filing.Section) retrieved {
	title := fmt.Sprintf("%s %s %s, Item %s. %s", s.Ticker, s.Form, s.Accession, s.ItemNumber, s.ItemName)
	return retrieved{id: "section " + s.ID, text: s.Text, title: title, layout: Paragraphs, cite: func(start, end int, snippet string) Citation {
		return Citation{
			Dataset: dataset.USSearch, DocumentID: s.ID, Title: title, Snippet: snippet,
			Offsets: &PassageOffsets{Section: s.ID, Start: start, End: end}, Route: "POST /us/search",
		}
	}}
}

func judgmentDoc(j judgment.Judgment) retrieved {
	title := fmt.Sprintf("%s, %s, %s (decided %s)", j.Title, j.Court, j.CaseNumber, j.DecisionDate)
	return retrieved{id: "judgment " + j.ID, text: j.Text, title: title, layout: PrintedLines, cite: func(start, end int, snippet string) Citation {
		return Citation{
			Dataset: dataset.IndiaJudgments, DocumentID: j.ID, Title: title, Snippet: snippet,
			Offsets: &PassageOffsets{Judgment: j.ID, Start: start, End: end}, Route: "GET /india/judgments/" + j.ID,
		}
	}}
}

// mentioned keeps the hits of the companies the question names, by ticker
// or by the first word of the company's name ("Apple's" names Apple Inc.),
// when it names any of the companies hit; it also returns the stems of the
// naming words, which are then no content words to match.
func (a *Ask) mentioned(ctx context.Context, question string, hits []ports.SectionHit) ([]ports.SectionHit, map[string]bool, error) {
	tokens := map[string]bool{}
	for _, w := range strings.FieldsFunc(question, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' }) {
		w = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"), "'")
		tokens[strings.ToLower(w)] = true
	}
	names := map[string][]string{}
	named := map[string]bool{}
	for _, h := range hits {
		cik := h.Section.CIK
		if _, done := names[cik]; done {
			continue
		}
		ids := []string{strings.ToLower(h.Section.Ticker)}
		c, err := a.fin.store.Company(ctx, cik)
		if err != nil && !errors.Is(err, ports.ErrNotFound) {
			return nil, nil, err
		}
		if f := strings.Fields(c.Name); len(f) > 0 {
			ids = append(ids, strings.ToLower(strings.Trim(f[0], ",.")))
		}
		names[cik] = ids
	}
	keep := map[string]bool{}
	for cik, ids := range names {
		for _, id := range ids {
			if id != "" && tokens[id] {
				keep[cik] = true
				for _, st := range contentStems(id) {
					named[st] = true
				}
			}
		}
	}
	if len(keep) == 0 {
		return hits, named, nil
	}
	return slices.DeleteFunc(hits, func(h ports.SectionHit) bool { return !keep[h.Section.CIK] }), named, nil
}
