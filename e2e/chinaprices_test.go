package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/domain/source"
)

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

type pricesBody struct {
	Bars []priceBar `json:"bars"`
	Meta struct {
		Jurisdiction string `json:"jurisdiction"`
		Count        int    `json:"count"`
		Limit        int    `json:"limit"`
		NextOffset   *int   `json:"next_offset"`
		AsOf         string `json:"as_of"`
		Provenance   struct {
			Source      string `json:"source"`
			RetrievedAt string `json:"retrieved_at"`
			Licence     string `json:"licence"`
		} `json:"provenance"`
	} `json:"meta"`
}

// bar returns the page's bar of a trade date.
func (b pricesBody) bar(t *testing.T, date string) priceBar {
	t.Helper()
	for _, x := range b.Bars {
		if x.TradeDate == date {
			return x
		}
	}
	t.Fatalf("no bar on %s in %+v", date, b.Bars)
	return priceBar{}
}

func pricesGetter(t *testing.T, c *client, key string) func(path string) pricesBody {
	return func(path string) pricesBody {
		t.Helper()
		var b pricesBody
		c.do("GET", path, nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &b)
		return b
	}
}

// The figures below are the real rows of the bundled sample (Tushare daily:
// 600519.SH 2021-06-01..2022-07-01, 000001.SZ 2021-05-06..2022-07-29).
// Moutai's ex-dates in it: 2021-06-25 (prior close 2068.05, pre_close
// 2048.76) and 2022-06-30 (prior close 2030.00, pre_close 2008.33).
func TestChinaPrices(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			_, key := signIn(t, c, "wu@example.com")
			get := pricesGetter(t, c, key)
			t.Run("every alias form answers the canonical listing", func(t *testing.T) {
				var first []priceBar
				for _, code := range []string{"SSE.600519", "600519.SH", "sh600519", "sh.600519", "600519.XSHG", "sse.600519"} {
					b := get("/china/prices?code=" + code + "&start_date=2022-06-29&end_date=2022-07-01")
					if len(b.Bars) != 3 || b.Bars[0].Code != "SSE.600519" {
						t.Fatalf("%s: %+v", code, b.Bars)
					}
					if first == nil {
						first = b.Bars
					} else if fmt.Sprint(first) != fmt.Sprint(b.Bars) {
						t.Fatalf("%s answered differently", code)
					}
				}
				if b := get("/china/prices?code=sz000001&limit=1"); b.Bars[0].Code != "SZSE.000001" || b.Bars[0].TradeDate != "2021-05-06" {
					t.Fatalf("sz000001: %+v", b.Bars)
				}
			})
			t.Run("bars as traded, in shares and yuan", func(t *testing.T) {
				b := get("/china/prices?code=600519.SH&start_date=2022-06-30&end_date=2022-06-30")
				// vol 38982.43 lots = 3,898,243 shares; amount 7984019.438
				// thousand CNY = 7,984,019,438 CNY.
				want := priceBar{Code: "SSE.600519", TradeDate: "2022-06-30", Open: 2000, High: 2077, Low: 1999.99, Close: 2045,
					PreClose: 2008.33, Change: 36.67, PctChange: 1.8259, Volume: 3898243, Amount: 7984019438, Currency: "CNY", AdjustFactor: 1}
				if len(b.Bars) != 1 || b.Bars[0] != want {
					t.Fatalf("2022-06-30 = %+v", b.Bars)
				}
				m := b.Meta
				if m.Jurisdiction != "CN" || m.Count != 1 || m.NextOffset != nil || m.Provenance.RetrievedAt != "2026-11-26T00:00:00Z" ||
					!strings.Contains(m.Provenance.Licence, "internal use only") {
					t.Fatalf("meta = %+v", m)
				}
			})
			t.Run("forward adjustment around the 2022-06-30 ex-date", func(t *testing.T) {
				b := get("/china/prices?code=600519.SH&start_date=2021-06-24&end_date=2022-07-01&adjust=forward&limit=1000")
				// r(2022-06-30) = 2008.33 / 2030.00; the day before scales
				// by it, so its close becomes the ex-date's pre_close:
				// 2030.00 × 2008.33/2030.00 = 2008.33.
				if x := b.bar(t, "2022-06-29"); x.Close != 2008.33 || math.Abs(x.AdjustFactor-2008.33/2030.0) > 1e-15 {
					t.Fatalf("2022-06-29 forward = %+v", x)
				}
				// 2036.00 × 2008.33/2030.00 = 2014.26595… → 2014.2660.
				if x := b.bar(t, "2022-06-28"); x.Close != 2014.266 || x.PctChange != 1.2658 {
					t.Fatalf("2022-06-28 forward = %+v", x)
				}
				// Both ex-dates: 2068.05 × 2048.76/2068.05 × 2008.33/2030.00
				// = 2026.88973… → 2026.8897.
				if x := b.bar(t, "2021-06-24"); x.Close != 2026.8897 {
					t.Fatalf("2021-06-24 forward = %+v", x)
				}
				if x := b.bar(t, "2022-06-30"); x.Close != 2045 || x.AdjustFactor != 1 {
					t.Fatalf("the newest ex-date forward = %+v", x)
				}
				// Ping An 2022-07-22: 13.01 × 12.78/13.01 = 12.78.
				p := get("/china/prices?code=000001.SZ&start_date=2022-07-21&end_date=2022-07-21&adjust=forward")
				if p.Bars[0].Close != 12.78 {
					t.Fatalf("Ping An 2022-07-21 forward = %+v", p.Bars)
				}
			})
			t.Run("a Beijing listing across its 2022-06-01 bonus-share ex-date", func(t *testing.T) {
				// 3572.93 lots = 357,293 shares; 2866.02 thousand CNY.
				b := get("/china/prices?code=bj830799&start_date=2022-06-01&end_date=2022-06-01")
				want := priceBar{Code: "BSE.830799", TradeDate: "2022-06-01", Open: 7.78, High: 8.27, Low: 7.7, Close: 7.97,
					PreClose: 7.71, Change: 0.26, PctChange: 3.3722, Volume: 357293, Amount: 2866020, Currency: "CNY", AdjustFactor: 1}
				if len(b.Bars) != 1 || b.Bars[0] != want {
					t.Fatalf("830799 2022-06-01 = %+v", b.Bars)
				}
				// Both later ex-dates scale the day before the first:
				// 11.79 × 7.71/11.79 × 8.23/8.41 = 7.544982… → 7.545.
				f := get("/china/prices?code=830799.BJ&start_date=2022-05-31&end_date=2022-05-31&adjust=forward")
				if len(f.Bars) != 1 || f.Bars[0].Close != 7.545 {
					t.Fatalf("830799 2022-05-31 forward = %+v", f.Bars)
				}
			})
			t.Run("backward adjustment from the first bar held", func(t *testing.T) {
				b := get("/china/prices?code=600519.SH&start_date=2021-06-01&end_date=2022-07-01&adjust=backward&limit=1000")
				if x := b.bar(t, "2021-06-24"); x.Close != 2068.05 || x.AdjustFactor != 1 {
					t.Fatalf("2021-06-24 backward = %+v", x)
				}
				// 2092.00 × 2068.05/2048.76 = 2111.69707… → 2111.6971.
				if x := b.bar(t, "2021-06-25"); x.Close != 2111.6971 {
					t.Fatalf("2021-06-25 backward = %+v", x)
				}
				// 2045.00 × 2068.05/2048.76 × 2030.00/2008.33 = 2086.52803…
				if x := b.bar(t, "2022-06-30"); x.Close != 2086.528 {
					t.Fatalf("2022-06-30 backward = %+v", x)
				}
			})
			t.Run("as_of before the sample was retrieved sees no bar", func(t *testing.T) {
				b := get("/china/prices?code=600519.SH&as_of=2026-11-25")
				if len(b.Bars) != 0 || b.Meta.Count != 0 || b.Meta.AsOf != "2026-11-25T23:59:59.999999Z" {
					t.Fatalf("as_of 2026-11-25 = %+v", b)
				}
			})
			t.Run("pages, oldest first", func(t *testing.T) {
				b := get("/china/prices?code=600519.SH&limit=2&offset=1")
				if len(b.Bars) != 2 || b.Bars[0].TradeDate != "2021-06-02" || b.Meta.NextOffset == nil || *b.Meta.NextOffset != 3 {
					t.Fatalf("page = %+v meta %+v", b.Bars, b.Meta)
				}
				b = get("/china/prices?code=600519.SH&limit=1000")
				if len(b.Bars) != 264 || b.Meta.NextOffset != nil || b.Bars[263].TradeDate != "2022-07-01" {
					t.Fatalf("whole sample: %d bars, meta %+v", len(b.Bars), b.Meta)
				}
			})
		})
	}
}

func TestChinaPricesRefusalsAreNotCharged(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "li@example.com")
			cases := []refusal{
				{"/china/prices", http.StatusUnprocessableEntity, "code is required"},
				{"/china/prices?code=600519", http.StatusUnprocessableEntity, "did you mean SSE.600519"},
				{"/china/prices?code=600519.SZ", http.StatusUnprocessableEntity, "SSE.600519"},
				{"/china/prices?code=999999.SH", http.StatusUnprocessableEntity, "no mainland exchange"},
				{"/china/prices?code=600519.HK", http.StatusUnprocessableEntity, "600519.SH"},
				{"/china/prices?code=SSE.600519&start_date=2022-07-01&end_date=2022-06-30", http.StatusBadRequest, "after end_date"},
				{"/china/prices?code=SSE.600519&start_date=20220701", http.StatusUnprocessableEntity, "start_date"},
				{"/china/prices?code=SSE.600519&adjust=qfq", http.StatusUnprocessableEntity, "adjust"},
				{"/china/prices?code=SSE.600519&limit=0", http.StatusUnprocessableEntity, "limit"},
				{"/china/prices?code=SSE.600519&limit=1001", http.StatusUnprocessableEntity, "limit"},
				{"/china/prices?code=SSE.600519&offset=-1", http.StatusUnprocessableEntity, "offset"},
				{"/china/prices?code=SSE.600519&as_of=soon", http.StatusUnprocessableEntity, "as_of"},
				{"/china/prices?code=SZSE.000002", http.StatusNotFound, "SZSE.000002"},
			}
			expectUncharged(t, c, key, 100000, cases)
			st := credits(t, c, session)
			// Only the 404 was debited, and it was refunded.
			if st.Balance != 100000 || len(st.Ledger) != 3 || st.Ledger[0].Kind != "refund" {
				t.Fatalf("statement after failures = %+v", st)
			}
			r := c.do("GET", "/china/prices?code=000001.SZ", nil, apiKey(key)).expect(t, http.StatusOK)
			if r.Header.Get("X-Credits-Cost") != "1" || r.Header.Get("X-Credits-Remaining") != "99999" {
				t.Fatalf("success credit headers %q/%q", r.Header.Get("X-Credits-Cost"), r.Header.Get("X-Credits-Remaining"))
			}
		})
	}
}

// moutaiDays are real Tushare daily rows of 600519.SH (the sample's), one
// file per trading day as a daily download would write them.
var moutaiDays = map[string]string{
	"2022-06-29": "600519.SH,20220629,2028.0,2042.0,2011.01,2030.0,2036.0,-6.0,-0.2947,30360.12,6142508.408",
	"2022-06-30": "600519.SH,20220630,2000.0,2077.0,1999.99,2045.0,2008.33,36.67,1.8259,38982.43,7984019.438",
	"2022-07-01": "600519.SH,20220701,2055.0,2067.77,2015.21,2029.05,2045.0,-15.95,-0.78,21596.45,4385555.299",
}

const tushareHeader = "ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n"

// writeDay writes one day's file, modified (retrieved) at 16:00 China
// time that day, an hour after the close.
func writeDay(t *testing.T, dir, day string) string {
	t.Helper()
	name := filepath.Join(dir, "600519.SH_"+day+".csv")
	if err := os.WriteFile(name, []byte(tushareHeader+moutaiDays[day]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _ := time.Parse(time.DateOnly, day)
	mtime := d.Add(8 * time.Hour) // 16:00 in Beijing is 08:00 UTC
	if err := os.Chtimes(name, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestChinaPricesPointInTime ingests real bars as daily files retrieved an
// hour after each close, into MongoDB, and shows forward-adjusted prices
// as a user saw them on each day: the ex-date rescales history only from
// the day its bar was known.
func TestChinaPricesPointInTime(t *testing.T) {
	c, cfg := startApp(t, onDatabases)
	_, key := signIn(t, c, "zhao@example.com")
	get := pricesGetter(t, c, key)
	dir := t.TempDir()
	var files []string
	for _, day := range []string{"2022-06-29", "2022-06-30", "2022-07-01"} {
		files = append(files, writeDay(t, dir, day))
	}
	for range 2 { // the second run changes nothing
		var out bytes.Buffer
		if err := cli.Ingest(context.Background(), cfg, "china_prices", files, &out, nil); err != nil {
			t.Fatalf("ingest: %v\n%s", err, out.String())
		}
	}
	const q = "/china/prices?code=600519.SH&start_date=2022-06-29&end_date=2022-07-01&adjust=forward&as_of="
	// On 2022-06-29 (as_of is the end of the day UTC) only that day was
	// known, unadjusted by an ex-date still to come.
	b := get(q + "2022-06-29")
	if len(b.Bars) != 1 || b.Bars[0].Close != 2030 || b.Bars[0].AdjustFactor != 1 {
		t.Fatalf("as of 2022-06-29: %+v", b.Bars)
	}
	// From the ex-date's bar on, 2022-06-29 reads 2030.00 × 2008.33/2030.00.
	b = get(q + "2022-06-30")
	if len(b.Bars) != 2 || b.Bars[0].Close != 2008.33 || b.Bars[1].Close != 2045 {
		t.Fatalf("as of 2022-06-30: %+v", b.Bars)
	}
	// Just before the 2022-06-30 file was retrieved (08:00 UTC), the
	// ex-date was unknown.
	b = get(q + "2022-06-30T07:59:59Z")
	if len(b.Bars) != 1 || b.Bars[0].Close != 2030 {
		t.Fatalf("as of 2022-06-30T07:59:59Z: %+v", b.Bars)
	}
	if b = get(q + "2022-07-01"); len(b.Bars) != 3 || b.Bars[0].Close != 2008.33 {
		t.Fatalf("as of 2022-07-01: %+v", b.Bars)
	}
	// The sample's copy of these days, retrieved in 2026 with the same
	// figures, changes nothing of what is served.
	if b = get(q[:len(q)-len("&as_of=")]); len(b.Bars) != 3 || b.Bars[0].Close != 2008.33 {
		t.Fatalf("now: %+v", b.Bars)
	}
}

// TestChinaPricesIngestRefusesBadFiles shows a truncated file refused with
// its name, line and reason, and nothing of the run written.
func TestChinaPricesIngestRefusesBadFiles(t *testing.T) {
	c, cfg := startApp(t, onDatabases)
	_, key := signIn(t, c, "qian@example.com")
	dir := t.TempDir()
	good := writeDay(t, dir, "2022-06-29")
	bad := filepath.Join(dir, "000001.SZ.csv")
	row := "000001.SZ,20220722,12.84,12.93,12.62,12.81,12.78,0.03,0.23,1376509.74,1755555.71\n"
	if err := os.WriteFile(bad, []byte(tushareHeader+row+row[:30]), 0o644); err != nil {
		t.Fatal(err)
	}
	// china-prices is the name before B66, still taken as an alias.
	err := cli.Ingest(context.Background(), cfg, "china-prices", []string{good, bad}, io.Discard, nil)
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "000001.SZ.csv:3") {
		t.Fatalf("ingest of a truncated file = %v", err)
	}
	// The good file before it was not written either: 2022-06-29 is still
	// known only from the sample's 2026 retrieval.
	var b pricesBody
	c.do("GET", "/china/prices?code=600519.SH&as_of=2022-07-01", nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &b)
	if len(b.Bars) != 0 {
		t.Fatalf("bars written by a refused run: %+v", b.Bars)
	}
}
