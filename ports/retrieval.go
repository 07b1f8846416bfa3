package ports

import (
	"context"
	"time"
)

// RetrievalQuery asks for the passages that best match a question, among
// documents known at AsOf (filed on or before its date).
type RetrievalQuery struct {
	Text  string
	AsOf  time.Time
	Limit int
}

// SectionRetriever finds the filing sections that best match a question,
// best first, with their text. It is the seam of Ask's text retrieval: the
// full-text index (bleve) answers it today, and a vector or hybrid
// retriever can stand in for it.
type SectionRetriever interface {
	Retrieve(ctx context.Context, q RetrievalQuery) ([]SectionHit, error)
}

// JudgmentRetriever finds the judgments whose tokenized text best matches
// a question, best first, among those decided on or before AsOf's date.
// It is the seam of Ask's retrieval over India judgments, as
// SectionRetriever is over 10-K sections; it reads no vault, so a party's
// name finds nothing of theirs.
type JudgmentRetriever interface {
	Retrieve(ctx context.Context, q RetrievalQuery) ([]JudgmentHit, error)
}
