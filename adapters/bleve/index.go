// Package bleve is the full-text adapter of ports.SectionIndex and
// ports.JudgmentIndex: bleve indexes ranked with BM25, whose term locations
// give the exact range of the passage each hit matched, in memory or on
// disk (scorch). An index holds no data of record and no text: it is derived
// from its store (rebuilt at start in memory; on disk, resumed from the
// checkpoint kept with it), and a hit names its document by id, for the
// caller to read from the store.
package bleve

import (
	"context"
	"errors"
	"fmt"
	"time"

	blevesearch "github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

// Field names of an indexed section.
const (
	fieldText   = "text"
	fieldTicker = "ticker"
	fieldCIK    = "cik"
	fieldForm   = "form"
	fieldItem   = "item"
	fieldFiled  = "filed"
)

// doc is what bleve indexes for a section.
type doc struct {
	Text   string `json:"text"`
	Ticker string `json:"ticker"`
	CIK    string `json:"cik"`
	Form   string `json:"form"`
	Item   string `json:"item"`
	Filed  string `json:"filed"`
}

// Index is a SectionIndex. It keeps the terms of each section and where
// they occur, not the text: the section store holds that, and a second copy
// here would double the memory the sections take.
type Index struct {
	kept
}

var _ ports.SectionIndex = (*Index)(nil)

// New returns an empty index in memory.
func New() (*Index, error) {
	idx, err := newInMemory(indexMapping())
	if err != nil {
		return nil, fmt.Errorf("bleve: new index: %w", err)
	}
	return &Index{kept{idx}}, nil
}

// Open opens the index kept on disk at path, creating it if need be. Close
// it when done.
func Open(path string) (*Index, error) {
	idx, err := openOnDisk(path, indexMapping())
	if err != nil {
		return nil, err
	}
	return &Index{kept{idx}}, nil
}

// indexMapping analyses the text in English (stemmed, stop words dropped)
// with term vectors, whose locations make the passage of a hit, and the
// filters as exact keywords. No field is stored, none keeps doc values (hits
// are sorted by score and id only), and there is no composite _all field,
// which would index the text a second time with term vectors of its own.
func indexMapping() mapping.IndexMapping {
	return textMapping(fieldTicker, fieldCIK, fieldForm, fieldItem, fieldFiled)
}

// textMapping is the mapping every index here uses: fieldText analysed in
// English with term vectors, each filter an exact keyword, nothing stored,
// no doc values, no _all field, BM25 scoring.
func textMapping(filters ...string) mapping.IndexMapping {
	text := blevesearch.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	text.IncludeTermVectors = true
	text.Store = false
	text.IncludeInAll = false
	text.DocValues = false
	exact := blevesearch.NewKeywordFieldMapping()
	exact.Analyzer = keyword.Name
	exact.Store = false
	exact.IncludeTermVectors = false
	exact.IncludeInAll = false
	exact.DocValues = false
	doc := blevesearch.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldText, text)
	for _, f := range filters {
		doc.AddFieldMappingsAt(f, exact)
	}
	doc.AddSubDocumentMapping("_all", blevesearch.NewDocumentDisabledMapping())
	m := blevesearch.NewIndexMapping()
	m.DefaultMapping = doc
	m.ScoringModel = "bm25"
	return m
}

// Index adds or replaces sections by id.
func (x *Index) Index(_ context.Context, sections []filing.Section) error {
	return indexBatches(x.idx, sections, func(s filing.Section) (string, int, any) {
		return s.ID, len(s.Text), doc{Text: s.Text, Ticker: s.Ticker, CIK: s.CIK, Form: s.Form, Item: s.ItemNumber, Filed: s.Filed.Format(time.DateOnly)}
	})
}

// batchBytes bounds the text one bleve batch analyses. A batch's terms
// and their locations are held whole until it becomes a segment, several
// times its text: one batch of every section a first start read held over
// a GiB at the end of the start (docs/capacity.md).
const batchBytes = 4 << 20

// indexBatches indexes items in batches of at most batchBytes of text (at
// least one item each); doc gives an item's id, text length and document.
func indexBatches[T any](idx blevesearch.Index, items []T, doc func(T) (string, int, any)) error {
	b, held := idx.NewBatch(), 0
	for _, it := range items {
		id, n, d := doc(it)
		if held > 0 && held+n > batchBytes {
			if err := runBatch(idx, b); err != nil {
				return err
			}
			b, held = idx.NewBatch(), 0
		}
		if err := b.Index(id, d); err != nil {
			return fmt.Errorf("bleve: index %s: %w", id, err)
		}
		held += n
	}
	return runBatch(idx, b)
}

// runBatch applies b to idx.
func runBatch(idx blevesearch.Index, b *blevesearch.Batch) error {
	if b.Size() == 0 {
		return nil
	}
	if err := idx.Batch(b); err != nil {
		return fmt.Errorf("bleve: batch: %w: %v", ports.ErrUnavailable, err)
	}
	return nil
}

// Count returns how many sections are indexed.
func (x *Index) Count(context.Context) (int64, error) { return count(x.idx) }

// count returns how many documents idx holds.
func count(idx blevesearch.Index) (int64, error) {
	n, err := idx.DocCount()
	if err != nil {
		return 0, fmt.Errorf("bleve: count: %w: %v", ports.ErrUnavailable, err)
	}
	return int64(n), nil
}

// Search runs the query and returns one page of hits, best first (ties by
// section id, so pages are stable), with the byte range of each hit's
// passage in the text that was indexed.
func (x *Index) Search(ctx context.Context, q ports.SectionQuery) ([]ports.IndexHit, int, error) {
	return searchPage(ctx, x.idx, buildQuery(q), q.Limit, q.Offset)
}

// searchPage runs one page of q on idx, best first (ties by id), with the byte
// range of each hit's passage in the indexed text, and the total.
func searchPage(ctx context.Context, idx blevesearch.Index, q query.Query, limit, offset int) ([]ports.IndexHit, int, error) {
	req := blevesearch.NewSearchRequestOptions(q, limit, offset, false)
	req.IncludeLocations = true
	req.SortBy([]string{"-_score", "_id"})
	res, err := idx.SearchInContext(ctx, req)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("bleve: search: %w: %v", ports.ErrUnavailable, err)
	}
	hits := make([]ports.IndexHit, len(res.Hits))
	for i, h := range res.Hits {
		start, end := passage(h.Locations[fieldText])
		hits[i] = ports.IndexHit{ID: h.ID, Score: h.Score, Start: start, End: end}
	}
	return hits, int(res.Total), nil
}

// buildQuery matches the text and requires every filter given.
func buildQuery(q ports.SectionQuery) query.Query {
	text := blevesearch.NewMatchQuery(q.Text)
	text.SetField(fieldText)
	text.Analyzer = en.AnalyzerName
	must := []query.Query{text}
	for field, value := range map[string]string{fieldTicker: q.Ticker, fieldCIK: q.CIK, fieldForm: q.Form, fieldItem: q.ItemNumber} {
		if value != "" {
			t := blevesearch.NewTermQuery(value)
			t.SetField(field)
			must = append(must, t)
		}
	}
	if !q.FiledFrom.IsZero() || !q.FiledTo.IsZero() {
		must = append(must, dateRange(fieldFiled, q.FiledFrom, q.FiledTo))
	}
	return blevesearch.NewConjunctionQuery(must...)
}

// passage returns the byte range of the densest run of matched terms
// (ports.DensestPassage).
func passage(byTerm search.TermLocationMap) (int, int) {
	var locs []ports.TermLocation
	for term, ls := range byTerm {
		for _, l := range ls {
			locs = append(locs, ports.TermLocation{Term: term, Start: int(l.Start), End: int(l.End)})
		}
	}
	return ports.DensestPassage(locs)
}
