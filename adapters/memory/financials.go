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
}

var _ ports.FinancialsStore = (*Financials)(nil)

// NewFinancials returns an empty store.
func NewFinancials() *Financials {
	return &Financials{byCIK: map[string]financials.Company{}, byTicker: map[string]string{}}
}

// UpsertCompanies replaces each company by CIK and maps its tickers to it.
// Companies are copied in, so a caller's later changes do not leak into the
// store.
func (s *Financials) UpsertCompanies(_ context.Context, companies []financials.Company) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range companies {
		c.Tickers = slices.Clone(c.Tickers)
		c.Facts = slices.Clone(c.Facts)
		s.byCIK[c.CIK] = c
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
