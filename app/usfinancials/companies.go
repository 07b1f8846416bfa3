package usfinancials

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/financials"
)

// CompanyParams are the raw query parameters of GET /us/companies; an
// empty one is not given.
type CompanyParams struct {
	Ticker, Name, CIK string
	Limit, Offset     int
}

// CompanyQuery is a validated search of the companies and its page.
type CompanyQuery struct {
	Search        financials.CompanySearch
	Limit, Offset int
}

// CompanyPage is one page of a search's companies, by CIK, without their
// facts, and whether more match after it.
type CompanyPage struct {
	Companies []financials.Company
	More      bool
	// AsOf is when the search was answered; RetrievedAt the latest
	// retrieval of the companies on the page (zero for an empty page).
	AsOf, RetrievedAt time.Time
}

// maxCompanyName bounds a searched name, in characters: EDGAR's longest
// conformed names are under 150.
const maxCompanyName = 150

// ParseCompanyQuery validates the parameters; a malformed value is
// ErrValidation.
func ParseCompanyQuery(p CompanyParams) (CompanyQuery, error) {
	q := CompanyQuery{Limit: p.Limit, Offset: p.Offset}
	if p.Ticker != "" {
		t, err := edgar.ParseTicker(p.Ticker)
		if err != nil {
			return q, fmt.Errorf("%w: %w; a ticker prefix is letters, digits, '.' and '-', at most 10", usecase.ErrValidation, err)
		}
		q.Search.Ticker = t
	}
	if p.Name != "" {
		if utf8.RuneCountInString(p.Name) > maxCompanyName {
			return q, fmt.Errorf("%w: name is longer than %d characters", usecase.ErrValidation, maxCompanyName)
		}
		if q.Search.Name = financials.NameKey(p.Name); q.Search.Name == "" {
			return q, fmt.Errorf("%w: name %q holds no letter or digit", usecase.ErrValidation, p.Name)
		}
	}
	if p.CIK != "" {
		if len(p.CIK) > 10 || strings.Trim(p.CIK, "0123456789") != "" {
			return q, fmt.Errorf("%w: cik %q is not 1 to 10 digits (a prefix of the CIK, with or without its leading zeros)", usecase.ErrValidation, p.CIK)
		}
		q.Search.CIK = p.CIK
	}
	return q, nil
}

// Companies returns one page of the companies q matches, by CIK.
func (f *Service) Companies(ctx context.Context, q CompanyQuery) (CompanyPage, error) {
	companies, more, err := f.store.SearchCompanies(ctx, q.Search, q.Offset, q.Limit)
	if err != nil {
		return CompanyPage{}, err
	}
	page := CompanyPage{Companies: companies, More: more, AsOf: f.now()}
	for _, c := range companies {
		if c.RetrievedAt.After(page.RetrievedAt) {
			page.RetrievedAt = c.RetrievedAt
		}
	}
	return page, nil
}
