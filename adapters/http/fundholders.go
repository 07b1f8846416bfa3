package http

import (
	"context"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/holdings"
)

// fundHoldersVersion names the normalization of 13F rows: values scaled to
// whole dollars by filing date, CUSIPs upper-cased, one row per table line.
const fundHoldersVersion = "13f-v1"

const fundHoldersSource = "SEC Form 13F data sets and 13F-HR filings (EDGAR)"

type fundHoldersResponse struct {
	Security fundSecurityBody `json:"security"`
	Holders  []fundHolderBody `json:"holders"`
	Meta     Meta             `json:"meta"`
}

type fundSecurityBody struct {
	Ticker string `json:"ticker"`
	CIK    string `json:"cik"`
	CUSIP  string `json:"cusip"`
	Name   string `json:"name"`
}

type fundHolderBody struct {
	FundCIK              string  `json:"fund_cik"`
	FundName             string  `json:"fund_name"`
	ReportPeriod         string  `json:"report_period"`
	FilingDate           string  `json:"filing_date"`
	AccessionNumber      string  `json:"accession_number"`
	Shares               int64   `json:"shares"`
	Value                int64   `json:"value"`
	PutCall              *string `json:"put_call"`
	InvestmentDiscretion string  `json:"investment_discretion"`
}

// FundHoldersHandlers returns the handler of the funds-holding lookup.
func FundHoldersHandlers(f *fundholders.Service, now usecase.Clock) []DataHandler {
	return []DataHandler{{
		Method: http.MethodGet, Path: "/us/security-fund-holders",
		Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
			req, err := parseFundHolders(r, now())
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (Response, error) {
				page, err := f.Holders(ctx, req)
				if err != nil {
					return Response{}, err
				}
				return JSON(toFundHoldersResponse(page, req.Query)), nil
			}, nil
		},
	}}
}

func parseFundHolders(r *http.Request, now time.Time) (fundholders.Request, error) {
	limit, err := boundedInt(r, "limit", 100, 1, 1000)
	if err != nil {
		return fundholders.Request{}, err
	}
	offset, err := boundedInt(r, "offset", 0, 0, int(^uint32(0)>>1))
	if err != nil {
		return fundholders.Request{}, err
	}
	q := r.URL.Query()
	param := func(name string) *string {
		if !q.Has(name) {
			return nil
		}
		v := q.Get(name)
		return &v
	}
	return fundholders.ParseRequest(fundholders.Params{
		Identifier: param("identifier"), Accession: param("accession_number"),
		StartDate: param("start_date"), EndDate: param("end_date"), AsOf: param("as_of"),
		Limit: limit, Offset: offset,
	}, now)
}

func toFundHoldersResponse(p fundholders.Page, q holdings.Query) fundHoldersResponse {
	out := fundHoldersResponse{
		Security: fundSecurityBody{Ticker: p.Security.Ticker, CIK: p.Security.CIK, CUSIP: p.Security.CUSIP, Name: p.Security.Name},
		Holders:  make([]fundHolderBody, len(p.Holders)),
	}
	retrieved := q.AsOf
	newest := ""
	for i, h := range p.Holders {
		out.Holders[i] = fundHolderBody{
			FundCIK: h.FundCIK, FundName: h.FundName, ReportPeriod: h.ReportPeriod, FilingDate: h.FilingDate,
			AccessionNumber: h.Accession, Shares: h.Shares, Value: h.Value, PutCall: optional(h.PutCall),
			InvestmentDiscretion: h.Discretion,
		}
		newest = max(newest, h.FilingDate)
	}
	// EDGAR filings do not change once filed, so the newest filing served
	// dates the data; Quarry keeps no separate retrieval time per filing.
	if d, err := time.Parse(time.DateOnly, newest); err == nil {
		retrieved = d
	}
	out.Meta = NewMeta("US", q.Limit, q.Offset, len(p.Holders), p.Total, q.AsOf, fundHoldersVersion,
		Provenance{Source: fundHoldersSource, RetrievedAt: retrieved, Licence: "US government work in the public domain; redistribution allowed"})
	return out
}
