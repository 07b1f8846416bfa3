package memory

import (
	"context"
	"slices"
	"sync"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// Financials holds US filers by CIK and their tickers.
type Financials struct {
	mu       sync.RWMutex
	byCIK    map[string]financials.Company
	byTicker map[string]string
	// latest holds each company's financials.LatestOf, computed as it is
	// written.
	latest map[string][]financials.Latest
}

var _ ports.FinancialsStore = (*Financials)(nil)

// NewFinancials returns an empty store.
func NewFinancials() *Financials {
	return &Financials{byCIK: map[string]financials.Company{}, byTicker: map[string]string{}, latest: map[string][]financials.Latest{}}
}

// UpsertCompanies replaces each company by CIK and maps its tickers to it.
// Companies are copied in, so a caller's later changes do not leak into the
// store.
func (s *Financials) UpsertCompanies(_ context.Context, companies []financials.Company) error {
	latest := make([][]financials.Latest, len(companies))
	for i, c := range companies {
		latest[i] = financials.LatestOf(c)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range companies {
		c.Tickers = slices.Clone(c.Tickers)
		c.Facts = slices.Clone(c.Facts)
		s.byCIK[c.CIK] = c
		s.latest[c.CIK] = latest[i]
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
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.byCIK[cik]
	if !ok {
		return financials.Company{}, financials.Latest{}, ports.ErrNotFound
	}
	c.Tickers, c.Facts = slices.Clone(c.Tickers), nil
	for _, l := range s.latest[cik] {
		if l.Statement == st && l.Period == p {
			return c, l, nil
		}
	}
	return c, financials.LatestStatement(s.byCIK[cik], st, p), nil
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

// CountCompanies returns how many companies are held.
func (s *Financials) CountCompanies(context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(len(s.byCIK)), nil
}
