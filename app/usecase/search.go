package usecase

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/quarrydata/quarry/ports"
)

// runeOffset turns a byte offset into text into code points. The offset is
// clamped to the text: on a shared store another process may have replaced
// the section since it was indexed, until the next Refresh indexes it again.
func RuneOffset(text string, byteOffset int) int {
	return utf8.RuneCountInString(text[:min(max(byteOffset, 0), len(text))])
}

// Passage is where a search hit's matched passage lies in its document's
// text, in code points, end exclusive, and the hit's score.
type Passage struct {
	Score      float64
	Start, End int
}

// Hits runs a search of index q and turns one page of its hits into
// answers, with the total. The index keeps no text, so the page's
// documents are read with byID and each passage's byte range turned into
// code points there; key gives a document's id and text, and hit makes
// the answer of a document and its passage. Documents are never deleted:
// an indexed one missing from the store is skipped rather than answered
// without text.
func Hits[Q, D, H any](ctx context.Context, q Q, search func(context.Context, Q) ([]ports.IndexHit, int, error),
	byID func(context.Context, []string) ([]D, error), key func(D) (id, text string), hit func(D, Passage) H) ([]H, int, error) {
	found, total, err := search(ctx, q)
	if err != nil || len(found) == 0 {
		return nil, total, err
	}
	ids := make([]string, len(found))
	for i, h := range found {
		ids[i] = h.ID
	}
	docs, err := byID(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	held := make(map[string]D, len(docs))
	for _, d := range docs {
		id, _ := key(d)
		held[id] = d
	}
	hits := make([]H, 0, len(found))
	for _, h := range found {
		d, ok := held[h.ID]
		if !ok {
			continue
		}
		_, text := key(d)
		hits = append(hits, hit(d, Passage{Score: h.Score, Start: RuneOffset(text, h.Start), End: RuneOffset(text, h.End)}))
	}
	return hits, total, nil
}

// parsePage checks a search request's limit and offset, when given, and
// sets them on q.
func ParsePage(limit, offset *int, q *ports.SectionQuery) error {
	if limit != nil {
		if *limit < 1 || *limit > maxSearchPage {
			return fmt.Errorf("%w: limit must be an integer from 1 to %d", ErrValidation, maxSearchPage)
		}
		q.Limit = *limit
	}
	if offset != nil {
		if *offset < 0 || *offset > maxSearchOffset {
			return fmt.Errorf("%w: offset must be an integer from 0 to %d", ErrValidation, maxSearchOffset)
		}
		q.Offset = *offset
	}
	return nil
}

// Bounds of a search request.
const (
	MaxQueryChars = 512
	maxSearchPage = 100
	// maxSearchOffset bounds how deep a client may page: the engine
	// collects offset+limit hits to rank a page.
	maxSearchOffset = 10_000
)
