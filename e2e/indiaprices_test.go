package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// TestMongoIndiaPricesTwoWriters has a store write into a year bucket
// another store created after it had read what was held, the path a batch
// applied in part takes too: the bucket's insert fails as a duplicate, and
// the store reads it and merges rather than losing either's versions.
func TestMongoIndiaPricesTwoWriters(t *testing.T) {
	ctx := context.Background()
	db := mongoDatabase(t)
	first, second := mongo.NewIndiaPrices(db), mongo.NewIndiaPrices(db)
	at := time.Date(2021, 6, 10, 0, 0, 0, 0, time.UTC)
	// Real NSE EQ rows of Reliance Industries (the sample's legacy
	// bhavcopy, turnover in INR).
	rows := []nse.Row{
		{Symbol: "RELIANCE", Date: "2017-12-01", PrevClose: 921.55, Open: 924.45, High: 931.25, Low: 907.7, Last: 909.5, Close: 910.1, Volume: 5081389, Turnover: 4665846806.05, Trades: 101581},
		{Symbol: "RELIANCE", Date: "2021-06-01", PrevClose: 2160.3, Open: 2166, High: 2202, Low: 2146.5, Last: 2164.3, Close: 2168.9, Volume: 12928379, Turnover: 28138892609, Trades: 390299},
		{Symbol: "RELIANCE", Date: "2021-06-02", PrevClose: 2168.9, Open: 2157, High: 2209.5, Low: 2157, Last: 2207, Close: 2201.25, Volume: 11366816, Turnover: 24764187584.75, Trades: 258490},
		{Symbol: "RELIANCE", Date: "2021-06-03", PrevClose: 2201.25, Open: 2221, High: 2250, Low: 2196.1, Last: 2208, Close: 2209.65, Volume: 11064116, Turnover: 24578878322.8, Trades: 341728},
	}
	for i := range rows {
		rows[i].Series, rows[i].ISIN, rows[i].Source, rows[i].KnownAt = "EQ", "INE002A01018", "bhav.csv", at
	}
	must(t, first.Add(ctx, rows[:1]))
	must(t, second.Add(ctx, rows[1:2]))
	must(t, first.Add(ctx, rows[2:]))
	for _, s := range []*mongo.IndiaPrices{first, second, mongo.NewIndiaPrices(db)} {
		var got []nse.Row
		for r, err := range s.Rows(ctx, ports.IndiaRowQuery{ISIN: "INE002A01018", Series: "EQ", AsOf: at}) {
			must(t, err)
			got = append(got, r)
		}
		if !reflect.DeepEqual(got, rows) {
			t.Fatalf("Rows = %+v\nwant %+v", got, rows)
		}
		if n, err := s.Count(ctx); err != nil || n != 4 {
			t.Fatalf("Count = %d, %v", n, err)
		}
		if isin, err := s.ISINOf(ctx, "RELIANCE", "EQ", "2021-06-02", at); err != nil || isin != "INE002A01018" {
			t.Fatalf("ISINOf = %s, %v", isin, err)
		}
	}
}

// TestMongoIndiaPricesManyParts adds versions of one year in more writes
// than a bucket keeps parts for, so the year is rewritten into one part:
// every version stays readable, in its place, with the right count.
func TestMongoIndiaPricesManyParts(t *testing.T) {
	ctx := context.Background()
	s := mongo.NewIndiaPrices(mongoDatabase(t))
	at := time.Date(2021, 6, 10, 0, 0, 0, 0, time.UTC)
	// Reliance's real 2021-06-01 EQ row, as if retrieved again at each of
	// 12 moments a millisecond apart, each copy from a file of its own.
	row := nse.Row{Symbol: "RELIANCE", Series: "EQ", ISIN: "INE002A01018", Date: "2021-06-01", PrevClose: 2160.3, Open: 2166, High: 2202,
		Low: 2146.5, Last: 2164.3, Close: 2168.9, Volume: 12928379, Turnover: 28138892609, Trades: 390299}
	for i := range 12 {
		r := row
		r.KnownAt, r.Source = at.Add(time.Duration(i)*time.Millisecond), "copy"+strconv.Itoa(i)+".csv"
		must(t, s.Add(ctx, []nse.Row{r}))
	}
	for i := range 12 {
		var got []nse.Row
		for r, err := range s.Rows(ctx, ports.IndiaRowQuery{ISIN: row.ISIN, Series: "EQ", AsOf: at.Add(time.Duration(i) * time.Millisecond)}) {
			must(t, err)
			got = append(got, r)
		}
		if len(got) != 1 || got[0].Source != "copy"+strconv.Itoa(i)+".csv" {
			t.Fatalf("as of copy %d: %+v", i, got)
		}
	}
	if n, err := s.Count(ctx); err != nil || n != 12 {
		t.Fatalf("Count = %d, %v", n, err)
	}
	if day, err := s.OnDate(ctx, row.Date); err != nil || len(day) != 12 {
		t.Fatalf("OnDate held %d versions, %v", len(day), err)
	}
}

type indiaRow struct {
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

type indiaBody struct {
	Rows []indiaRow `json:"rows"`
	Meta struct {
		Jurisdiction string `json:"jurisdiction"`
		Count        int    `json:"count"`
		NextOffset   *int   `json:"next_offset"`
		AsOf         string `json:"as_of"`
		Provenance   struct {
			RetrievedAt string `json:"retrieved_at"`
			Licence     string `json:"licence"`
		} `json:"provenance"`
	} `json:"meta"`
}

func (b indiaBody) dates() string {
	var d []string
	for _, r := range b.Rows {
		d = append(d, r.Symbol+"@"+r.Date)
	}
	return strings.Join(d, " ")
}

func indiaGetter(t *testing.T, c *client, key string) func(path string) indiaBody {
	return func(path string) indiaBody {
		t.Helper()
		var b indiaBody
		c.do("GET", path, nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &b)
		return b
	}
}

// coforge is the ISIN of Coforge Ltd, traded as NIITTECH until its 2020
// rename: the sample holds it under both symbols (legacy bhavcopy, Dec
// 2017 and May-Jun 2021).
const coforge = "INE591G01017"

// The figures below are real rows of the bundled sample.
func TestIndiaPrices(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			_, key := signIn(t, c, "asha@example.com")
			get := indiaGetter(t, c, key)
			t.Run("a row as published, turnover in rupees", func(t *testing.T) {
				b := get("/india/prices?symbol=coforge&start_date=2021-06-01&end_date=2021-06-01")
				last := 3594.0
				want := indiaRow{Symbol: "COFORGE", Series: "EQ", ISIN: coforge, Date: "2021-06-01", Open: 3540, High: 3598, Low: 3505.9,
					Close: 3588.6, Last: &last, PrevClose: 3529.4, Volume: 428643, Turnover: 1524532297.95, Trades: 26472}
				if len(b.Rows) != 1 || b.Rows[0].Last == nil || *b.Rows[0].Last != last {
					t.Fatalf("rows = %+v", b.Rows)
				}
				b.Rows[0].Last = &last
				if b.Rows[0] != want {
					t.Fatalf("2021-06-01 = %+v\nwant %+v", b.Rows[0], want)
				}
				m := b.Meta
				if m.Jurisdiction != "IN" || m.Count != 1 || m.NextOffset != nil || m.Provenance.RetrievedAt != "2026-11-26T00:00:00Z" ||
					!strings.Contains(m.Provenance.Licence, "internal use only") {
					t.Fatalf("meta = %+v", m)
				}
			})
			t.Run("a renamed security keeps its history under either symbol and its ISIN", func(t *testing.T) {
				byNew := get("/india/prices?symbol=COFORGE&limit=1000")
				byOld := get("/india/prices?symbol=NIITTECH&limit=1000")
				byISIN := get("/india/prices?isin=ine591g01017&limit=1000")
				want := "NIITTECH@2017-12-01 NIITTECH@2017-12-04 NIITTECH@2017-12-05 NIITTECH@2017-12-06 NIITTECH@2017-12-07 NIITTECH@2017-12-08 " +
					"COFORGE@2021-05-31 COFORGE@2021-06-01 COFORGE@2021-06-02 COFORGE@2021-06-03 COFORGE@2021-06-04"
				for _, b := range []indiaBody{byNew, byOld, byISIN} {
					if b.dates() != want {
						t.Fatalf("history = %s", b.dates())
					}
				}
				// Before the rename, COFORGE named nothing yet.
				r := c.do("GET", "/india/prices?symbol=COFORGE&end_date=2017-12-31", nil, apiKey(key)).expect(t, http.StatusNotFound)
				if !strings.Contains(string(r.Body), "COFORGE") {
					t.Fatalf("404 says %s", r.Body)
				}
				if b := get("/india/prices?symbol=NIITTECH&end_date=2017-12-31"); len(b.Rows) != 6 {
					t.Fatalf("NIITTECH to 2017: %s", b.dates())
				}
			})
			t.Run("a day in two layouts is one row", func(t *testing.T) {
				// 2024-07-01 is in the sample as the legacy and the UDiFF
				// bhavcopy, 2026-08-28 as the UDiFF and the full bhavcopy.
				b := get("/india/prices?symbol=ABB&start_date=2024-07-01&end_date=2024-07-01")
				last := 8637.0
				want := indiaRow{Symbol: "ABB", Series: "EQ", ISIN: "INE117A01022", Date: "2024-07-01", Open: 8490.9, High: 8645.85, Low: 8461.35,
					Close: 8587.4, Last: &last, PrevClose: 8490.9, Volume: 251582, Turnover: 2147320207.3, Trades: 38366}
				if len(b.Rows) != 1 || b.Rows[0].Last == nil || *b.Rows[0].Last != last {
					t.Fatalf("rows = %+v", b.Rows)
				}
				b.Rows[0].Last = &last
				if b.Rows[0] != want {
					t.Fatalf("2024-07-01 = %+v\nwant %+v", b.Rows[0], want)
				}
				// The UDiFF's exact turnover, not the full bhavcopy's 40885.50 lakhs.
				b = get("/india/prices?symbol=AXISBANK&start_date=2026-08-28&end_date=2026-08-28")
				if len(b.Rows) != 1 || b.Rows[0].Turnover != 4088549528.7 || b.Rows[0].ISIN != "INE238A01034" {
					t.Fatalf("2026-08-28 = %+v", b.Rows)
				}
			})
			t.Run("series", func(t *testing.T) {
				if b := get("/india/prices?isin=INE002A01018&series=eq&limit=1"); len(b.Rows) != 1 || b.Rows[0].Series != "EQ" {
					t.Fatalf("series=eq: %+v", b.Rows)
				}
			})
			t.Run("pages, oldest first", func(t *testing.T) {
				b := get("/india/prices?isin=" + coforge + "&limit=2&offset=5")
				if b.dates() != "NIITTECH@2017-12-08 COFORGE@2021-05-31" || b.Meta.NextOffset == nil || *b.Meta.NextOffset != 7 {
					t.Fatalf("page = %s meta %+v", b.dates(), b.Meta)
				}
				if b := get("/india/prices?isin=" + coforge + "&limit=4&offset=7"); len(b.Rows) != 4 || b.Meta.NextOffset != nil {
					t.Fatalf("last page = %s meta %+v", b.dates(), b.Meta)
				}
			})
			t.Run("as_of before the sample was retrieved", func(t *testing.T) {
				b := get("/india/prices?isin=" + coforge + "&as_of=2026-11-25")
				if len(b.Rows) != 0 || b.Meta.AsOf != "2026-11-25T23:59:59.999999Z" {
					t.Fatalf("as_of 2026-11-25 = %+v", b)
				}
				// No row carrying the symbol was known then.
				c.do("GET", "/india/prices?symbol=COFORGE&as_of=2026-11-25", nil, apiKey(key)).expect(t, http.StatusNotFound)
			})
			t.Run("no row in the range is a successful answer at the route's cost, JSON and CSV alike", func(t *testing.T) {
				// COFORGE's ISIN has rows, none in 2019 (spec-gaps B194).
				q := "?isin=" + coforge + "&start_date=2019-01-01&end_date=2019-12-31"
				r := c.do("GET", "/india/prices"+q, nil, apiKey(key)).expect(t, http.StatusOK)
				var page indiaBody
				if r.JSON(t, &page); len(page.Rows) != 0 || r.Header.Get("X-Credits-Cost") != "1" {
					t.Fatalf("empty page (cost %q): %s", r.Header.Get("X-Credits-Cost"), r.Body)
				}
				r = c.do("GET", "/india/prices.csv"+q, nil, apiKey(key)).expect(t, http.StatusOK)
				if string(r.Body) != "symbol,series,isin,date,open,high,low,close,last,prev_close,volume,turnover,trades\n" || r.Header.Get("X-Credits-Cost") != "25" {
					t.Fatalf("empty CSV (cost %q):\n%s", r.Header.Get("X-Credits-Cost"), r.Body)
				}
			})
			t.Run("CSV: the whole range streamed, as the JSON rows", func(t *testing.T) {
				r := c.do("GET", "/india/prices.csv?symbol=NIITTECH", nil, apiKey(key)).expect(t, http.StatusOK)
				if r.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
					r.Header.Get("Content-Disposition") != `attachment; filename="NSE_NIITTECH_EQ_all_all.csv"` || r.Header.Get("X-Credits-Cost") != "25" {
					t.Fatalf("headers %v", r.Header)
				}
				lines := strings.Split(strings.TrimSuffix(string(r.Body), "\n"), "\n")
				if len(lines) != 12 || lines[0] != "symbol,series,isin,date,open,high,low,close,last,prev_close,volume,turnover,trades" ||
					lines[8] != "COFORGE,EQ,INE591G01017,2021-06-01,3540,3598,3505.9,3588.6,3594,3529.4,428643,1524532297.95,26472" {
					t.Fatalf("CSV:\n%s", r.Body)
				}
				r = c.do("GET", "/india/prices.csv?isin="+coforge+"&start_date=2021-06-02&end_date=2021-06-03", nil, apiKey(key)).expect(t, http.StatusOK)
				if n := strings.Count(string(r.Body), "\n"); n != 3 ||
					r.Header.Get("Content-Disposition") != `attachment; filename="NSE_INE591G01017_EQ_2021-06-02_2021-06-03.csv"` {
					t.Fatalf("ranged CSV (%q):\n%s", r.Header.Get("Content-Disposition"), r.Body)
				}
				// A debt row without a last price leaves the field empty.
				r = c.do("GET", "/india/prices.csv?isin=INE881J08623&series=NT&start_date=2021-06-01&end_date=2021-06-01", nil, apiKey(key)).expect(t, http.StatusOK)
				if !strings.Contains(string(r.Body), "\nSREIBNPNCD,NT,INE881J08623,2021-06-01,547,547,381,381,,456,18,9348,6\n") {
					t.Fatalf("NT row:\n%s", r.Body)
				}
			})
		})
	}
}

func TestIndiaPricesRefusalsAreNotCharged(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "ravi@example.com")
			var cases []refusal
			for _, route := range []string{"/india/prices", "/india/prices.csv"} {
				cases = append(cases,
					refusal{route, http.StatusBadRequest, "exactly one of symbol"},
					refusal{route + "?symbol=TCS&isin=INE467B01029", http.StatusBadRequest, "exactly one of symbol"},
					refusal{route + "?symbol=TCS&start_date=2021-06-04&end_date=2021-06-01", http.StatusBadRequest, "after end_date"},
					refusal{route + "?isin=INE467B01028", http.StatusUnprocessableEntity, "check digit"},
					refusal{route + "?isin=TCS", http.StatusUnprocessableEntity, "isin"},
					refusal{route + "?symbol=TCS%21", http.StatusUnprocessableEntity, "symbol"},
					refusal{route + "?symbol=TCS&series=EQUITY", http.StatusUnprocessableEntity, "series"},
					refusal{route + "?symbol=TCS&start_date=01-06-2021", http.StatusUnprocessableEntity, "start_date"},
					refusal{route + "?symbol=TCS&as_of=soon", http.StatusUnprocessableEntity, "as_of"},
					refusal{route + "?symbol=NOSUCHCO", http.StatusNotFound, "NOSUCHCO"},
					refusal{route + "?isin=INE467B01029&series=BE", http.StatusNotFound, "INE467B01029"},
				)
			}
			cases = append(cases,
				refusal{"/india/prices?symbol=TCS&limit=0", http.StatusUnprocessableEntity, "limit"},
				refusal{"/india/prices?symbol=TCS&limit=1001", http.StatusUnprocessableEntity, "limit"},
				refusal{"/india/prices?symbol=TCS&offset=-1", http.StatusUnprocessableEntity, "offset"},
			)
			expectUncharged(t, c, key, 100000, cases)
			st := credits(t, c, session)
			// The four 404s were debited and refunded.
			if st.Balance != 100000 || len(st.Ledger) != 9 || st.Ledger[0].Kind != "refund" {
				t.Fatalf("statement after failures = %+v", st)
			}
			r := c.do("GET", "/india/prices?symbol=TCS", nil, apiKey(key)).expect(t, http.StatusOK)
			if r.Header.Get("X-Credits-Cost") != "1" || r.Header.Get("X-Credits-Remaining") != "99999" {
				t.Fatalf("success credit headers %q/%q", r.Header.Get("X-Credits-Cost"), r.Header.Get("X-Credits-Remaining"))
			}
		})
	}
}

// TestIndiaPricesNeedIndiaRead revokes india:read from a key: both routes
// then answer 403 and charge nothing.
func TestIndiaPricesNeedIndiaRead(t *testing.T) {
	c, cfg := startApp(t, onDatabases)
	session, key := signIn(t, c, "meera@example.com")
	c.do("GET", "/india/prices?symbol=TCS", nil, apiKey(key)).expect(t, http.StatusOK)
	if err := cli.SetKeyScope(context.Background(), cfg, onlyKey(t, c, session).KeyID, "india:read", false, io.Discard); err != nil {
		t.Fatal(err)
	}
	// The revocation reaches the key cache through PostgreSQL's
	// notification; wait for it.
	deadline := time.Now().Add(10 * time.Second)
	for c.do("GET", "/india/prices?symbol=TCS", nil, apiKey(key)).Status == http.StatusOK && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	before := credits(t, c, session).Balance
	for _, path := range []string{"/india/prices?symbol=TCS", "/india/prices.csv?symbol=TCS"} {
		r := c.do("GET", path, nil, apiKey(key)).expect(t, http.StatusForbidden)
		if !strings.Contains(string(r.Body), "india:read") || r.Header.Get("X-Credits-Cost") != "0" {
			t.Fatalf("%s: %s (cost %q)", path, r.Body, r.Header.Get("X-Credits-Cost"))
		}
	}
	if after := credits(t, c, session).Balance; after != before {
		t.Fatalf("balance %d → %d", before, after)
	}
}

// sampleFile writes one file of the bundled sample's zips to dir,
// modified (retrieved) at mtime.
func sampleFile(t *testing.T, dir, archive, name string, mtime time.Time) string {
	t.Helper()
	data, err := fs.ReadFile(sampledata.IndiaPrices, sampledata.IndiaPricesDir+"/"+archive)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	body, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestIndiaPricesPointInTime ingests real NSE day files retrieved an hour
// after each close, in both layouts for the same days, into MongoDB: each
// day is known from its retrieval, the two layouts give the same rows, and
// a second run changes nothing.
func TestIndiaPricesPointInTime(t *testing.T) {
	c, cfg := startApp(t, onDatabases)
	_, key := signIn(t, c, "kiran@example.com")
	get := indiaGetter(t, c, key)
	dir := t.TempDir()
	// 16:30 India time is 11:00 UTC.
	day3 := time.Date(2021, 6, 3, 11, 0, 0, 0, time.UTC)
	day4 := day3.Add(24 * time.Hour)
	files := []string{
		sampleFile(t, dir, "nse_legacy_bhavcopy.zip", "cm03JUN2021bhav.csv", day3),
		sampleFile(t, dir, "nse_full_bhavcopy.zip", "sec_bhavdata_full_03062021.csv", day3),
		sampleFile(t, dir, "nse_full_bhavcopy.zip", "sec_bhavdata_full_04062021.csv", day4),
		sampleFile(t, dir, "nse_legacy_bhavcopy.zip", "cm04JUN2021bhav.csv", day4),
	}
	var outs []string
	for range 2 {
		var out bytes.Buffer
		if err := cli.Ingest(context.Background(), cfg, "india_prices", files, &out, nil); err != nil {
			t.Fatalf("ingest: %v\n%s", err, out.String())
		}
		outs = append(outs, out.String())
	}
	if !strings.Contains(outs[1], "wrote 0 new or changed") {
		t.Fatalf("the second run wrote something:\n%s", outs[1])
	}
	const q = "/india/prices?isin=INE002A01018&start_date=2021-06-01&end_date=2021-06-04&as_of="
	if b := get(q + "2021-06-03T10:59:59Z"); len(b.Rows) != 0 {
		t.Fatalf("before the first file was retrieved: %s", b.dates())
	}
	b := get(q + "2021-06-03")
	// Both layouts hold the day; the full bhavcopy's turnover (lakhs)
	// agrees with the legacy's rupees, which are served.
	if len(b.Rows) != 1 || b.Rows[0].Date != "2021-06-03" || b.Rows[0].Turnover != legacyTurnover(t, files[0], "RELIANCE,EQ,") {
		t.Fatalf("as of 2021-06-03: %+v", b.Rows)
	}
	if b := get(q + "2021-06-04"); b.dates() != "RELIANCE@2021-06-03 RELIANCE@2021-06-04" {
		t.Fatalf("as of 2021-06-04: %s", b.dates())
	}
	// The sample's 2026 copies change nothing that is served now.
	if b := get(q[:len(q)-len("&as_of=")]); len(b.Rows) != 4 {
		t.Fatalf("now: %s", b.dates())
	}
}

// legacyTurnover reads TOTTRDVAL of the row starting with prefix.
func legacyTurnover(t *testing.T, path, prefix string) float64 {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, prefix) {
			v, err := strconv.ParseFloat(strings.Split(line, ",")[9], 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatalf("no %s row in %s", prefix, path)
	return 0
}

// TestIndiaPricesIngestRefusesBadFiles shows a truncated file refused with
// its name, line and reason, and nothing of the run written.
func TestIndiaPricesIngestRefusesBadFiles(t *testing.T) {
	c, cfg := startApp(t, onDatabases)
	_, key := signIn(t, c, "dev@example.com")
	dir := t.TempDir()
	good := sampleFile(t, dir, "nse_legacy_bhavcopy.zip", "cm03JUN2021bhav.csv", time.Date(2021, 6, 3, 11, 0, 0, 0, time.UTC))
	whole := sampleFile(t, dir, "nse_legacy_bhavcopy.zip", "cm04JUN2021bhav.csv", time.Date(2021, 6, 4, 11, 0, 0, 0, time.UTC))
	body, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "cm04JUN2021bhav_cut.csv")
	if err := os.WriteFile(bad, body[:len(body)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	err = cli.Ingest(context.Background(), cfg, "india_prices", []string{good, bad}, io.Discard, nil)
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "cm04JUN2021bhav_cut.csv:") {
		t.Fatalf("ingest of a truncated file = %v", err)
	}
	var b indiaBody
	c.do("GET", "/india/prices?isin=INE002A01018&as_of=2021-06-30", nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &b)
	if len(b.Rows) != 0 {
		t.Fatalf("rows written by a refused run: %s", b.dates())
	}
}
