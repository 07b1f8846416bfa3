package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
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

// HoldsFilings reports whether any filing is held.
func (s *Filings) HoldsFilings(context.Context) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.byAcc) > 0, nil
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

// SectionsSince reads the sections written after mark a page at a time,
// in the order of their writes, then ids. Writes hold the lock throughout,
// so none is ever under way when the order is taken, and the pages end at
// the latest write; each page is read under the lock in turn, so writers
// are not held up while the caller indexes a page.
func (s *Filings) SectionsSince(_ context.Context, mark ports.SectionMark, limit int, page func([]filing.Section, ports.SectionMark) error) (ports.SectionMark, error) {
	order, last := s.writtenAfter(mark)
	end := mark
	if last >= mark.Write {
		end = ports.SectionMark{Write: last}
	}
	at := func(w written) ports.SectionMark { return ports.SectionMark{Write: w.seq, After: w.id} }
	for chunk, next := range ports.SectionPages(order, at, end, limit) {
		if err := page(s.current(chunk), next); err != nil {
			return mark, err
		}
		mark = next
	}
	return end, nil
}

// written is where a section stood in the order of writes.
type written struct {
	id  string
	seq int64
}

// writtenAfter returns the sections written after mark, in the order of
// their writes then ids, and the latest write's number.
func (s *Filings) writtenAfter(mark ports.SectionMark) ([]written, int64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []written
	for id, sec := range s.sections {
		if mark.Precedes(sec.seq, id) {
			out = append(out, written{id: id, seq: sec.seq})
		}
	}
	slices.SortFunc(out, func(a, b written) int {
		return cmp.Or(cmp.Compare(a.seq, b.seq), strings.Compare(a.id, b.id))
	})
	return out, s.seq
}

// current returns the sections of chunk as held now, in its order.
func (s *Filings) current(chunk []written) []filing.Section {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]filing.Section, 0, len(chunk))
	for _, w := range chunk {
		out = append(out, s.sections[w.id].Section)
	}
	return out
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
