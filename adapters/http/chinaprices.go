package http

import (
	"context"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/domain/dataset"
)

// ChinaPricesHandlers returns the handler of GET /china/prices.
func ChinaPricesHandlers(prices *chinaprices.Service) []DataHandler {
	return []DataHandler{{
		Method: http.MethodGet, Path: "/china/prices",
		Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
			limit, err := boundedInt(r, "limit", 100, 1, 1000)
			if err != nil {
				return nil, err
			}
			offset, err := boundedInt(r, "offset", 0, 0, maxOffset)
			if err != nil {
				return nil, err
			}
			v := r.URL.Query()
			q, err := prices.Query(chinaprices.Params{
				Code: v.Get("code"), StartDate: v.Get("start_date"), EndDate: v.Get("end_date"),
				AsOf: v.Get("as_of"), Adjust: v.Get("adjust"), Limit: limit, Offset: offset,
			})
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (Response, error) {
				page, err := prices.Prices(ctx, q)
				if err != nil {
					return Response{}, err
				}
				return chinaPricesJSON(page, q), nil
			}, nil
		},
	}}
}

// chinaPricesJSON answers a page as {bars, meta}, each bar written by
// appendBar.
func chinaPricesJSON(page chinaprices.Page, q chinaprices.Query) Response {
	meta := NewMeta("CN", q.Limit, q.Offset, len(page.Bars), pageTotal(q.Offset, len(page.Bars), page.More), page.AsOf,
		chinaprices.Version, Provenance{Source: chinaprices.Source, RetrievedAt: page.RetrievedAt, Licence: licenceTerms(dataset.ChinaPrices)})
	return rowsJSON("bars", len(page.Bars), func(b []byte, i int) ([]byte, error) {
		return appendBar(b, page.Bars[i])
	}, meta)
}

// appendBar appends one served A-share daily bar: {code, trade_date, open,
// high, low, close, pre_close, change, pct_change, volume, amount, currency,
// adjust_factor}, prices in CNY.
func appendBar(b []byte, bar chinaprices.Bar) ([]byte, error) {
	b = appendJSONString(appendKey(b, "code", true), bar.Code)
	b = appendJSONString(appendKey(b, "trade_date", false), bar.TradeDate)
	b, err := appendFloats(b, []floatMember{{"open", bar.Open}, {"high", bar.High}, {"low", bar.Low}, {"close", bar.Close},
		{"pre_close", bar.PreClose}, {"change", bar.Change}, {"pct_change", bar.PctChange}})
	if err != nil {
		return b, err
	}
	b = strconv.AppendInt(appendKey(b, "volume", false), bar.Volume, 10)
	if b, err = appendFloats(b, []floatMember{{"amount", bar.Amount}}); err != nil {
		return b, err
	}
	b = appendJSONString(appendKey(b, "currency", false), "CNY")
	if b, err = appendFloats(b, []floatMember{{"adjust_factor", bar.Factor}}); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}
