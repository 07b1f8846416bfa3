package http

import (
	"context"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/dataset"
)

type securityResponse struct {
	Security securityBody `json:"security"`
}

type securityBody struct {
	Code          string  `json:"code"`
	Exchange      string  `json:"exchange"`
	Board         string  `json:"board"`
	CompanyName   string  `json:"company_name"`
	EnglishName   string  `json:"english_name,omitempty"`
	ListingDate   string  `json:"listing_date"`
	DelistingDate *string `json:"delisting_date"`
	Listed        bool    `json:"listed"`
}

// ChinaHandlers returns the handlers of the China A-share listings: one
// by code, and the search.
func ChinaHandlers(china *chinasecurities.Service, now usecase.Clock) []DataHandler {
	return []DataHandler{securitiesHandler(china, now), {
		Method: http.MethodGet, Path: "/china/securities/{code}",
		Prepare: func(_ *http.Request, p httprouter.Params) (Serve, error) {
			code, err := chinasecurities.ParseCode(p.ByName("code"))
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (Response, error) {
				sec, err := china.Security(ctx, code)
				if err != nil {
					return Response{}, err
				}
				return JSON(securityResponse{Security: toSecurityBody(sec)}), nil
			}, nil
		},
	}}
}

type securitiesResponse struct {
	Securities []securityBody `json:"securities"`
	Meta       Meta           `json:"meta"`
}

// listingsVersion names the form of the listings: exchange-qualified
// codes, boards by code range, names as the exchange lists them.
const listingsVersion = "listings-v1"

// securitiesHandler serves GET /china/securities.
func securitiesHandler(china *chinasecurities.Service, now usecase.Clock) DataHandler {
	return DataHandler{Method: http.MethodGet, Path: "/china/securities", Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
		limit, err := boundedInt(r, "limit", 100, 1, 1000)
		if err != nil {
			return nil, err
		}
		offset, err := boundedInt(r, "offset", 0, 0, maxOffset)
		if err != nil {
			return nil, err
		}
		v := r.URL.Query()
		q, err := chinasecurities.ParseSearch(chinasecurities.SearchParams{
			Name: v.Get("name"), Code: v.Get("code"), Exchange: v.Get("exchange"), Board: v.Get("board"),
			Listed: v.Get("listed"), Limit: limit, Offset: offset,
		})
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			page, err := china.Search(ctx, q)
			if err != nil {
				return Response{}, err
			}
			return JSON(toSecuritiesResponse(page, q, now())), nil
		}, nil
	}}
}

// toSecuritiesResponse shapes a page answered at at. Its retrieval time is
// the latest of its listings' retrievals; an empty page, or one of
// listings stored before they carried it, is dated by the answer.
func toSecuritiesResponse(p chinasecurities.Page, q chinasecurities.SearchQuery, at time.Time) securitiesResponse {
	retrieved := p.RetrievedAt
	if retrieved.IsZero() {
		retrieved = at
	}
	out := securitiesResponse{Securities: make([]securityBody, len(p.Securities))}
	for i, s := range p.Securities {
		out.Securities[i] = toSecurityBody(s)
	}
	out.Meta = NewMeta("CN", q.Limit, q.Offset, len(p.Securities), pageTotal(q.Offset, len(p.Securities), p.More), at,
		listingsVersion, Provenance{Source: licenceSource(dataset.ChinaSecurities), RetrievedAt: retrieved, Licence: licenceTerms(dataset.ChinaSecurities)})
	return out
}

func toSecurityBody(s ashare.Security) securityBody {
	return securityBody{
		Code: s.Code, Exchange: s.Exchange, Board: s.Board, CompanyName: s.CompanyName, EnglishName: s.EnglishName,
		ListingDate: s.ListingDate, DelistingDate: optional(s.DelistingDate), Listed: s.Listed,
	}
}
