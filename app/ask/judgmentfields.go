package ask

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/question"
	"github.com/quarrydata/quarry/ports"
)

// tokenized is a token the PII redactor wrote for a person, an address or
// a PAN: an answer never says one.
var tokenized = regexp.MustCompile(`\b(?:PTY|ADR|PAN)_\w+`)

// citesOtherCase marks a sentence about a case the judgment cites: a
// cause title (X v. Y) or a law report (2010) 5 SCC 1, AIR 1990 SC 12.
var citesOtherCase = regexp.MustCompile(`\b(?:v|vs|versus)\.?\s+\S|\bSCC\b|\bAIR\s+\d{4}|\(\d{4}\)\s+\d+\s+[A-Z]`)

// judgmentWords are the words of a judgment field question that say what
// it asks, not which case: the subject is the rest.
var judgmentWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`judge judges justice justices bench coram court decided decide decision date heard delivered
		pronounced wrote authored presided allowed dismissed outcome result disposed quashed granted rejected happened end ended
		india indian high supreme name named names list give tell sat sitting panel constituted comprised comprising
		member members allow dismiss quash grant reject`) {
		judgmentWords[stem(w)] = true
	}
}

// judgmentAnswer answers a question asking for a judgment's judges, court
// or decision date, from its stored fields, or for its outcome, from its
// operative sentence: the judgment is the one its case number names, or
// else the one judgment retrieved whose text holds every word of the
// question's subject ("the appeal about the municipal tax assessment").
func (a *Service) judgmentAnswer(ctx context.Context, q Query, field string) ([]sentence, error) {
	j, ok, err := a.askedJudgment(ctx, q)
	if err != nil || !ok {
		return nil, err
	}
	if field == question.JudgmentOutcome {
		return a.operative(judgmentDoc(j)), nil
	}
	s, ok := judgmentRecord(j, field)
	if !ok {
		return nil, nil
	}
	return []sentence{s}, nil
}

// askedJudgment finds the judgment a field question is about.
func (a *Service) askedJudgment(ctx context.Context, q Query) (judgment.Judgment, bool, error) {
	rq := ports.RetrievalQuery{Text: q.Question, AsOf: q.AsOf, Limit: retrievedSections}
	number, year, numbered := question.CaseNumber(q.Question)
	subject := a.subjectWords(question.WithoutCaseNumber(q.Question))
	if numbered {
		if len(subject) > 0 {
			// "the tallest judge named in W.P. 1620/2015": a record
			// says no more than who, which court and when.
			return judgment.Judgment{}, false, nil
		}
		rq.Text = number + " " + year
	}
	hits, err := a.judgments.Retrieve(ctx, rq)
	if err != nil {
		return judgment.Judgment{}, false, err
	}
	var found []judgment.Judgment
	for _, h := range hits {
		if numbered && question.NamesCase(h.Judgment.CaseNumber, number, year) ||
			!numbered && len(subject) >= minMatched && a.holdsAll(judgmentDoc(h.Judgment), subject) {
			found = append(found, h.Judgment)
		}
	}
	if len(found) != 1 {
		return judgment.Judgment{}, false, nil
	}
	return found[0], true, nil
}

// subjectWords are the stems of the question's words that say which case
// it is about.
func (a *Service) subjectWords(q string) []string {
	var out []string
	for _, w := range contentStems(q) {
		if !genericWords[w] && !judgmentWords[w] && !isNumber(w) {
			out = append(out, w)
		}
	}
	return out
}

// holdsAll reports whether d's text holds every one of words, each in
// some sentence of it.
func (a *Service) holdsAll(d retrieved, words []string) bool {
	var stems []string
	for _, sn := range a.sentences.of(d) {
		stems = append(stems, sn.stems...)
	}
	for _, w := range words {
		if !covers(stems, w) {
			return false
		}
	}
	return true
}

// disposal is a sentence saying how the case itself ended: "the appeal
// succeeds and is allowed", "the writ petition is dismissed".
var disposal = regexp.MustCompile(`(?i)\b(?:appeals?|petitions?|applications?|suits?|writs?|cases?|matters?|rule)\b[^.]{0,80}\b(?:allowed|dismissed|disposed of|withdrawn|rejected|fails|succeeds|made absolute|discharged)\b`)

// operative is the sentence of a judgment's operative part (d) that says how the case
// ended: the last of prose that says how the case itself did (disposal),
// else the last saying an outcome at all; never one about another case it
// cites, nor one saying a token.
func (a *Service) operative(d retrieved) []sentence {
	sentences := a.sentences.of(d)
	for _, says := range []func(string) bool{disposal.MatchString, question.SaysOutcome} {
		for i := len(sentences) - 1; i >= 0; i-- {
			sn := sentences[i]
			if sn.proseEnough && says(sn.said) && !citesOtherCase.MatchString(sn.said) && !tokenized.MatchString(sn.said) {
				return []sentence{{text: sn.said, cite: d.cite(sn.start, sn.end, sn.span)}}
			}
		}
	}
	return nil
}

// judgmentRecord writes the sentence of j's stored fields: its court,
// decision date and judges (those not tokenized), cited to the judgment's
// record. A judges question with no judge left to name is none.
func judgmentRecord(j judgment.Judgment, field string) (sentence, bool) {
	var judges []string
	for _, name := range j.Judges {
		if !tokenized.MatchString(name) {
			judges = append(judges, name)
		}
	}
	if field == question.JudgmentJudges && len(judges) == 0 {
		return sentence{}, false
	}
	fields := map[string]string{
		"judgment_id": j.ID, "court": j.Court, "case_number": j.CaseNumber, "decision_date": j.DecisionDate,
		"judges": strings.Join(judges, "; "),
	}
	text := fmt.Sprintf("%s was decided by the %s on %s", j.CaseNumber, j.Court, j.DecisionDate)
	if j.Bench != "" {
		fields["bench"] = j.Bench
		text += " (" + j.Bench + " bench)"
	}
	if len(judges) > 0 {
		text += ", before " + joinNames(judges)
	}
	return sentence{text: text + ".", cite: Citation{
		Dataset: dataset.IndiaJudgments, DocumentID: j.ID, Title: fmt.Sprintf("%s, %s (decided %s)", j.CaseNumber, j.Court, j.DecisionDate),
		Snippet: recordSnippet(fields), Fields: fields, Route: "GET /india/judgments/" + j.ID,
	}}, true
}

// joinNames writes names as a list: "A", "A and B", "A, B and C".
func joinNames(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
