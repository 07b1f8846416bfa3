package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
)

// tokenPattern is a token at the start of a text; anyToken, anywhere.
var (
	tokenPattern = regexp.MustCompile(`^(?:PTY|ADR|PAN)_[A-Z2-7]{16}`)
	anyToken     = regexp.MustCompile(`(?:PTY|ADR|PAN)_[A-Z2-7]{16}`)
)

// span is a run of an earlier text that a tokenized copy of it holds as a
// token.
type span struct {
	start, end int
	token      string
}

// tokenSpans aligns tokenized, a copy of earlier with runs of it replaced
// by tokens, with earlier, and returns those runs; an error when the two
// differ otherwise.
func tokenSpans(tokenized, earlier string) ([]span, error) {
	var out []span
	i, j := 0, 0
	for i < len(tokenized) {
		if tok := tokenPattern.FindString(tokenized[i:]); tok != "" && !strings.HasPrefix(earlier[j:], tok) {
			i += len(tok)
			k, err := anchorAfter(tokenized[i:], earlier, j)
			if err != nil {
				return nil, err
			}
			out = append(out, span{j, k, tok})
			j = k
			continue
		}
		if j >= len(earlier) || tokenized[i] != earlier[j] {
			return nil, fmt.Errorf("the texts differ at byte %d of the tokenized one", i)
		}
		i++
		j++
	}
	if j != len(earlier) {
		return nil, fmt.Errorf("the earlier text runs on after byte %d", j)
	}
	return out, nil
}

// anchorAfter returns where in earlier, after byte j, the original that
// a token replaced ends: where what follows the token (rest), up to the
// next token, starts again.
func anchorAfter(rest, earlier string, j int) (int, error) {
	if k := anyToken.FindStringIndex(rest); k != nil {
		rest = rest[:k[0]]
	}
	rest = rest[:min(len(rest), 24)]
	if rest == "" {
		return len(earlier), nil
	}
	k := strings.Index(earlier[min(len(earlier), j+1):], rest)
	if k < 0 {
		return 0, fmt.Errorf("%q after a token is not in the earlier text", rest)
	}
	return j + 1 + k, nil
}

// rebuild returns the judgment earlier (an earlier stored form of
// shipped, with fewer tokens) tokenized by the current rules, with the
// token shipped holds for each original both tokenize at the same place:
// what shipped tokenized and the rules now leave in clear is in clear
// again, and what both tokenize keeps shipped's token.
func rebuild(key pii.Key, shipped, earlier judgment.Judgment) (judgment.Judgment, error) {
	fresh, _, err := judgment.Retokenize(key, earlier)
	if err != nil {
		return judgment.Judgment{}, err
	}
	same := map[string]string{}
	for _, f := range fieldsOf(shipped, earlier, fresh) {
		old, err := tokenSpans(f.shipped, f.earlier)
		if err != nil {
			return judgment.Judgment{}, fmt.Errorf("%s: %s: %w", shipped.ID, f.name, err)
		}
		now, err := tokenSpans(f.fresh, f.earlier)
		if err != nil {
			return judgment.Judgment{}, fmt.Errorf("%s: %s: %w", shipped.ID, f.name, err)
		}
		at := map[[2]int]string{}
		for _, s := range old {
			at[[2]int{s.start, s.end}] = s.token
		}
		for _, s := range now {
			if tok, ok := at[[2]int{s.start, s.end}]; ok && same[s.token] == "" {
				same[s.token] = tok
			}
		}
	}
	pairs := make([]string, 0, 2*len(same))
	for now, old := range same {
		pairs = append(pairs, now, old)
	}
	r := strings.NewReplacer(pairs...)
	out := fresh
	out.Title, out.CaseNumber, out.Bench, out.Text = r.Replace(fresh.Title), r.Replace(fresh.CaseNumber), r.Replace(fresh.Bench), r.Replace(fresh.Text)
	out.Judges, out.Citations = replaceAll(r, fresh.Judges), replaceAll(r, fresh.Citations)
	return out, nil
}

// field is one text field of a judgment in its three forms.
type field struct{ name, shipped, earlier, fresh string }

// fieldsOf returns the text fields of the three forms of a judgment, the
// lists' items one by one; the lists must be as long in each.
func fieldsOf(shipped, earlier, fresh judgment.Judgment) []field {
	fs := []field{
		{"title", shipped.Title, earlier.Title, fresh.Title},
		{"case_number", shipped.CaseNumber, earlier.CaseNumber, fresh.CaseNumber},
		{"bench", shipped.Bench, earlier.Bench, fresh.Bench},
		{"text", shipped.Text, earlier.Text, fresh.Text},
	}
	for i := range min(len(shipped.Judges), len(earlier.Judges)) {
		fs = append(fs, field{fmt.Sprintf("judges[%d]", i), shipped.Judges[i], earlier.Judges[i], fresh.Judges[i]})
	}
	for i := range min(len(shipped.Citations), len(earlier.Citations)) {
		fs = append(fs, field{fmt.Sprintf("citations[%d]", i), shipped.Citations[i], earlier.Citations[i], fresh.Citations[i]})
	}
	return fs
}

func replaceAll(r *strings.Replacer, in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = r.Replace(s)
	}
	return out
}
