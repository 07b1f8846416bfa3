package usecase

import (
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
