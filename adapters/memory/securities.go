package memory

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// Securities holds China A-share listings by canonical code.
type Securities struct {
	mu     sync.RWMutex
	byCode map[string]ashare.Security
}

var _ ports.SecurityStore = (*Securities)(nil)

// NewSecurities returns an empty listing store.
func NewSecurities() *Securities {
	return &Securities{byCode: map[string]ashare.Security{}}
}

// Security returns the listing with that code.
func (s *Securities) Security(_ context.Context, code string) (ashare.Security, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sec, ok := s.byCode[code]
	if !ok {
		return ashare.Security{}, ports.ErrNotFound
	}
	return sec, nil
}

// UpsertSecurities inserts or replaces listings by code.
func (s *Securities) UpsertSecurities(_ context.Context, secs []ashare.Security) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sec := range secs {
		s.byCode[sec.Code] = sec
	}
	return nil
}

// SecuritiesByName returns the listings named name, by code. It scans
// every listing: a few thousand comparisons, asked once per Ask question.
func (s *Securities) SecuritiesByName(_ context.Context, name string) ([]ashare.Security, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ashare.Security
	for _, sec := range s.byCode {
		if sec.CompanyName == name {
			out = append(out, sec)
		}
	}
	slices.SortFunc(out, func(a, b ashare.Security) int { return cmp.Compare(a.Code, b.Code) })
	return out, nil
}

// SearchSecurities returns one page of the listings q matches, by code,
// scanning every listing.
func (s *Securities) SearchSecurities(_ context.Context, q ashare.Search, offset, limit int) ([]ashare.Security, bool, error) {
	s.mu.RLock()
	var out []ashare.Security
	for _, sec := range s.byCode {
		if q.Matches(sec) {
			out = append(out, sec)
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b ashare.Security) int { return cmp.Compare(a.Code, b.Code) })
	page, more := q.Page(out, offset, limit)
	return page, more, nil
}

// CountSecurities returns how many listings are held.
func (s *Securities) CountSecurities(context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(len(s.byCode)), nil
}
