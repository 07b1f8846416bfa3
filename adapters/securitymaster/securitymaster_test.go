package securitymaster_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/adapters/securitymaster"
	"github.com/quarrydata/quarry/domain/source"
)

func TestParse(t *testing.T) {
	tickers := `{"0":{"cik_str":1652044,"ticker":"GOOGL","title":"Alphabet Inc."},"1":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."},"2":{"cik_str":1652044,"ticker":"GOOG","title":"Alphabet Inc."}}`
	cusips := "cusip,ticker\n02079K107,GOOG\n037833100,AAPL\n02079K305,GOOGL\n"
	secs, err := securitymaster.Parse("company_tickers.json", strings.NewReader(tickers), "cusips.csv", strings.NewReader(cusips))
	if err != nil {
		t.Fatal(err)
	}
	// Later entries win a shared key: GOOGL, listed first, must come last.
	if len(secs) != 3 || secs[2].Ticker != "GOOGL" || secs[2].CIK != "0001652044" {
		t.Fatalf("secs = %+v", secs)
	}
	bad := []struct{ tickers, cusips, says string }{
		{`{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."}`, cusips, "company_tickers.json:1: JSON"},
		{`{"0":{"cik_str":0,"ticker":"AAPL","title":"Apple Inc."}}`, cusips, `$["0"]: cik_str`},
		{`{"1":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."}}`, cusips, `$["1"]: keys must be 0 to 0`},
		{tickers, "cusip,ticker\n037833101,AAPL\n", "cusips.csv:2: malformed CUSIP"},
		{tickers, "cusip,ticker\n037833100,MSFT\n", "cusips.csv:2: ticker MSFT is not in company_tickers.json"},
		{tickers, "ticker,cusip\n", "cusips.csv:1: header"},
		{tickers, "cusip,ticker\n037833100,\"AAPL\n", "cusips.csv:2:"},
	}
	for _, b := range bad {
		_, err := securitymaster.Parse("company_tickers.json", strings.NewReader(b.tickers), "cusips.csv", strings.NewReader(b.cusips))
		if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), b.says) {
			t.Errorf("err = %v, want one saying %q", err, b.says)
		}
	}
}

func FuzzParseSecuritiesMaster(f *testing.F) {
	f.Add(`{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."}}`, "cusip,ticker\n037833100,AAPL\n")
	f.Fuzz(func(t *testing.T, tickers, cusips string) {
		secs, err := securitymaster.Parse("t.json", strings.NewReader(tickers), "c.csv", strings.NewReader(cusips))
		if err != nil && !errors.Is(err, source.ErrBadInput) {
			t.Fatalf("error outside ErrBadInput: %v", err)
		}
		for _, s := range secs {
			if len(s.CUSIP) != 9 || len(s.CIK) != 10 || s.Ticker == "" {
				t.Fatalf("accepted a bad security: %+v", s)
			}
		}
	})
}
