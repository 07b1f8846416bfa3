package bleve

import (
	"context"
	"fmt"
	"strings"
	"time"

	blevesearch "github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// Field names of an indexed judgment.
const (
	fieldCourt   = "court"
	fieldDecided = "decided"
)

// judgmentDoc is what bleve indexes for a judgment: its tokenized text,
// its court (lower case, matched exactly) and its decision date.
type judgmentDoc struct {
	Text    string `json:"text"`
	Court   string `json:"court"`
	Decided string `json:"decided"`
}

// Judgments is a JudgmentIndex, set up as Index is: BM25, the text
// analysed in English with term vectors, filters as exact keywords, and no
// text kept.
type Judgments struct {
	kept
}

var _ ports.JudgmentIndex = (*Judgments)(nil)

// NewJudgments returns an empty judgment index in memory.
func NewJudgments() (*Judgments, error) {
	idx, err := newInMemory(judgmentMapping())
	if err != nil {
		return nil, fmt.Errorf("bleve: new judgment index: %w", err)
	}
	return &Judgments{kept{idx}}, nil
}

// OpenJudgments opens the judgment index kept on disk at path, creating it
// if need be. Close it when done.
func OpenJudgments(path string) (*Judgments, error) {
	idx, err := openOnDisk(path, judgmentMapping())
	if err != nil {
		return nil, err
	}
	return &Judgments{kept{idx}}, nil
}

func judgmentMapping() mapping.IndexMapping { return textMapping(fieldCourt, fieldDecided) }

// Index adds or replaces judgments by id.
func (x *Judgments) Index(_ context.Context, js []judgment.Judgment) error {
	return indexBatches(x.idx, js, func(j judgment.Judgment) (string, int, any) {
		return j.ID, len(j.Text), judgmentDoc{Text: j.Text, Court: strings.ToLower(j.Court), Decided: j.DecisionDate}
	})
}

// Count returns how many judgments are indexed.
func (x *Judgments) Count(context.Context) (int64, error) { return count(x.idx) }

// Search runs the query and returns one page of hits, best first (ties by
// id), with the byte range of each hit's passage in the indexed text.
func (x *Judgments) Search(ctx context.Context, q ports.JudgmentQuery) ([]ports.IndexHit, int, error) {
	return searchPage(ctx, x.idx, judgmentQuery(q), q.Limit, q.Offset)
}

// judgmentQuery matches the text and requires the court and date range
// given.
func judgmentQuery(q ports.JudgmentQuery) query.Query {
	text := blevesearch.NewMatchQuery(q.Text)
	text.SetField(fieldText)
	text.Analyzer = en.AnalyzerName
	must := []query.Query{text}
	if q.Court != "" {
		t := blevesearch.NewTermQuery(strings.ToLower(q.Court))
		t.SetField(fieldCourt)
		must = append(must, t)
	}
	if !q.DecidedFrom.IsZero() || !q.DecidedTo.IsZero() {
		must = append(must, dateRange(fieldDecided, q.DecidedFrom, q.DecidedTo))
	}
	return blevesearch.NewConjunctionQuery(must...)
}

// dateRange bounds a date field inclusively; ISO dates order as text.
func dateRange(field string, from, to time.Time) query.Query {
	inclusive := true
	var lo, hi string
	if !from.IsZero() {
		lo = from.Format(time.DateOnly)
	}
	if !to.IsZero() {
		hi = to.Format(time.DateOnly)
	}
	r := blevesearch.NewTermRangeInclusiveQuery(lo, hi, &inclusive, &inclusive)
	r.SetField(field)
	return r
}
