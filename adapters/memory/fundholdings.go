package memory

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// FundHoldings holds the US securities master and 13F filings in memory.
type FundHoldings struct {
	mu      sync.RWMutex
	master  map[string]holdings.Security
	filings map[string]holdings.Filing
	byCUSIP map[string]map[string][]holdings.Holding // cusip -> accession -> rows
	// byFund lists each fund's filings for each period.
	byFund map[fundPeriod]map[string]bool
}

// fundPeriod names one fund's reports for one quarter.
type fundPeriod struct{ fund, period string }

var _ ports.FundHoldingStore = (*FundHoldings)(nil)

// NewFundHoldings returns an empty store.
func NewFundHoldings() *FundHoldings {
	return &FundHoldings{
		master:  map[string]holdings.Security{},
		filings: map[string]holdings.Filing{},
		byCUSIP: map[string]map[string][]holdings.Holding{},
		byFund:  map[fundPeriod]map[string]bool{},
	}
}

// UpsertMasterSecurities stores each security under its three keys.
func (s *FundHoldings) UpsertMasterSecurities(_ context.Context, secs []holdings.Security) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sec := range secs {
		for _, k := range sec.Keys() {
			s.master[k.String()] = sec
		}
	}
	return nil
}

// MasterSecurity returns the security stored under key.
func (s *FundHoldings) MasterSecurity(_ context.Context, key holdings.Key) (holdings.Security, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sec, ok := s.master[key.String()]
	if !ok {
		return holdings.Security{}, ports.ErrNotFound
	}
	return sec, nil
}

// ReplaceThirteenFFilings stores each filing whole, dropping its earlier
// rows, under one lock, so a reader sees the batch whole; a caller that
// gave up before the lock was taken writes nothing.
func (s *FundHoldings) ReplaceThirteenFFilings(ctx context.Context, filings []holdings.Filing) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memory: replace 13F filings: %w: %w", ports.ErrUnavailable, err)
	}
	for _, f := range filings {
		if old, ok := s.filings[f.Accession]; ok {
			for _, c := range old.CUSIPs() {
				delete(s.byCUSIP[c], f.Accession)
			}
			delete(s.byFund[fundPeriod{old.FundCIK, old.ReportPeriod}], f.Accession)
		}
		f.Holdings = slices.Clone(f.Holdings)
		s.filings[f.Accession] = f
		k := fundPeriod{f.FundCIK, f.ReportPeriod}
		if s.byFund[k] == nil {
			s.byFund[k] = map[string]bool{}
		}
		s.byFund[k][f.Accession] = true
		for _, h := range f.Holdings {
			if s.byCUSIP[h.CUSIP] == nil {
				s.byCUSIP[h.CUSIP] = map[string][]holdings.Holding{}
			}
			s.byCUSIP[h.CUSIP][f.Accession] = append(s.byCUSIP[h.CUSIP][f.Accession], h)
		}
	}
	return nil
}

// FundHolders selects a page from the CUSIP's rows within the query's
// report-period bounds and every report of the funds and periods they
// belong to.
func (s *FundHoldings) FundHolders(_ context.Context, cusip string, q holdings.Query) ([]holdings.Holding, int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var rows []holdings.Holding
	held := map[fundPeriod]bool{}
	for _, filed := range s.byCUSIP[cusip] {
		for _, h := range filed {
			if (q.From == "" || h.ReportPeriod >= q.From) && (q.To == "" || h.ReportPeriod <= q.To) {
				rows = append(rows, h)
				held[fundPeriod{h.FundCIK, h.ReportPeriod}] = true
			}
		}
	}
	var reports []holdings.Report
	for k := range held {
		for acc := range s.byFund[k] {
			reports = append(reports, s.filings[acc].Report())
		}
	}
	page, total := holdings.Select(rows, reports, q)
	return page, total, nil
}

// ThirteenFFilingCUSIPs returns the CUSIPs the filing reports.
func (s *FundHoldings) ThirteenFFilingCUSIPs(_ context.Context, accession string) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f, ok := s.filings[accession]
	if !ok {
		return nil, ports.ErrNotFound
	}
	return f.CUSIPs(), nil
}

// HoldsThirteenFFilings reports whether any filing is held.
func (s *FundHoldings) HoldsThirteenFFilings(context.Context) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.filings) > 0, nil
}
