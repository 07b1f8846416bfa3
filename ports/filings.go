package ports

import (
	"context"
	"iter"
	"time"

	"github.com/quarrydata/quarry/domain/filing"
)

// FilingStore holds EDGAR filings and the index of their files, keyed by
// dashed accession number.
type FilingStore interface {
	// Filing returns the filing with that accession number, or ErrNotFound.
	Filing(ctx context.Context, accession string) (filing.Filing, error)
	// UpsertFilings inserts or replaces filings by accession number, with
	// their item sections by section id, as one batch: a reader (Filing,
	// and SectionsByID, which search results are read back with) sees each
	// filing and its sections whole or not at all, even when the write
	// stops part way; writing the batch again completes it. Applying the
	// same batch twice leaves the store unchanged.
	UpsertFilings(ctx context.Context, f []filing.Filing, s []filing.Section) error
	// HoldsFilings reports whether any filing is held. It reads one:
	// a count read every filing on FerretDB, seconds at real sizes.
	HoldsFilings(ctx context.Context) (bool, error)
}

// SectionStore holds the item sections of filings, the document store that
// a search index is built from.
type SectionStore interface {
	// UpsertSections inserts or replaces sections by id, as one batch seen
	// whole or not at all; applying the same batch twice leaves the store
	// unchanged. Sections of a filing are written with it (UpsertFilings).
	UpsertSections(ctx context.Context, s []filing.Section) error
	// SectionsSince reads the sections written after mark, at most limit
	// (at least 1) a page, in the order of the writes that last wrote them
	// and by id within a write, and calls page with each page and the mark
	// that follows it, so a reader can index a page and save that mark
	// before the next page is read: memory is bounded by a page, and a
	// read cut short resumes from the last mark saved. It reads every write
	// settled when it began, so every UpsertSections call that completed
	// before SectionsSince began is in what it or an earlier call with a
	// smaller mark read, in any process sharing the store; a write still
	// under way is left to a later call. It returns the mark reached, the
	// one passed with the last page if any; an error of page stops the
	// read and is returned. When nothing settled since mark, it reads no
	// section and returns mark.
	SectionsSince(ctx context.Context, mark SectionMark, limit int, page func([]filing.Section, SectionMark) error) (SectionMark, error)
	// SectionsByID returns the sections held under ids, ordered by id; an
	// id that is not held, or whose batch is not yet published, is left
	// out. SectionsSince may return sections before their batch is
	// published: an index built from it finds them, and a reader of its
	// hits reads them back here.
	SectionsByID(ctx context.Context, ids []string) ([]filing.Section, error)
}

// SectionMark is how far a reader has read the writes of a SectionStore,
// in the order the store numbers them: every write numbered up to Write,
// except that when After is set, write Write only up to and including the
// section with that id. The zero mark has read nothing.
type SectionMark struct {
	Write int64
	After string
}

// Precedes says whether the section with that id, as last written by the
// write numbered write, comes after the mark: the zero mark precedes every
// section, even one a store holds from before it numbered its writes.
func (m SectionMark) Precedes(write int64, id string) bool {
	if m == (SectionMark{}) {
		return true
	}
	return write > m.Write || write == m.Write && m.After != "" && id > m.After
}

// SectionPages splits order, the sections written after mark in the order
// of writes (at is where one stands), into pages of at most limit, each
// with the mark that resumes after it: its last section's, or end, the
// mark of the last write read, for the last page. It is how every adapter
// of SectionStore pages SectionsSince.
func SectionPages[T any](order []T, at func(T) SectionMark, end SectionMark, limit int) iter.Seq2[[]T, SectionMark] {
	return func(yield func([]T, SectionMark) bool) {
		limit = max(limit, 1)
		for start := 0; start < len(order); start += limit {
			chunk := order[start:min(start+limit, len(order))]
			next := at(chunk[len(chunk)-1])
			if start+len(chunk) == len(order) {
				next = end
			}
			if !yield(chunk, next) {
				return
			}
		}
	}
}

// SectionQuery is a full-text query with its filters. Empty filters match
// everything; a zero date is unbounded.
type SectionQuery struct {
	Text       string
	Ticker     string
	CIK        string
	Form       string
	ItemNumber string
	FiledFrom  time.Time
	FiledTo    time.Time
	Limit      int
	Offset     int
}

// SectionHit is one ranked match: the section and where in its text the
// matched passage lies, in Unicode code points, end exclusive.
type SectionHit struct {
	Section filing.Section
	Score   float64
	Start   int
	End     int
}

// IndexHit is one ranked match as an index knows it: the section's id and
// where the matched passage lies in the text that was indexed, in bytes,
// end exclusive. An index keeps no text, so the section is read from the
// SectionStore.
type IndexHit struct {
	ID    string
	Score float64
	Start int
	End   int
}

// SectionIndex is a ranked full-text index of sections. Scores are the
// engine's own, so engines may order sections of different scores
// differently; every index keeps the rest (porttest.RunSectionIndex): a
// section matches when it holds any word of the query (English stems,
// stop words dropped, so a query of stop words matches nothing), equal
// scores are ordered by id, pages are cut from that one order, the total
// is exact, and a hit's passage is DensestPassage of its matched words.
type SectionIndex interface {
	// Index adds or replaces sections by id.
	Index(ctx context.Context, s []filing.Section) error
	// Search returns one page of hits, best first (equal scores by id),
	// and the exact number of sections matching in all.
	Search(ctx context.Context, q SectionQuery) ([]IndexHit, int, error)
	// Count returns how many sections are indexed.
	Count(ctx context.Context) (int64, error)
	// Checkpoint returns what SaveCheckpoint last stored with the index,
	// nil if nothing. An index kept on disk says with it how far it has
	// read its store, so a restart resumes there instead of rebuilding.
	Checkpoint(ctx context.Context) ([]byte, error)
	// SaveCheckpoint stores cp with the index.
	SaveCheckpoint(ctx context.Context, cp []byte) error
}
