package quarrytest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/quarrydata/quarry/client"
	"github.com/quarrydata/quarry/quarrytest"
)

// A client test against an in-process server, through the client generated
// from the OpenAPI document: a breaking change in the document breaks this
// example. In a test function, quarrytest.Start(t) does what New and Close
// do here and fails the test if the server cannot start.
func Example() {
	srv, err := quarrytest.New(quarrytest.WithCredits(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	c, err := client.NewClientWithResponses(srv.URL, client.WithRequestEditorFn(
		func(_ context.Context, req *http.Request) error {
			req.Header.Set("X-API-KEY", srv.APIKey)
			return nil
		}))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for range 3 {
		res, err := c.GetChinaSecurityWithResponse(ctx, "SSE.600519")
		switch {
		case err != nil:
			fmt.Println(err)
		case res.JSON200 != nil:
			fmt.Println(res.StatusCode(), res.JSON200.Security.CompanyName,
				"credits left:", res.HTTPResponse.Header.Get("X-Credits-Remaining"))
		case res.JSON402 != nil:
			fmt.Println(res.StatusCode(), res.JSON402.Error)
		}
	}
	// Output:
	// 200 贵州茅台 credits left: 1
	// 200 贵州茅台 credits left: 0
	// 402 insufficient_credits
}

// A dataset loaded from the test's own file, seen through a clock the test
// moves. The file's modification time is taken as the time Quarry retrieved
// it, so its bar is known from the later of that time and the trading
// day's close; before then, and with an as_of before then, the bar is not
// served, as it was not known.
func ExampleWithFiles() {
	dir, err := os.MkdirTemp("", "quarrytest-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "600519.SH.csv") // a Tushare daily file: one bar of 1 March 2024
	bar := "ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n" +
		"600519.SH,20240301,1703.00,1717.00,1695.01,1710.00,1703.00,7.00,0.41,22631.08,3864612.35\n"
	retrieved := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	if err := os.WriteFile(file, []byte(bar), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	if err := os.Chtimes(file, retrieved, retrieved); err != nil {
		fmt.Println(err)
		return
	}

	clock := quarrytest.NewClock(time.Date(2024, 3, 2, 12, 0, 0, 0, time.UTC)) // after the close, before retrieval
	srv, err := quarrytest.New(quarrytest.WithClock(clock.Now), quarrytest.WithFiles(quarrytest.ChinaPrices, file))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	bars := func(query string) {
		req, _ := http.NewRequest("GET", srv.URL+"/china/prices?code=600519.SH"+query, nil)
		req.Header.Set("X-API-KEY", srv.APIKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		defer res.Body.Close()
		var body struct {
			Bars []struct {
				TradeDate string  `json:"trade_date"`
				Close     float64 `json:"close"`
			} `json:"bars"`
		}
		_ = json.NewDecoder(res.Body).Decode(&body)
		fmt.Printf("clock %s, query %q: %d %v\n", clock.Now().Format(time.DateOnly), query, res.StatusCode, body.Bars)
	}
	bars("")
	clock.Set(time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC))
	bars("")
	bars("&as_of=2024-03-03")
	// Output:
	// clock 2024-03-02, query "": 200 []
	// clock 2024-03-05, query "": 200 [{2024-03-01 1710}]
	// clock 2024-03-05, query "&as_of=2024-03-03": 200 []
}
