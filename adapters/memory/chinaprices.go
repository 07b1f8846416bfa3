package memory

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// ChinaPrices holds A-share bar versions and steps by code.
type ChinaPrices struct {
	mu     sync.RWMutex
	series map[string]*priceSeries
}

// priceSeries is one listing's history: versions ordered by trade date,
// then KnownAt.
type priceSeries struct {
	versions []ashare.Bar
	steps    []ashare.Step
}

var _ ports.ChinaPriceStore = (*ChinaPrices)(nil)

// NewChinaPrices returns an empty store.
func NewChinaPrices() *ChinaPrices { return &ChinaPrices{series: map[string]*priceSeries{}} }

func compareVersion(a, b ashare.Bar) int {
	if c := strings.Compare(a.TradeDate, b.TradeDate); c != 0 {
		return c
	}
	return a.KnownAt.Compare(b.KnownAt)
}

// UpdateSeries runs change under the store's lock, so updates never
// interleave.
func (s *ChinaPrices) UpdateSeries(_ context.Context, code string, change func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.series[code]
	var held []ashare.Bar
	if cur != nil {
		held = slices.Clone(cur.versions)
	}
	add, steps, err := change(held)
	if err != nil {
		return err
	}
	if len(add) == 0 && cur == nil {
		return nil
	}
	next := &priceSeries{versions: held, steps: slices.Clone(steps)}
	for _, b := range add {
		b.KnownAt = b.KnownAt.Truncate(time.Millisecond).UTC()
		i, found := slices.BinarySearchFunc(next.versions, b, compareVersion)
		if found {
			next.versions[i] = b
		} else {
			next.versions = slices.Insert(next.versions, i, b)
		}
	}
	s.series[code] = next
	return nil
}

// Versions returns a copy of every version held for code.
func (s *ChinaPrices) Versions(_ context.Context, code string) ([]ashare.Bar, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur := s.series[code]; cur != nil {
		return slices.Clone(cur.versions), nil
	}
	return nil, nil
}

// Bars returns one page of the versions visible at q.AsOf.
func (s *ChinaPrices) Bars(_ context.Context, q ports.BarQuery) ([]ashare.Bar, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	cur := s.series[q.Code]
	if cur == nil {
		return nil, false, nil
	}
	page, more := ashare.Page(ashare.Visible(cur.versions, q.From, q.To, q.AsOf), q.Offset, q.Limit)
	return page, more, nil
}

// Steps returns the code's steps.
func (s *ChinaPrices) Steps(_ context.Context, code string) ([]ashare.Step, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	cur := s.series[code]
	if cur == nil {
		return nil, ports.ErrNotFound
	}
	return slices.Clone(cur.steps), nil
}

// CountSeries returns how many listings have bars.
func (s *ChinaPrices) CountSeries(context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(len(s.series)), nil
}
