package http

import (
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/nse"
)

// The rows as encoding/json wrote them before rowsJSON: the reference the
// hand-written appenders are held to, byte for byte.
type referenceBar struct {
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

type referenceIndiaRow struct {
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

func referenceBars(bars []chinaprices.Bar) []referenceBar {
	out := make([]referenceBar, len(bars))
	for i, b := range bars {
		out[i] = referenceBar{b.Code, b.TradeDate, b.Open, b.High, b.Low, b.Close, b.PreClose, b.Change, b.PctChange,
			b.Volume, b.Amount, "CNY", b.Factor}
	}
	return out
}

func referenceIndiaRows(rows []nse.Row) []referenceIndiaRow {
	out := make([]referenceIndiaRow, len(rows))
	for i, r := range rows {
		out[i] = referenceIndiaRow{Symbol: r.Symbol, Series: r.Series, ISIN: r.ISIN, Date: r.Date, Open: r.Open, High: r.High,
			Low: r.Low, Close: r.Close, PrevClose: r.PrevClose, Volume: r.Volume, Turnover: r.Turnover, Trades: r.Trades}
		if r.Last != 0 {
			last := r.Last
			out[i].Last = &last
		}
	}
	return out
}

// Real rows (Kweichow Moutai's 2022-06-30 bar forward-adjusted, RELIANCE
// on 2024-07-01) and values at the edges of each formatting path.
var (
	sampleBars = []chinaprices.Bar{
		{Bar: ashare.Bar{Code: "SSE.600519", TradeDate: "2022-06-30", Open: 2008.33, High: 2040, Low: 1990.01, Close: 2030,
			PreClose: 2008.33, Volume: 3898243, Amount: 7899999123.45}, Change: 21.67, PctChange: 1.079, Factor: 0.98932512315271},
		{Bar: ashare.Bar{Code: "BSE.830799", TradeDate: "2023-06-02", Open: -0.5, High: 1e-7, Low: 1e21, Close: 0,
			PreClose: math.Copysign(0, -1), Volume: -1, Amount: 99999999999.9999}, Change: 1.0 / 3, PctChange: -13.2875, Factor: 1},
		{Bar: ashare.Bar{Code: "SZSE.000001\"\\<>\u2028é", TradeDate: "\x01bad\xff"}},
	}
	sampleIndiaRows = []nse.Row{
		{Symbol: "RELIANCE", Series: "EQ", ISIN: "INE002A01018", Date: "2024-07-01", Open: 3150, High: 3176.2, Low: 3137.55,
			Close: 3146.85, Last: 3146.1, PrevClose: 3130.8, Volume: 5234125, Turnover: 16516245421.35, Trades: 171212},
		{Symbol: "M&M", Series: "BL", ISIN: "INE101A01026", Date: "2024-07-01", Open: 1e-7, Close: 1e22, Volume: 1},
	}
)

func body(t *testing.T, r Response) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.Body(context.Background(), &b); err != nil {
		t.Fatalf("body: %v", err)
	}
	return b.Bytes()
}

func reference(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := encodeJSON(&b, v); err != nil {
		t.Fatalf("reference: %v", err)
	}
	return b.Bytes()
}

func TestRowsJSONWritesWhatEncodingJSONWrites(t *testing.T) {
	asOf := time.Date(2026, 11, 26, 12, 0, 0, 123456789, time.UTC)
	china := Provenance{Source: chinaprices.Source, RetrievedAt: asOf, Licence: licenceTerms(dataset.ChinaPrices)}
	for _, bars := range [][]chinaprices.Bar{sampleBars, nil} {
		got := body(t, chinaPricesJSON(chinaprices.Page{Bars: bars, More: true, AsOf: asOf, RetrievedAt: asOf}, chinaprices.Query{Limit: 100}))
		want := reference(t, struct {
			Bars []referenceBar `json:"bars"`
			Meta Meta           `json:"meta"`
		}{referenceBars(bars), NewMeta("CN", 100, 0, len(bars), len(bars)+1, asOf, chinaprices.Version, china)})
		if !bytes.Equal(got, want) {
			t.Errorf("China page:\n got %s\nwant %s", got, want)
		}
	}
	got := body(t, indiaPricesJSON(indiaprices.Page{Rows: sampleIndiaRows, AsOf: asOf, RetrievedAt: asOf}, indiaprices.Query{Limit: 100}))
	want := reference(t, struct {
		Rows []referenceIndiaRow `json:"rows"`
		Meta Meta                `json:"meta"`
	}{referenceIndiaRows(sampleIndiaRows), NewMeta("IN", 100, 0, 2, 2, asOf, indiaprices.Version,
		Provenance{Source: indiaprices.Source, RetrievedAt: asOf, Licence: licenceTerms(dataset.IndiaPrices)})})
	if !bytes.Equal(got, want) {
		t.Errorf("India page:\n got %s\nwant %s", got, want)
	}
}

func TestRowsJSONRefusesNaN(t *testing.T) {
	page := chinaprices.Page{Bars: []chinaprices.Bar{{Bar: ashare.Bar{Code: "SSE.600519", Close: math.NaN()}}}}
	var b bytes.Buffer
	if err := chinaPricesJSON(page, chinaprices.Query{Limit: 1}).Body(context.Background(), &b); err == nil || b.Len() > 0 {
		t.Errorf("a NaN close: err %v after %d bytes, want an error before the first byte", err, b.Len())
	}
}

// FuzzAppendBar holds appendBar to encoding/json for any values.
func FuzzAppendBar(f *testing.F) {
	for _, b := range sampleBars {
		f.Add(b.Code, b.TradeDate, b.Open, b.Close, b.Amount, b.Volume)
	}
	f.Fuzz(func(t *testing.T, code, date string, open, closing, amount float64, volume int64) {
		bar := chinaprices.Bar{Bar: ashare.Bar{Code: code, TradeDate: date, Open: open, Close: closing, Amount: amount, Volume: volume}}
		got, err := appendBar(nil, bar)
		var want bytes.Buffer
		wantErr := encodeJSON(&want, referenceBars([]chinaprices.Bar{bar})[0])
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%+v: error %v, encoding/json's %v", bar, err, wantErr)
		}
		if err == nil && !bytes.Equal(append(got, '\n'), want.Bytes()) {
			t.Fatalf("got %s\nwant %s", got, want.Bytes())
		}
	})
}
