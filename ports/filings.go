package ports

import (
	"context"
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
	// CountFilings returns how many filings are held.
	CountFilings(ctx context.Context) (int64, error)
}

// SectionStore holds the item sections of filings, the document store that
// a search index is built from.
type SectionStore interface {
	// UpsertSections inserts or replaces sections by id, as one batch seen
	// whole or not at all; applying the same batch twice leaves the store
	// unchanged. Sections of a filing are written with it (UpsertFilings).
	UpsertSections(ctx context.Context, s []filing.Section) error
	// SectionsSince returns the sections written after mark, ordered by id,
	// and the mark to pass next time; mark 0 asks for every section. Every
	// UpsertSections call that completed before SectionsSince began is in
	// what it returns or in what an earlier call with a smaller mark
	// returned, in any process sharing the store. A write still under way
	// may be returned in part; its sections come again from the next call,
	// so a reader that indexes what each call returns misses nothing and
	// reads each section a bounded number of times.
	SectionsSince(ctx context.Context, mark int64) ([]filing.Section, int64, error)
	// SectionsByID returns the sections held under ids, ordered by id; an
	// id that is not held, or whose batch is not yet published, is left
	// out. SectionsSince may return sections before their batch is
	// published: an index built from it finds them, and a reader of its
	// hits reads them back here.
	SectionsByID(ctx context.Context, ids []string) ([]filing.Section, error)
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

// SectionIndex is a ranked full-text index of sections.
type SectionIndex interface {
	// Index adds or replaces sections by id.
	Index(ctx context.Context, s []filing.Section) error
	// Search returns one page of hits, best first, and the number of
	// sections matching in all.
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
