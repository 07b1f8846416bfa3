package http

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/decimal"
	"github.com/quarrydata/quarry/domain/nse"
)

// indiaCSVHeader is the CSV route's header line.
const indiaCSVHeader = "symbol,series,isin,date,open,high,low,close,last,prev_close,volume,turnover,trades\n"

// IndiaPricesHandlers returns the handlers of GET /india/prices and GET
// /india/prices.csv.
func IndiaPricesHandlers(prices *indiaprices.Service) []DataHandler {
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
				return indiaPricesJSON(page, q), nil
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

func indiaParams(r *http.Request, limit, offset int) indiaprices.Params {
	v := r.URL.Query()
	return indiaprices.Params{
		Symbol: v.Get("symbol"), ISIN: v.Get("isin"), Series: v.Get("series"), StartDate: v.Get("start_date"),
		EndDate: v.Get("end_date"), AsOf: v.Get("as_of"), Limit: limit, Offset: offset,
	}
}

// writeIndiaCSV streams the rows through one buffer: it allocates nothing
// per row, so memory stays flat however long the range.
func writeIndiaCSV(ctx context.Context, w io.Writer, prices *indiaprices.Service, isin string, q indiaprices.Query) error {
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
	b = append(append(append(append(append(append(append(b, r.Symbol...), ','), r.Series...), ','), r.ISIN...), ','), r.Date...)
	for _, v := range []float64{r.Open, r.High, r.Low, r.Close} {
		b = decimal.Append(append(b, ','), v)
	}
	b = append(b, ',')
	if r.Last != 0 {
		b = decimal.Append(b, r.Last)
	}
	b = decimal.Append(append(b, ','), r.PrevClose)
	b = strconv.AppendInt(append(b, ','), r.Volume, 10)
	b = decimal.Append(append(b, ','), r.Turnover)
	b = strconv.AppendInt(append(b, ','), r.Trades, 10)
	return append(b, '\n')
}

// indiaPricesJSON answers a page as {rows, meta}, each row written by
// appendIndiaRow.
func indiaPricesJSON(page indiaprices.Page, q indiaprices.Query) Response {
	meta := NewMeta("IN", q.Limit, q.Offset, len(page.Rows), pageTotal(q.Offset, len(page.Rows), page.More), page.AsOf,
		indiaprices.Version, Provenance{Source: indiaprices.Source, RetrievedAt: page.RetrievedAt, Licence: licenceTerms(dataset.IndiaPrices)})
	return rowsJSON("rows", len(page.Rows), func(b []byte, i int) ([]byte, error) {
		return appendIndiaRow(b, page.Rows[i])
	}, meta)
}

// appendIndiaRow appends one NSE daily row: {symbol, series, isin, date,
// open, high, low, close, last, prev_close, volume, turnover, trades}, last
// null when the file gave none.
func appendIndiaRow(b []byte, r nse.Row) ([]byte, error) {
	b = appendJSONString(appendKey(b, "symbol", true), r.Symbol)
	b = appendJSONString(appendKey(b, "series", false), r.Series)
	b = appendJSONString(appendKey(b, "isin", false), r.ISIN)
	b = appendJSONString(appendKey(b, "date", false), r.Date)
	b, err := appendFloats(b, []floatMember{{"open", r.Open}, {"high", r.High}, {"low", r.Low}, {"close", r.Close}})
	if err != nil {
		return b, err
	}
	if r.Last == 0 {
		b = append(appendKey(b, "last", false), "null"...)
	} else if b, err = appendFloats(b, []floatMember{{"last", r.Last}}); err != nil {
		return b, err
	}
	if b, err = appendFloats(b, []floatMember{{"prev_close", r.PrevClose}}); err != nil {
		return b, err
	}
	b = strconv.AppendInt(appendKey(b, "volume", false), r.Volume, 10)
	if b, err = appendFloats(b, []floatMember{{"turnover", r.Turnover}}); err != nil {
		return b, err
	}
	b = strconv.AppendInt(appendKey(b, "trades", false), r.Trades, 10)
	return append(b, '}'), nil
}
