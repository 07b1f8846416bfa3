package memory

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// Financials holds US filers by CIK and their tickers.
type Financials struct {
	mu       sync.RWMutex
	byCIK    map[string]financials.Company
	byTicker map[string]string
	// histories holds each company's financials.HistoryOf, computed as it
	// is written, and latest each history's Latest.
	histories map[string][]financials.History
	latest    map[string][]financials.Latest
}

var _ ports.FinancialsStore = (*Financials)(nil)

// NewFinancials returns an empty store.
func NewFinancials() *Financials {
	return &Financials{byCIK: map[string]financials.Company{}, byTicker: map[string]string{}, histories: map[string][]financials.History{}, latest: map[string][]financials.Latest{}}
}

// UpsertCompanies replaces each company by CIK and maps its tickers to it.
// Companies are copied in, so a caller's later changes do not leak into the
// store.
func (s *Financials) UpsertCompanies(_ context.Context, companies []financials.Company) error {
	histories := make([][]financials.History, len(companies))
	latest := make([][]financials.Latest, len(companies))
	for i, c := range companies {
		histories[i] = financials.HistoryOf(c)
		for _, h := range histories[i] {
			latest[i] = append(latest[i], h.Latest())
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range companies {
		c.Tickers = slices.Clone(c.Tickers)
		c.Facts = slices.Clone(c.Facts)
		s.byCIK[c.CIK] = c
		s.histories[c.CIK], s.latest[c.CIK] = histories[i], latest[i]
		for _, t := range c.Tickers {
			s.byTicker[t] = c.CIK
		}
	}
	return nil
}

// Company returns a copy of the company with that CIK.
func (s *Financials) Company(_ context.Context, cik string) (financials.Company, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.byCIK[cik]
	if !ok {
		return financials.Company{}, ports.ErrNotFound
	}
	c.Tickers = slices.Clone(c.Tickers)
	c.Facts = slices.Clone(c.Facts)
	return c, nil
}

// LatestStatement returns the statement computed when the company was
// written. Its rows are shared with the store: callers must not modify them.
func (s *Financials) LatestStatement(_ context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.Latest, error) {
	return computed(s, cik, s.latest, func(l financials.Latest) bool { return l.Statement == st && l.Period == p },
		func(c financials.Company) financials.Latest { return financials.LatestStatement(c, st, p) })
}

// StatementHistory returns the history computed when the company was
// written. Its rows are shared with the store: callers must not modify
// them.
func (s *Financials) StatementHistory(_ context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.History, error) {
	return computed(s, cik, s.histories, func(h financials.History) bool { return h.Statement == st && h.Period == p },
		func(c financials.Company) financials.History { return financials.HistoryStatement(c, st, p) })
}

// computed returns the company with that CIK without its facts, and the
// one of what was computed for it when it was written that is the one
// asked for; for a statement or period kind none was computed for, what
// compute gives from its facts.
func computed[T any](s *Financials, cik string, held map[string][]T, asked func(T) bool, compute func(financials.Company) T) (financials.Company, T, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var none T
	c, ok := s.byCIK[cik]
	if !ok {
		return financials.Company{}, none, ports.ErrNotFound
	}
	out := c
	out.Tickers, out.Facts = slices.Clone(c.Tickers), nil
	for _, v := range held[cik] {
		if asked(v) {
			return out, v, nil
		}
	}
	return out, compute(c), nil
}

// CIKForTicker returns the CIK the ticker names.
func (s *Financials) CIKForTicker(_ context.Context, ticker string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	cik, ok := s.byTicker[ticker]
	if !ok {
		return "", ports.ErrNotFound
	}
	return cik, nil
}

// CIKsForName returns the CIKs of the companies the name names.
func (s *Financials) CIKsForName(_ context.Context, name string) ([]string, error) {
	asked := financials.NameKey(name)
	s.mu.RLock()
	defer s.mu.RUnlock()
	ciks := []string{}
	for cik, c := range s.byCIK {
		if financials.NameMatches(financials.NameKey(c.Name), asked) {
			ciks = append(ciks, cik)
		}
	}
	slices.Sort(ciks)
	return ciks, nil
}

// SearchCompanies returns one page of the companies q matches, by CIK,
// without their facts, scanning every company.
func (s *Financials) SearchCompanies(_ context.Context, q financials.CompanySearch, offset, limit int) ([]financials.Company, bool, error) {
	s.mu.RLock()
	var out []financials.Company
	for _, c := range s.byCIK {
		if q.Matches(c) {
			c.Tickers, c.Facts = slices.Clone(c.Tickers), nil
			out = append(out, c)
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b financials.Company) int { return strings.Compare(a.CIK, b.CIK) })
	page, more := pageOf(out, offset, limit)
	return page, more, nil
}

// pageOf returns the items of all from offset on, at most limit of them,
// and whether more follow.
func pageOf[T any](all []T, offset, limit int) ([]T, bool) {
	if offset >= len(all) {
		return []T{}, false
	}
	end := min(len(all), offset+limit)
	return slices.Clip(all[offset:end]), end < len(all)
}

// CountCompanies returns how many companies are held.
func (s *Financials) CountCompanies(context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(len(s.byCIK)), nil
}
