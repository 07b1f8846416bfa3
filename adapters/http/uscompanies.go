package http

import (
	"context"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/financials"
)

// companiesVersion names the form of the company directory: EDGAR's
// conformed names, tickers upper-cased, CIKs zero-padded to 10 digits.
const companiesVersion = "companies-v1"

type companiesResponse struct {
	Companies []companyBody `json:"companies"`
	Meta      Meta          `json:"meta"`
}

type companyBody struct {
	CIK     string   `json:"cik"`
	Name    string   `json:"name"`
	Tickers []string `json:"tickers"`
}

// companiesHandler serves GET /us/companies.
func companiesHandler(fin *usfinancials.Service) DataHandler {
	return DataHandler{Method: http.MethodGet, Path: "/us/companies", Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
		limit, err := boundedInt(r, "limit", 100, 1, 1000)
		if err != nil {
			return nil, err
		}
		offset, err := boundedInt(r, "offset", 0, 0, maxOffset)
		if err != nil {
			return nil, err
		}
		v := r.URL.Query()
		q, err := usfinancials.ParseCompanyQuery(usfinancials.CompanyParams{
			Ticker: v.Get("ticker"), Name: v.Get("name"), CIK: v.Get("cik"), Limit: limit, Offset: offset,
		})
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			page, err := fin.Companies(ctx, q)
			if err != nil {
				return Response{}, err
			}
			return JSON(toCompaniesResponse(page, q)), nil
		}, nil
	}}
}

func toCompaniesResponse(p usfinancials.CompanyPage, q usfinancials.CompanyQuery) companiesResponse {
	out := companiesResponse{Companies: make([]companyBody, len(p.Companies))}
	for i, c := range p.Companies {
		out.Companies[i] = toCompanyBody(c)
	}
	retrieved := p.RetrievedAt
	if retrieved.IsZero() {
		retrieved = p.AsOf
	}
	out.Meta = NewMeta("US", q.Limit, q.Offset, len(p.Companies), pageTotal(q.Offset, len(p.Companies), p.More), p.AsOf,
		companiesVersion, Provenance{Source: usfinancials.Source, RetrievedAt: retrieved, Licence: licenceTerms(dataset.USFinancials)})
	return out
}

func toCompanyBody(c financials.Company) companyBody {
	tickers := c.Tickers
	if tickers == nil {
		tickers = []string{}
	}
	return companyBody{CIK: c.CIK, Name: c.Name, Tickers: tickers}
}
