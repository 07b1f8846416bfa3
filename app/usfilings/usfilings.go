package usfilings

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

// SectionsVersion names the way primary documents are split into item
// sections; it is the normalization_version of search results.
const SectionsVersion = "sections-v1"

// FilingIndexVersion is the normalization_version of filing indexes.
const FilingIndexVersion = "filing-index-v1"

// Filings serves the US filing indexes and the full-text search of their
// item sections. Sections are held by the section store; the search index
// is derived from it and rebuilt at start.
type Service struct {
	filings  ports.FilingStore
	sections ports.SectionStore
	index    ports.SectionIndex
	mu       sync.RWMutex
	// refreshing serialises Refresh.
	refreshing sync.Mutex
	// retrieved is the latest retrieval time of the indexed sections.
	retrieved time.Time
	// resumed says whether the index's checkpoint was read: the first
	// Refresh resumes from it.
	resumed bool
	// held says whether the index held a checkpoint when it was resumed.
	held bool
	// built says whether the index has held every section up to its mark
	// since it was first built: until then, the checkpoint saved after a
	// page says the index is partial, and a start that resumes from it
	// completes the build before it serves.
	built bool
	// mark is where the section store's changes were last read to: every
	// section written before it is indexed.
	mark ports.SectionMark
}

// NewFilings wires the US filing use cases.
func New(f ports.FilingStore, s ports.SectionStore, idx ports.SectionIndex) *Service {
	return &Service{filings: f, sections: s, index: idx}
}

// ParseFilingAccession validates a requested accession number (422 when malformed).
func ParseAccession(raw string) (string, error) {
	acc, err := edgar.ParseAccession(raw)
	if err != nil {
		return "", fmt.Errorf("%w: %w", usecase.ErrValidation, err)
	}
	return acc, nil
}

// Filing returns the filing with its file index, or ports.ErrNotFound.
func (f *Service) Filing(ctx context.Context, accession string) (filing.Filing, error) {
	got, err := f.filings.Filing(ctx, accession)
	if errors.Is(err, ports.ErrNotFound) {
		return filing.Filing{}, fmt.Errorf("%w: no filing has accession number %s", ports.ErrNotFound, accession)
	}
	return got, err
}

// Store writes filings and their sections as one batch, then indexes the
// sections, so a section is never searchable before its filing is held.
func (f *Service) Store(ctx context.Context, fs []filing.Filing, secs []filing.Section) error {
	if err := f.filings.UpsertFilings(ctx, fs, secs); err != nil {
		return err
	}
	return f.indexSections(ctx, secs)
}

// Refresh indexes the sections written to the store since it last looked,
// in this process or another sharing the store (quarry ingest), and says
// how many it indexed. The first call indexes every stored section; later
// ones only what changed, so the index follows ingestion without being
// rebuilt. It reads a page of sections at a time and saves the mark
// reached with the index after each page, so memory holds one page and a
// first start cut short resumes where it stopped. An index kept on disk
// resumes from the mark saved with it. Calls are serialised, so marks only
// move forward.
func (f *Service) Refresh(ctx context.Context) (int, error) {
	f.refreshing.Lock()
	defer f.refreshing.Unlock()
	if err := f.resume(ctx); err != nil {
		return 0, err
	}
	f.mu.RLock()
	mark := f.mark
	f.mu.RUnlock()
	n := 0
	end, err := f.sections.SectionsSince(ctx, mark, RefreshPage, func(secs []filing.Section, next ports.SectionMark) error {
		if err := f.indexSections(ctx, secs); err != nil {
			return err
		}
		n += len(secs)
		return f.advance(ctx, next)
	})
	if err != nil {
		return n, err
	}
	f.mu.Lock()
	f.mark = end
	first := !f.built && n > 0
	f.built = true
	f.mu.Unlock()
	if first {
		return n, f.advance(ctx, end)
	}
	return n, nil
}

// RefreshPage is how many sections Refresh reads and indexes at a time:
// 10-K sections average a few KiB of text, and the index batches a page
// further by its size.
const RefreshPage = 1000

// advance moves the mark to next, every section before it indexed, and
// saves it with the index.
func (f *Service) advance(ctx context.Context, next ports.SectionMark) error {
	f.mu.Lock()
	f.mark = next
	cp := sectionCheckpoint{Mark: next.Write, After: next.After, Retrieved: f.retrieved, Partial: !f.built}
	f.mu.Unlock()
	return usecase.SaveCheckpoint(ctx, f.index, cp)
}

// Indexed says how many sections the search index holds: what start-up
// reports, since Refresh counts only what it added (none, when Store or an
// index kept on disk already holds every section).
func (f *Service) Indexed(ctx context.Context) (int64, error) { return f.index.Count(ctx) }

// sectionCheckpoint is what the section index keeps of Filings: the mark
// it has read the store to (ports.SectionMark) and the newest retrieval
// time it holds.
type sectionCheckpoint struct {
	Mark      int64     `json:"mark"`
	After     string    `json:"after,omitempty"`
	Retrieved time.Time `json:"retrieved"`
	// Partial says the index's first build stopped at the mark.
	Partial bool `json:"partial,omitempty"`
}

// Resume reads the checkpoint kept with the index, once, and says whether
// there was one of a whole build: an index kept on disk is resumed, not
// rebuilt, and catching up with what the store took since may be left to
// the next Refresh instead of holding up the first request. An index whose
// first build was cut short is not held: Refresh builds on from its mark,
// and must complete before search answers from it.
func (f *Service) Resume(ctx context.Context) (bool, error) {
	f.refreshing.Lock()
	defer f.refreshing.Unlock()
	if err := f.resume(ctx); err != nil {
		return false, err
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.held, nil
}

// Forget drops what Refresh knew of the index's checkpoint, so that the
// next Refresh (or Resume) reads it again and goes on from there: an index
// other processes write too (the one every node shares in PostgreSQL) may
// have moved on since this process last looked.
func (f *Service) Forget() {
	f.refreshing.Lock()
	defer f.refreshing.Unlock()
	f.resumed = false
}

// resume reads the index's checkpoint once, before the first Refresh.
func (f *Service) resume(ctx context.Context) error {
	if f.resumed {
		return nil
	}
	var cp sectionCheckpoint
	found, err := usecase.ReadCheckpoint(ctx, f.index, &cp)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resumed, f.held = true, found && !cp.Partial
	f.built = f.held
	if found {
		f.mark = ports.SectionMark{Write: cp.Mark, After: cp.After}
		if cp.Retrieved.After(f.retrieved) {
			f.retrieved = cp.Retrieved
		}
	}
	return nil
}

func (f *Service) indexSections(ctx context.Context, secs []filing.Section) error {
	if err := f.index.Index(ctx, secs); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range secs {
		if s.RetrievedAt.After(f.retrieved) {
			f.retrieved = s.RetrievedAt
		}
	}
	return nil
}

// RetrievedAt is when the newest indexed section was retrieved.
func (f *Service) RetrievedAt() time.Time {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.retrieved
}

// SearchRequest is a US filing-text search as the client sent it.
type SearchRequest struct {
	Query      string
	Ticker     string
	CIK        string
	FilingType string
	ItemNumber string
	FiledFrom  string
	FiledTo    string
	Limit      *int
	Offset     *int
}

// ParseUSSearch validates a search request: a malformed value is
// ErrValidation (422), filed_from after filed_to is ErrInvalidRequest (400).
func ParseSearch(r SearchRequest) (ports.SectionQuery, error) {
	q := ports.SectionQuery{Text: r.Query, Limit: 10}
	if n := utf8.RuneCountInString(r.Query); strings.TrimSpace(r.Query) == "" || n > usecase.MaxQueryChars {
		return q, fmt.Errorf("%w: query must hold 1 to %d characters, not only spaces", usecase.ErrValidation, usecase.MaxQueryChars)
	}
	var err error
	if r.Ticker != "" {
		if q.Ticker, err = edgar.ParseTicker(r.Ticker); err != nil {
			return q, fmt.Errorf("%w: ticker: %w", usecase.ErrValidation, err)
		}
	}
	if r.CIK != "" {
		if q.CIK, err = edgar.ParseCIK(r.CIK); err != nil {
			return q, fmt.Errorf("%w: cik: %w", usecase.ErrValidation, err)
		}
	}
	q.Form = strings.ToUpper(strings.TrimSpace(r.FilingType))
	if r.ItemNumber != "" {
		q.ItemNumber = strings.ToUpper(r.ItemNumber)
		if _, ok := filing.ItemName(q.ItemNumber); !ok {
			return q, fmt.Errorf("%w: item_number %q is not a Form 10-K item (1, 1A, 1B, 1C, 2 ... 16)", usecase.ErrValidation, r.ItemNumber)
		}
	}
	if err := parseFiledRange(r, &q); err != nil {
		return q, err
	}
	return q, usecase.ParsePage(r.Limit, r.Offset, &q)
}

func parseFiledRange(r SearchRequest, q *ports.SectionQuery) error {
	from, _, err := usecase.ParseDate("filed_from", r.FiledFrom)
	if err != nil {
		return err
	}
	to, _, err := usecase.ParseDate("filed_to", r.FiledTo)
	if err != nil {
		return err
	}
	if !from.IsZero() && !to.IsZero() && from.After(to) {
		return fmt.Errorf("%w: filed_from %s is after filed_to %s", usecase.ErrInvalidRequest, r.FiledFrom, r.FiledTo)
	}
	q.FiledFrom, q.FiledTo = from, to
	return nil
}

// Search runs a validated query and returns one page of hits and the total.
// The index keeps no text, so the page's sections are read from the section
// store and the passages' byte ranges turned into code points there.
func (f *Service) Search(ctx context.Context, q ports.SectionQuery) ([]ports.SectionHit, int, error) {
	return usecase.Hits(ctx, q, f.index.Search, f.sections.SectionsByID,
		func(s filing.Section) (string, string) { return s.ID, s.Text },
		func(s filing.Section, p usecase.Passage) ports.SectionHit {
			return ports.SectionHit{Section: s, Score: p.Score, Start: p.Start, End: p.End}
		})
}

// IndexProbe reports the filing index dataset available once a filing is held.
func (f *Service) IndexProbe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.USFilingIndexes, Probe: func(ctx context.Context) (bool, error) {
		return f.filings.HoldsFilings(ctx)
	}}
}

// SearchProbe reports search available once a section is indexed.
func (f *Service) SearchProbe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.USSearch, Probe: func(ctx context.Context) (bool, error) {
		n, err := f.index.Count(ctx)
		return n > 0, err
	}}
}

var _ ports.SectionRetriever = (*Service)(nil)

// Retrieve returns the sections of filings filed on or before the date of
// q.AsOf that best match q.Text, through the section index.
func (f *Service) Retrieve(ctx context.Context, q ports.RetrievalQuery) ([]ports.SectionHit, error) {
	y, m, d := q.AsOf.UTC().Date()
	hits, _, err := f.Search(ctx, ports.SectionQuery{Text: q.Text, FiledTo: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), Limit: q.Limit})
	return hits, err
}
