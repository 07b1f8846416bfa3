package ashareprices_test

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/ashareprices"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/source"
)

var retrieved = time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)

func readTestdata(t *testing.T, name string) []ashare.Bar {
	t.Helper()
	open := func() (io.ReadCloser, error) { return os.Open("testdata/" + name) }
	bars, err := ashareprices.ReadFile(ashareprices.File{Name: "testdata/" + name, Open: open, RetrievedAt: retrieved})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return bars
}

func TestTushareDaily(t *testing.T) {
	// Real rows of Kweichow Moutai, newest first, as Tushare's daily wrote them.
	bars := readTestdata(t, "600519.SH.csv")
	if len(bars) != 4 {
		t.Fatalf("%d bars", len(bars))
	}
	exDate := bars[1]
	want := ashare.Bar{Code: "SSE.600519", TradeDate: "2022-06-30", Open: 2000, High: 2077, Low: 1999.99, Close: 2045, PreClose: 2008.33,
		Volume: 3898243, Amount: 7984019438, Source: "600519.SH.csv", KnownAt: retrieved}
	if exDate != want {
		t.Fatalf("2022-06-30 = %+v\nwant %+v", exDate, want)
	}
}

func TestPandasIndexColumn(t *testing.T) {
	// Real rows of Ping An Bank written with pandas' index column first.
	bars := readTestdata(t, "000001.SZ_indexed.csv")
	if len(bars) != 3 || bars[0].Code != "SZSE.000001" || bars[0].TradeDate != "2021-02-08" || bars[0].Volume != 108426467 || bars[0].Amount != 2650948251 {
		t.Fatalf("bars = %+v", bars)
	}
}

func TestAKShareLayoutGivesTheSameBars(t *testing.T) {
	// testdata/sh600519.csv holds the same real days as 600519.SH.csv,
	// written in AKShare's stock_zh_a_hist layout and units (成交额 in CNY;
	// 振幅 and 涨跌幅 computed from them; 换手率 left empty: not in the source).
	tushare := readTestdata(t, "600519.SH.csv")
	akshare := readTestdata(t, "sh600519.csv")
	if len(akshare) != len(tushare) {
		t.Fatalf("%d and %d bars", len(akshare), len(tushare))
	}
	byDate := map[string]ashare.Bar{}
	for _, b := range tushare {
		byDate[b.TradeDate] = b
	}
	for _, b := range akshare {
		if !b.SameValues(byDate[b.TradeDate]) || b.Source != "sh600519.csv" {
			t.Fatalf("AKShare %+v\nTushare %+v", b, byDate[b.TradeDate])
		}
	}
}

func TestRefusals(t *testing.T) {
	head := "ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n"
	row := "600519.SH,20220630,2000.0,2077.0,1999.99,2045.0,2008.33,36.67,1.8259,38982.43,7984019.438\n"
	ak := "日期,股票代码,开盘,收盘,最高,最低,成交量,成交额,振幅,涨跌幅,涨跌额,换手率\n"
	akRow := "2022-06-30,600519,2000.0,2045.0,2077.0,1999.99,38982.43,7984019438,3.83,1.83,36.67,\n"
	cases := []struct {
		name, file, body, says string
	}{
		{"empty", "a.csv", "", "a.csv:1"},
		{"unknown header", "a.csv", "date,open,close\n", "neither Tushare"},
		{"header only", "a.csv", head, "a.csv:2: no bars"},
		{"truncated row", "a.csv", head + row + "600519.SH,20220629,2028.0,2042", "a.csv:3"},
		{"bare ts_code", "a.csv", head + strings.Replace(row, "600519.SH", "600519", 1), "did you mean SSE.600519"},
		{"bad date", "a.csv", head + strings.Replace(row, "20220630", "2022-06-30", 1), "YYYYMMDD"},
		{"high below close", "a.csv", head + strings.Replace(row, "2077.0", "2040.0", 1), "high"},
		{"change disagrees", "a.csv", head + strings.Replace(row, "36.67", "14.67", 1), "change"},
		{"fraction of a share", "a.csv", head + strings.Replace(row, "38982.43", "38982.435", 1), "whole number of shares"},
		{"exponent", "a.csv", head + strings.Replace(row, "7984019.438", "7.98e6", 1), "plain decimal"},
		{"twice", "a.csv", head + row + row, "a.csv:3: a second bar"},
		{"cut inside its last number", "a.csv", head + row + strings.Replace(row, "7984019.438\n", "798401", 1), "a.csv:3: amount 7.98401e+08 / volume 3898243 implies an average price of 204.8"},
		{"AKShare amount cut", "sh600519.csv", ak + strings.Replace(akRow, "7984019438", "798401943", 1), "outside the day's low–high range"},
		{"AKShare without a code in the name", "prices.csv", ak + akRow, "name the file after the listing"},
		{"AKShare code disagrees", "sz000001.csv", ak + akRow, "股票代码"},
		{"AKShare negative volume", "sh600519.csv", ak + strings.Replace(akRow, "38982.43", "-1", 1), "成交量"},
		{"index column not a number", "a.csv", "," + head + "x," + row, "index column"},
	}
	for _, c := range cases {
		_, err := ashareprices.ReadFile(ashareprices.File{Name: c.file, Open: text(c.body), RetrievedAt: retrieved})
		if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want ErrBadInput saying %q", c.name, err, c.says)
		}
	}
}

func FuzzReadFile(f *testing.F) {
	for _, name := range []string{"600519.SH.csv", "000001.SZ_indexed.csv", "sh600519.csv"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(name, b)
	}
	f.Fuzz(func(t *testing.T, name string, body []byte) {
		bars, err := ashareprices.ReadFile(ashareprices.File{Name: name, Open: text(string(body)), RetrievedAt: retrieved})
		if err != nil {
			if !errors.Is(err, source.ErrBadInput) {
				t.Fatalf("refused without ErrBadInput: %v", err)
			}
			return
		}
		for _, b := range bars {
			if err := b.Check(); err != nil {
				t.Fatalf("accepted a bad bar %+v: %v", b, err)
			}
			if _, err := ashare.ParseCode(b.Code); err != nil {
				t.Fatalf("accepted a code that is not canonical: %+v", b)
			}
		}
	})
}

// text opens a file holding body.
func text(body string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }
}
