package memory

import (
	"context"
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
	sections map[string]filing.Section
	version  int64
}

var (
	_ ports.FilingStore  = (*Filings)(nil)
	_ ports.SectionStore = (*Filings)(nil)
)

// NewFilings returns an empty filing and section store.
func NewFilings() *Filings {
	return &Filings{byAcc: map[string]filing.Filing{}, sections: map[string]filing.Section{}}
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

// UpsertFilings inserts or replaces filings by accession number.
func (s *Filings) UpsertFilings(_ context.Context, fs []filing.Filing) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range fs {
		f.Files = slices.Clone(f.Files)
		s.byAcc[f.Accession] = f
	}
	return nil
}

// CountFilings returns how many filings are held.
func (s *Filings) CountFilings(context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(len(s.byAcc)), nil
}

// UpsertSections inserts or replaces sections by id.
func (s *Filings) UpsertSections(_ context.Context, secs []filing.Section) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sec := range secs {
		s.sections[sec.ID] = sec
	}
	s.version++
	return nil
}

// Sections returns every section, ordered by id.
func (s *Filings) Sections(context.Context) ([]filing.Section, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]filing.Section, 0, len(s.sections))
	for _, id := range slices.Sorted(maps.Keys(s.sections)) {
		out = append(out, s.sections[id])
	}
	return out, nil
}

// SectionsByID returns the sections held under ids, ordered by id.
func (s *Filings) SectionsByID(_ context.Context, ids []string) ([]filing.Section, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]filing.Section, 0, len(ids))
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if sec, ok := s.sections[id]; ok {
			out = append(out, sec)
		}
	}
	return out, nil
}

// SectionsVersion returns how many UpsertSections calls have completed.
func (s *Filings) SectionsVersion(context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.version, nil
}
