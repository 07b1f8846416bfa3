package memory

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

// Filings holds EDGAR filings by accession number and their item sections
// by section id.
type Filings struct {
	mu       sync.RWMutex
	byAcc    map[string]filing.Filing
	sections map[string]stampedSection
	// seq counts the UpsertSections calls; each stamps its sections.
	seq int64
}

// stampedSection is a section with the sequence number of its last write.
type stampedSection struct {
	filing.Section
	seq int64
}

var (
	_ ports.FilingStore  = (*Filings)(nil)
	_ ports.SectionStore = (*Filings)(nil)
)

// NewFilings returns an empty filing and section store.
func NewFilings() *Filings {
	return &Filings{byAcc: map[string]filing.Filing{}, sections: map[string]stampedSection{}}
}

// Filing returns the filing with that accession number.
func (s *Filings) Filing(_ context.Context, accession string) (filing.Filing, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f, ok := s.byAcc[accession]
	if !ok {
		return filing.Filing{}, ports.ErrNotFound
	}
	f.Files = slices.Clone(f.Files)
	return f, nil
}

// UpsertFilings inserts or replaces filings by accession number and their
// sections by id, under one lock, so a reader sees the batch whole; a
// caller that gave up before the lock was taken writes nothing.
func (s *Filings) UpsertFilings(ctx context.Context, fs []filing.Filing, secs []filing.Section) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memory: upsert filings: %w: %w", ports.ErrUnavailable, err)
	}
	for _, f := range fs {
		f.Files = slices.Clone(f.Files)
		s.byAcc[f.Accession] = f
	}
	s.putSections(secs)
	return nil
}

// CountFilings returns how many filings are held.
func (s *Filings) CountFilings(context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(len(s.byAcc)), nil
}

// UpsertSections inserts or replaces sections by id, stamping them with
// the write's sequence number.
func (s *Filings) UpsertSections(ctx context.Context, secs []filing.Section) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memory: upsert sections: %w: %w", ports.ErrUnavailable, err)
	}
	s.putSections(secs)
	return nil
}

// putSections stamps secs with the next write's sequence number and holds
// them; the caller holds the lock.
func (s *Filings) putSections(secs []filing.Section) {
	s.seq++
	for _, sec := range secs {
		s.sections[sec.ID] = stampedSection{Section: sec, seq: s.seq}
	}
}

// SectionsSince returns the sections written after mark, ordered by id.
// Writes hold the lock throughout, so none is ever under way here and the
// next mark is the latest write's.
func (s *Filings) SectionsSince(_ context.Context, mark int64) ([]filing.Section, int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []filing.Section{}
	for _, id := range slices.Sorted(maps.Keys(s.sections)) {
		if sec := s.sections[id]; sec.seq > mark {
			out = append(out, sec.Section)
		}
	}
	return out, s.seq, nil
}

// SectionsByID returns the sections held under ids, ordered by id.
func (s *Filings) SectionsByID(_ context.Context, ids []string) ([]filing.Section, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]filing.Section, 0, len(ids))
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if sec, ok := s.sections[id]; ok {
			out = append(out, sec.Section)
		}
	}
	return out, nil
}
