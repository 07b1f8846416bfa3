package http

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/nse"
)

// indiaPriceRow is one served NSE daily row; the CSV route writes the same
// columns in the same order.
type indiaPriceRow struct {
	Symbol    string   `json:"symbol"`
	Series    string   `json:"series"`
	ISIN      string   `json:"isin"`
	Date      string   `json:"date"`
	Open      float64  `json:"open"`
	High      float64  `json:"high"`
	Low       float64  `json:"low"`
	Close     float64  `json:"close"`
	Last      *float64 `json:"last"`
	PrevClose float64  `json:"prev_close"`
	Volume    int64    `json:"volume"`
	Turnover  float64  `json:"turnover"`
	Trades    int64    `json:"trades"`
}

type indiaPricesResponse struct {
	Rows []indiaPriceRow `json:"rows"`
	Meta Meta            `json:"meta"`
}

// indiaCSVHeader is the CSV route's header line.
const indiaCSVHeader = "symbol,series,isin,date,open,high,low,close,last,prev_close,volume,turnover,trades\n"

// IndiaPricesHandlers returns the handlers of GET /india/prices and GET
// /india/prices.csv.
func IndiaPricesHandlers(prices *app.IndiaPrices) []DataHandler {
	return []DataHandler{
		{Method: http.MethodGet, Path: "/india/prices", Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
			limit, err := boundedInt(r, "limit", 100, 1, 1000)
			if err != nil {
				return nil, err
			}
			offset, err := boundedInt(r, "offset", 0, 0, maxOffset)
			if err != nil {
				return nil, err
			}
			q, err := prices.Query(indiaParams(r, limit, offset))
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (Response, error) {
				page, err := prices.Prices(ctx, q)
				if err != nil {
					return Response{}, err
				}
				return JSON(toIndiaPrices(page, q)), nil
			}, nil
		}},
		{Method: http.MethodGet, Path: "/india/prices.csv", Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
			q, err := prices.Query(indiaParams(r, 0, 0))
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (Response, error) {
				isin, err := prices.Resolve(ctx, q)
				if err != nil {
					return Response{}, err
				}
				return Response{
					MediaType: "text/csv; charset=utf-8",
					Header:    http.Header{"Content-Disposition": {`attachment; filename="` + q.FileStem(isin) + ".csv" + `"`}},
					Body: func(ctx context.Context, w io.Writer) error {
						return writeIndiaCSV(ctx, w, prices, isin, q)
					},
				}, nil
			}, nil
		}},
	}
}

func indiaParams(r *http.Request, limit, offset int) app.IndiaPricesParams {
	v := r.URL.Query()
	return app.IndiaPricesParams{
		Symbol: v.Get("symbol"), ISIN: v.Get("isin"), Series: v.Get("series"), StartDate: v.Get("start_date"),
		EndDate: v.Get("end_date"), AsOf: v.Get("as_of"), Limit: limit, Offset: offset,
	}
}

// writeIndiaCSV streams the rows through one buffer: it allocates nothing
// per row, so memory stays flat however long the range.
func writeIndiaCSV(ctx context.Context, w io.Writer, prices *app.IndiaPrices, isin string, q app.IndiaPricesQuery) error {
	bw := bufio.NewWriterSize(w, 32<<10)
	if _, err := bw.WriteString(indiaCSVHeader); err != nil {
		return err
	}
	line := make([]byte, 0, 256)
	for r, err := range prices.Stream(ctx, isin, q) {
		if err != nil {
			return err
		}
		line = appendIndiaCSV(line[:0], r)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendIndiaCSV appends one row as a CSV line. Symbols, series, ISINs and
// dates hold no comma or quote, so no field needs quoting.
func appendIndiaCSV(b []byte, r nse.Row) []byte {
	num := func(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'f', -1, 64) }
	b = append(append(append(append(append(append(append(b, r.Symbol...), ','), r.Series...), ','), r.ISIN...), ','), r.Date...)
	for _, v := range []float64{r.Open, r.High, r.Low, r.Close} {
		b = num(append(b, ','), v)
	}
	b = append(b, ',')
	if r.Last != 0 {
		b = num(b, r.Last)
	}
	b = num(append(b, ','), r.PrevClose)
	b = strconv.AppendInt(append(b, ','), r.Volume, 10)
	b = num(append(b, ','), r.Turnover)
	b = strconv.AppendInt(append(b, ','), r.Trades, 10)
	return append(b, '\n')
}

func toIndiaPrices(page app.IndiaPricesPage, q app.IndiaPricesQuery) indiaPricesResponse {
	rows := make([]indiaPriceRow, len(page.Rows))
	for i, r := range page.Rows {
		rows[i] = indiaPriceRow{Symbol: r.Symbol, Series: r.Series, ISIN: r.ISIN, Date: r.Date, Open: r.Open, High: r.High,
			Low: r.Low, Close: r.Close, PrevClose: r.PrevClose, Volume: r.Volume, Turnover: r.Turnover, Trades: r.Trades}
		if r.Last != 0 {
			last := r.Last
			rows[i].Last = &last
		}
	}
	total := q.Offset + len(rows)
	if page.More {
		total++
	}
	terms := ""
	if d, ok := dataset.Lookup(dataset.IndiaPrices); ok {
		terms = d.Licence.Terms
	}
	return indiaPricesResponse{Rows: rows, Meta: NewMeta("IN", q.Limit, q.Offset, len(rows), total, page.AsOf,
		app.IndiaPricesVersion, Provenance{Source: app.IndiaPricesSource, RetrievedAt: page.RetrievedAt, Licence: terms})}
}
