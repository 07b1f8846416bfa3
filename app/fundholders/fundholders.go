package fundholders

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// FundHolders serves the funds-holding-a-security lookup.
type Service struct {
	store ports.FundHoldingStore
}

// NewFundHolders wires the lookup.
func New(s ports.FundHoldingStore) *Service { return &Service{store: s} }

// FundHoldersParams are the raw query parameters of the lookup; a nil
// pointer is a parameter that was not sent.
type Params struct {
	Identifier, Accession, StartDate, EndDate, AsOf *string
	Limit, Offset                                   int
}

// FundHoldersRequest is a validated lookup.
type Request struct {
	// Keys are the master keys to try for the identifier; empty when only
	// an accession number was given.
	Keys  []holdings.Key
	Query holdings.Query
}

// ParseFundHoldersRequest validates the parameters: a malformed value is
// ErrValidation (422), an invalid combination ErrInvalidRequest (400).
func ParseRequest(p Params, now time.Time) (Request, error) {
	var req Request
	var err error
	if p.Identifier != nil {
		if req.Keys, err = holdings.ParseIdentifier(*p.Identifier); err != nil {
			return req, fmt.Errorf("%w: %w", usecase.ErrValidation, err)
		}
	}
	if p.Accession != nil {
		if req.Query.Accession, err = edgar.ParseAccession(*p.Accession); err != nil {
			return req, fmt.Errorf("%w: accession_number: %w", usecase.ErrValidation, err)
		}
	}
	from, hasFrom, err := usecase.ParseDate("start_date", deref(p.StartDate))
	if err != nil {
		return req, err
	}
	to, hasTo, err := usecase.ParseDate("end_date", deref(p.EndDate))
	if err != nil {
		return req, err
	}
	if req.Query.AsOf, err = usecase.ParseAsOf(deref(p.AsOf), now); err != nil {
		return req, err
	}
	if p.Identifier == nil && p.Accession == nil {
		return req, fmt.Errorf("%w: give identifier (a ticker, CUSIP or CIK), accession_number (a 13F filing), or both", usecase.ErrInvalidRequest)
	}
	if hasFrom && hasTo && from.After(to) {
		return req, fmt.Errorf("%w: start_date %s is after end_date %s", usecase.ErrInvalidRequest, *p.StartDate, *p.EndDate)
	}
	if hasFrom {
		req.Query.From = from.Format(time.DateOnly)
	}
	if hasTo {
		req.Query.To = to.Format(time.DateOnly)
	}
	req.Query.Limit, req.Query.Offset = p.Limit, p.Offset
	return req, nil
}

// An absent date and an empty one are both "not given"; ParseDate treats
// the empty string that way.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// FundHoldersPage is one page of the holders of a resolved security.
type Page struct {
	Security holdings.Security
	Holders  []holdings.Holding
	Total    int
}

// Holders resolves the security and returns one page of its holders.
func (f *Service) Holders(ctx context.Context, req Request) (Page, error) {
	sec, err := f.resolve(ctx, req)
	if err != nil {
		return Page{}, err
	}
	page, total, err := f.store.FundHolders(ctx, sec.CUSIP, req.Query)
	if err != nil {
		return Page{}, err
	}
	return Page{Security: sec, Holders: page, Total: total}, nil
}

// resolve finds the security: by identifier when given, checking that a
// given filing exists, or else from the one security the filing reports.
func (f *Service) resolve(ctx context.Context, req Request) (holdings.Security, error) {
	var cusips []string
	if acc := req.Query.Accession; acc != "" {
		var err error
		cusips, err = f.store.ThirteenFFilingCUSIPs(ctx, acc)
		if errors.Is(err, ports.ErrNotFound) {
			return holdings.Security{}, fmt.Errorf("%w: no 13F filing has accession number %s", ports.ErrNotFound, acc)
		}
		if err != nil {
			return holdings.Security{}, err
		}
	}
	if len(req.Keys) > 0 {
		return f.lookup(ctx, req.Keys)
	}
	if len(cusips) != 1 {
		return holdings.Security{}, fmt.Errorf("%w: 13F filing %s reports %d securities; give identifier to name one", usecase.ErrInvalidRequest, req.Query.Accession, len(cusips))
	}
	return f.lookup(ctx, []holdings.Key{{Kind: holdings.KeyCUSIP, Value: cusips[0]}})
}

// Security returns the security of the master the first of keys names
// (holdings.ParseIdentifier gives them), or ports.ErrNotFound.
func (f *Service) Security(ctx context.Context, keys []holdings.Key) (holdings.Security, error) {
	return f.lookup(ctx, keys)
}

// lookup tries the keys in order and returns the first security found.
func (f *Service) lookup(ctx context.Context, keys []holdings.Key) (holdings.Security, error) {
	tried := make([]string, len(keys))
	for i, k := range keys {
		sec, err := f.store.MasterSecurity(ctx, k)
		if err == nil {
			return sec, nil
		}
		if !errors.Is(err, ports.ErrNotFound) {
			return holdings.Security{}, err
		}
		tried[i] = k.Kind + " " + k.Value
	}
	return holdings.Security{}, fmt.Errorf("%w: no security in the master with %s", ports.ErrNotFound, strings.Join(tried, " or "))
}

// Probe reports whether any 13F filing is held.
func (f *Service) Probe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.USFundHolders, Probe: func(ctx context.Context) (bool, error) {
		return f.store.HoldsThirteenFFilings(ctx)
	}}
}
