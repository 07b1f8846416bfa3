package http

import (
	"context"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/domain/dataset"
)

// priceBar is one served A-share daily bar.
type priceBar struct {
	Code         string  `json:"code"`
	TradeDate    string  `json:"trade_date"`
	Open         float64 `json:"open"`
	High         float64 `json:"high"`
	Low          float64 `json:"low"`
	Close        float64 `json:"close"`
	PreClose     float64 `json:"pre_close"`
	Change       float64 `json:"change"`
	PctChange    float64 `json:"pct_change"`
	Volume       int64   `json:"volume"`
	Amount       float64 `json:"amount"`
	Currency     string  `json:"currency"`
	AdjustFactor float64 `json:"adjust_factor"`
}

type chinaPricesResponse struct {
	Bars []priceBar `json:"bars"`
	Meta Meta       `json:"meta"`
}

// ChinaPricesHandlers returns the handler of GET /china/prices.
func ChinaPricesHandlers(prices *app.ChinaPrices) []DataHandler {
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
			q, err := prices.Query(app.PricesParams{
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
				return JSON(toChinaPrices(page, q)), nil
			}, nil
		},
	}}
}

func toChinaPrices(page app.PricesPage, q app.PricesQuery) chinaPricesResponse {
	bars := make([]priceBar, len(page.Bars))
	for i, b := range page.Bars {
		bars[i] = priceBar{
			Code: b.Code, TradeDate: b.TradeDate, Open: b.Open, High: b.High, Low: b.Low, Close: b.Close,
			PreClose: b.PreClose, Change: b.Change, PctChange: b.PctChange, Volume: b.Volume, Amount: b.Amount,
			Currency: "CNY", AdjustFactor: b.Factor,
		}
	}
	total := q.Offset + len(bars)
	if page.More {
		total++
	}
	terms := ""
	if d, ok := dataset.Lookup(dataset.ChinaPrices); ok {
		terms = d.Licence.Terms
	}
	return chinaPricesResponse{Bars: bars, Meta: NewMeta("CN", q.Limit, q.Offset, len(bars), total, page.AsOf,
		app.ChinaPricesVersion, Provenance{Source: app.ChinaPricesSource, RetrievedAt: page.RetrievedAt, Licence: terms})}
}
