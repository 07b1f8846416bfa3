package ask

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/question"
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
// documents. A sentence answers only when it covers every key term of the
// question (textMatch); a question anchored on a case number reads that
// judgment only.
func (a *Service) passages(ctx context.Context, q Query, searched []dataset.ID) ([]sentence, error) {
	docs, named, anchored, err := a.retrieve(ctx, q, searched)
	if err != nil {
		return nil, err
	}
	if anchored {
		m, ok := newTextMatch(question.WithoutCaseNumber(q.Question), named)
		return anchoredAnswer(a, docs, m, ok), nil
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
	// Highest coverage first, then the densest; the retriever's order
	// breaks ties.
	slices.SortStableFunc(best, func(x, y candidate) int {
		return cmp.Or(cmp.Compare(y.score, x.score), cmp.Compare(y.density, x.density))
	})
	limit := min(maxTextSentences, q.MaxCitations)
	if m.need == 1 {
		limit = 1 // one matching word makes a second sentence chance
	}
	return pick(best, limit), nil
}

// anchoredAnswer answers from the judgment a case number names: its
// sentence covering the question's other key terms, or, only when the
// question asks nothing else ("What happened in WP 1620 of 2015?", "the
// outcome of …"), the last sentence that says how the case ended. A
// question asking for something no sentence covers is refused.
func anchoredAnswer(a *Service, docs []retrieved, m textMatch, hasTerms bool) []sentence {
	if len(docs) != 1 {
		return nil
	}
	d := docs[0]
	if hasTerms {
		if c, ok := a.bestSentence(d, m); ok {
			return pick([]candidate{c}, 1)
		}
		return nil
	}
	return a.operative(d)
}

// textMatch is what a sentence must hold of a text question's content
// words: every key term (a word that is not a number), each or one of its
// synonyms; numbers (years above all) in the sentence or elsewhere in its
// document; and need words at least. quantity asks for a figure ("how
// many", "how much"), which the sentence must hold.
type textMatch struct {
	words, topical []string
	// number says which words are numbers.
	number            []bool
	need, needTopical int
	quantity          bool
	// head is the word the question asks about, which a sentence must
	// hold.
	head string
	// asked holds the stems of every word of the question, stop words
	// too.
	asked map[string]bool
}

// askedAbout reads the words after "which" or "what" up to the verb.
var askedAbout = regexp.MustCompile(`\b(?:which|what) ((?:\S+ ){0,3}?\S+?)(?:'s)? (?:is|are|was|were|did|do|does|has|have|had|adopted|filed|entered)\b`)

// newTextMatch reads the content words of question, less the naming words
// (named); it reports false when too few are left to match.
func newTextMatch(question string, named map[string]bool) (textMatch, bool) {
	words := contentStems(question)
	words = slices.DeleteFunc(words, func(w string) bool { return named[w] || genericWords[w] })
	need := minMatched
	if len(named) > 0 {
		// A question about a named company may have one content word
		// left ("When was Microsoft founded?").
		need = 1
	}
	if len(words) < need {
		return textMatch{}, false
	}
	topical := slices.DeleteFunc(slices.Clone(words), isNumber)
	// The word a question asks about ("Which directors …") is never the
	// one left out.
	var head string
	if m := askedAbout.FindStringSubmatch(strings.ToLower(question)); m != nil {
		for _, w := range contentStems(m[1]) {
			if slices.Contains(topical, w) {
				head = w
				break
			}
		}
	}
	// Every key term, or all but one of five or more.
	needTopical := len(topical)
	if needTopical >= 5 {
		needTopical--
	}
	number := make([]bool, len(words))
	for i, w := range words {
		number[i] = isNumber(w)
	}
	asked := map[string]bool{}
	for _, w := range wordsOf(question) {
		asked[stem(w)] = true
	}
	return textMatch{words: words, number: number, topical: topical, head: head, asked: asked, need: need, needTopical: needTopical,
		quantity: quantityQuestion.MatchString(strings.ToLower(question))}, true
}

// quantityQuestion asks for an amount, a count or a share.
var quantityQuestion = regexp.MustCompile(`^when\b|\b(?:how (?:many|much|long)|what (?:share|percentage|portion|proportion|fraction))\b`)

// genericWords say what kind of answer a question wants, not what it is
// about: a sentence need not hold them.
var genericWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`many much long came come comes through get gets got go goes went
		happen happened outcome result case judgment judgement matter decide decided
		petition writ appeal civil concern concerns regarding related relates which whose`) {
		genericWords[stem(w)] = true
	}
}

// covers reports whether a sentence's stems hold w, or every word of a
// synonym of it, or a longer form of it ("pray" in "prayers").
func covers(stems []string, w string) bool {
	if holds(stems, w) {
		return true
	}
	for _, alt := range synonyms[w] {
		all := len(alt) > 0
		for _, a := range alt {
			all = all && holds(stems, a)
		}
		if all {
			return true
		}
	}
	return false
}

// holds reports whether stems hold w or an inflected form of the same
// word ("pray" in "prayers", "audit" in "auditor"), not a longer word
// that merely starts as w does.
func holds(stems []string, w string) bool {
	for _, s := range stems {
		if s == w || len(w) >= 4 && strings.HasPrefix(s, w) && inflected(w, s[len(w):]) {
			return true
		}
	}
	return false
}

// inflected reports whether ending, after w, makes a form of w: an
// inflection, its last consonant doubled or not ("spann" of "spanned").
func inflected(w, ending string) bool {
	return inflection[ending] || ending[0] == w[len(w)-1] && inflection[ending[1:]]
}

// inflection holds the endings (as stem cuts them, at six letters) that
// make a longer form of the same word: plural, past, -ing, the agent
// (-er, -or).
var inflection = map[string]bool{"s": true, "e": true, "d": true, "es": true, "ed": true, "er": true, "or": true, "i": true, "in": true}

// sensed is a sentence's stems less those it holds only as the first
// word of a capitalised compound (Audit Committee, Compensation Committee)
// whose head the question does not hold: "Who audits …" asks about
// auditing, not about the Audit Committee.
func sensed(sn docSentence, asked map[string]bool) []string {
	if len(sn.modifies) == 0 {
		return sn.stems
	}
	return slices.DeleteFunc(slices.Clone(sn.stems), func(st string) bool {
		heads, ok := sn.modifies[st]
		return ok && !slices.ContainsFunc(heads, func(h string) bool { return asked[h] })
	})
}

// synonyms maps a word's stem to its synonyms' stems, a synonym of several
// words (chief executive) being all of them (question.SynonymGroups).
var synonyms = map[string][][]string{}

func init() {
	for _, group := range question.SynonymGroups() {
		for _, w := range group {
			for _, st := range contentStems(w) {
				for _, other := range group {
					if other != w {
						synonyms[st] = append(synonyms[st], contentStems(other))
					}
				}
			}
		}
	}
}

// score is the share of m's words that sn holds, and whether sn answers:
// prose holding every key term and enough words, every number of the
// question in it or in its document (inDoc), and a figure when the
// question asks for one.
func (m textMatch) score(sn docSentence, inDoc func(string) bool) (float64, bool) {
	if !sn.proseEnough {
		return 0, false
	}
	stems := sensed(sn, m.asked)
	n, topical := 0, 0
	for i, w := range m.words {
		switch {
		case covers(stems, w):
			n++
			if !m.number[i] {
				topical++
			}
		case m.number[i] && inDoc(w):
		case m.number[i]:
			return 0, false
		}
	}
	score := float64(n) / float64(len(m.words))
	if m.head != "" && !covers(stems, m.head) {
		return score, false
	}
	if m.quantity && !strings.ContainsAny(sn.said, "0123456789") {
		return score, false
	}
	return score, n >= m.need && topical >= m.needTopical
}

// candidate is a document's best sentence for a text question; density is
// the share of the sentence's words the question holds, so that of two
// sentences covering a question the one about it comes first.
type candidate struct {
	doc            retrieved
	sentence       docSentence
	score, density float64
}

// bestSentence is d's sentence that matches m best, the first of equals;
// false when none matches.
func (a *Service) bestSentence(d retrieved, m textMatch) (candidate, bool) {
	var top candidate
	found := false
	sentences := a.sentences.of(d)
	var docStems map[string]bool
	inDoc := func(w string) bool {
		if docStems == nil {
			docStems = map[string]bool{}
			for _, sn := range sentences {
				for _, st := range sn.stems {
					docStems[st] = true
				}
			}
		}
		return docStems[w]
	}
	for _, sn := range sentences {
		score, ok := m.score(sn, inDoc)
		if !ok {
			continue
		}
		density := float64(len(m.words)) / float64(max(1, len(sn.stems)))
		if !found || score > top.score || score == top.score && density > top.density {
			top, found = candidate{doc: d, sentence: sn, score: score, density: density}, true
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
// It also returns the stems of the naming words. A question naming a case
// number is anchored: it reads the one judgment with that number, or
// nothing.
func (a *Service) retrieve(ctx context.Context, q Query, searched []dataset.ID) (docs []retrieved, named map[string]bool, anchored bool, err error) {
	rq := ports.RetrievalQuery{Text: q.Question, AsOf: q.AsOf, Limit: retrievedSections}
	named = map[string]bool{}
	readsJudgments := a.judgments != nil && slices.Contains(searched, dataset.IndiaJudgments)
	if number, year, ok := question.CaseNumber(q.Question); ok {
		if !readsJudgments {
			return nil, named, true, nil
		}
		for _, w := range contentStems(number + " " + year) {
			named[w] = true
		}
		docs, err := a.judgmentsNumbered(ctx, rq, number, year)
		return docs, named, true, err
	}
	if slices.Contains(searched, dataset.USSearch) {
		hits, err := a.sections.Retrieve(ctx, rq)
		if err != nil {
			return nil, nil, false, err
		}
		if hits, named, err = a.mentioned(ctx, q.Question, hits); err != nil {
			return nil, nil, false, err
		}
		for _, h := range hits {
			docs = append(docs, sectionDoc(h.Section))
		}
	}
	if !readsJudgments || len(named) > 0 {
		return docs, named, false, nil
	}
	hits, err := a.judgments.Retrieve(ctx, rq)
	if err != nil {
		return nil, nil, false, err
	}
	for _, h := range hits {
		docs = append(docs, judgmentDoc(h.Judgment))
	}
	return docs, named, false, nil
}

// judgmentsNumbered returns the judgments retrieved for the case number
// and year that have that number.
func (a *Service) judgmentsNumbered(ctx context.Context, rq ports.RetrievalQuery, number, year string) ([]retrieved, error) {
	rq.Text = number + " " + year
	hits, err := a.judgments.Retrieve(ctx, rq)
	if err != nil {
		return nil, err
	}
	var docs []retrieved
	for _, h := range hits {
		if question.NamesCase(h.Judgment.CaseNumber, number, year) {
			docs = append(docs, judgmentDoc(h.Judgment))
		}
	}
	return docs, nil
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
