package http

import (
	"context"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/domain/ashare"
)

type securityResponse struct {
	Security securityBody `json:"security"`
}

type securityBody struct {
	Code          string  `json:"code"`
	Exchange      string  `json:"exchange"`
	Board         string  `json:"board"`
	CompanyName   string  `json:"company_name"`
	ListingDate   string  `json:"listing_date"`
	DelistingDate *string `json:"delisting_date"`
	Listed        bool    `json:"listed"`
}

// ChinaHandlers returns the handlers of the China A-share datasets.
func ChinaHandlers(china *chinasecurities.Service) []DataHandler {
	return []DataHandler{{
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

func toSecurityBody(s ashare.Security) securityBody {
	return securityBody{
		Code: s.Code, Exchange: s.Exchange, Board: s.Board, CompanyName: s.CompanyName,
		ListingDate: s.ListingDate, DelistingDate: optional(s.DelistingDate), Listed: s.Listed,
	}
}
