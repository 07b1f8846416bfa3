package ask

import (
	"cmp"
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
func (a *Service) passages(ctx context.Context, q Query, searched []dataset.ID) ([]sentence, error) {
	docs, named, err := a.retrieve(ctx, q, searched)
	if err != nil {
		return nil, err
	}
	m, ok := newTextMatch(q.Question, named)
	if !ok {
		return nil, nil
	}
	var best []candidate
	for _, d := range docs {
		if c, ok := a.bestSentence(d, m); ok {
			best = append(best, c)
		}
	}
	// Highest coverage first; the retriever's order breaks ties.
	slices.SortStableFunc(best, func(x, y candidate) int { return cmp.Compare(y.score, x.score) })
	limit := min(maxTextSentences, q.MaxCitations)
	if m.need == 1 {
		limit = 1 // one matching word makes a second sentence chance
	}
	return pick(best, limit), nil
}

// textMatch is what a sentence must hold of a text question's content
// words: need of words, and needTopical of those that are not numbers.
type textMatch struct {
	words, topical    []string
	need, needTopical int
}

// newTextMatch reads the content words of question, less the naming words
// (named); it reports false when too few are left to match.
func newTextMatch(question string, named map[string]bool) (textMatch, bool) {
	words := contentStems(question)
	words = slices.DeleteFunc(words, func(w string) bool { return named[w] })
	need := minMatched
	if len(named) > 0 {
		// A question about a named company may have one content word
		// left ("When was Microsoft founded?").
		need = 1
	}
	if len(words) < need {
		return textMatch{}, false
	}
	// Numbers (years above all) narrow a question but do not say what it
	// is about: a sentence must also hold enough of its other words.
	topical := slices.DeleteFunc(slices.Clone(words), isNumber)
	return textMatch{words: words, topical: topical, need: need, needTopical: min(need, len(topical))}, true
}

// score is the share of m's words that sn holds, and whether sn is prose
// holding enough of them.
func (m textMatch) score(sn docSentence) (float64, bool) {
	n := matched(m.words, sn.stems)
	score := float64(n) / float64(len(m.words))
	return score, n >= m.need && matched(m.topical, sn.stems) >= m.needTopical && score >= minCoverage && sn.proseEnough
}

// candidate is a document's best sentence for a text question.
type candidate struct {
	doc      retrieved
	sentence docSentence
	score    float64
}

// bestSentence is d's sentence that matches m best, the first of equals;
// false when none matches.
func (a *Service) bestSentence(d retrieved, m textMatch) (candidate, bool) {
	var top candidate
	found := false
	for _, sn := range a.sentences.of(d) {
		if score, ok := m.score(sn); ok && (!found || score > top.score) {
			top, found = candidate{doc: d, sentence: sn, score: score}, true
		}
	}
	return top, found
}

// pick cites up to limit of the candidates, best first: later sentences
// must cover the question as well as the first, and say something the
// answer does not already say.
func pick(best []candidate, limit int) []sentence {
	var out []sentence
	for _, c := range best {
		sn := c.sentence
		if len(out) == limit || c.score < best[0].score || slices.ContainsFunc(out, func(o sentence) bool { return o.text == sn.said }) {
			continue
		}
		out = append(out, sentence{text: sn.said, cite: c.doc.cite(sn.start, sn.end, sn.span)})
	}
	return out
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
func (a *Service) retrieve(ctx context.Context, q Query, searched []dataset.ID) ([]retrieved, map[string]bool, error) {
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

// sectionDoc is a retrieved 10-K section, cited to POST /us/search.
func sectionDoc(s filing.Section) retrieved {
	title := fmt.Sprintf("%s %s %s, Item %s. %s", s.Ticker, s.Form, s.Accession, s.ItemNumber, s.ItemName)
	return retrieved{id: "section " + s.ID, text: s.Text, title: title, layout: Paragraphs, cite: func(start, end int, snippet string) Citation {
		return Citation{
			Dataset: dataset.USSearch, DocumentID: s.ID, Title: title, Snippet: snippet,
			Offsets: &PassageOffsets{Section: s.ID, Start: start, End: end}, Route: "POST /us/search",
		}
	}}
}

// judgmentDoc is a retrieved judgment, cited to its own route.
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
func (a *Service) mentioned(ctx context.Context, question string, hits []ports.SectionHit) ([]ports.SectionHit, map[string]bool, error) {
	names, err := a.companyNames(ctx, hits)
	if err != nil {
		return nil, nil, err
	}
	tokens := questionTokens(question)
	keep := map[string]bool{}
	named := map[string]bool{}
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

// questionTokens are the question's words, lower-cased, a possessive cut
// off.
func questionTokens(question string) map[string]bool {
	tokens := map[string]bool{}
	for _, w := range strings.FieldsFunc(question, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' }) {
		w = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"), "'")
		tokens[strings.ToLower(w)] = true
	}
	return tokens
}

// companyNames are the words that name each company hit, by CIK: its
// ticker and the first word of its name, lower-cased.
func (a *Service) companyNames(ctx context.Context, hits []ports.SectionHit) (map[string][]string, error) {
	names := map[string][]string{}
	for _, h := range hits {
		cik := h.Section.CIK
		if _, done := names[cik]; done {
			continue
		}
		ids := []string{strings.ToLower(h.Section.Ticker)}
		c, err := a.fin.CompanyByCIK(ctx, cik)
		if err != nil && !errors.Is(err, ports.ErrNotFound) {
			return nil, err
		}
		if f := strings.Fields(c.Name); len(f) > 0 {
			ids = append(ids, strings.ToLower(strings.Trim(f[0], ",.")))
		}
		names[cik] = ids
	}
	return names, nil
}
