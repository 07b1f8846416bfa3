package e2e

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/sampledata"
)

// The published lists, as the repository holds them (sources in
// sampledata/README.md): Tushare's stock_basic of every listed A-share and
// the SZSE's A股列表.xlsx of 2025-12-30.
const (
	tushareStockBasic = "../sampledata/tushare_stock_basic.csv"
	szseList          = "../adapters/asharelistings/testdata/szse_a_share_list.xlsx"
)

// listingDocs reads every stored listing, in code order, as extended JSON.
func listingDocs(t *testing.T, cfg bootstrap.Config) []string {
	t.Helper()
	cur, err := servers.mongo.Database(cfg.MongoDB).Collection("china_securities").
		Find(context.Background(), bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.Raw
	if err := cur.All(context.Background(), &docs); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.String()
	}
	return out
}

func ingestListings(t *testing.T, cfg bootstrap.Config, files ...string) (string, time.Duration) {
	t.Helper()
	var out bytes.Buffer
	start := time.Now()
	if err := cli.Ingest(context.Background(), cfg, "china_securities", files, &out, nil); err != nil {
		t.Fatalf("ingest %v: %v", files, err)
	}
	return strings.TrimSpace(out.String()), time.Since(start)
}

// TestChinaSecuritiesIngestPublishedLists loads the real Tushare list of
// 5,524 listings into FerretDB, then again (nothing changes), then the
// SZSE's own list over it (its 34 B-shares skipped and counted), and
// serves what was loaded.
func TestChinaSecuritiesIngestPublishedLists(t *testing.T) {
	cfg := appConfig(t, stack{mongo: true})

	summary, took := ingestListings(t, cfg, tushareStockBasic)
	want := "ingested china_securities into " + cfg.MongoDB + ": read 5524 records, wrote 5524 new or changed, 0 unchanged" +
		"; skipped 0 B-shares, 0 codes outside the A-share ranges, 0 without a listing date"
	if summary != want {
		t.Fatalf("summary %q, want %q", summary, want)
	}
	t.Logf("Tushare stock_basic, 5,524 rows into an empty collection: %v, %.0f rows/s", took.Round(time.Millisecond), 5524/took.Seconds())
	first := listingDocs(t, cfg)
	if len(first) != 5524 {
		t.Fatalf("%d listings stored", len(first))
	}

	_, took = ingestListings(t, cfg, tushareStockBasic)
	t.Logf("the same file again: %v, %.0f rows/s", took.Round(time.Millisecond), 5524/took.Seconds())
	if again := listingDocs(t, cfg); strings.Join(again, "\n") != strings.Join(first, "\n") {
		t.Fatal("ingesting the same file twice changed the stored listings")
	}

	summary, took = ingestListings(t, cfg, szseList)
	want = "ingested china_securities into " + cfg.MongoDB + ": read 2880 records, wrote 2880 new or changed, 0 unchanged" +
		"; skipped 34 B-shares, 0 codes outside the A-share ranges, 0 without a listing date"
	if summary != want {
		t.Fatalf("summary %q, want %q", summary, want)
	}
	t.Logf("SZSE A股列表.xlsx, 2,880 rows over them: %v", took.Round(time.Millisecond))
	// 5 SZSE listings were not in the Tushare list.
	if n := len(listingDocs(t, cfg)); n != 5529 {
		t.Fatalf("%d listings stored after the SZSE list, want 5529", n)
	}

	c := serveApp(t, cfg)
	_, key := signIn(t, c, "lu@example.com")
	for path, body := range map[string]string{
		"/china/securities/SSE.600519":  `{"security":{"code":"SSE.600519","exchange":"SSE","board":"main","company_name":"贵州茅台","listing_date":"2001-08-27","delisting_date":null,"listed":true}}`,
		"/china/securities/BSE.920185":  `{"security":{"code":"BSE.920185","exchange":"BSE","board":"bse","company_name":"贝特瑞","listing_date":"2020-07-27","delisting_date":null,"listed":true}}`,
		"/china/securities/SZSE.302132": `{"security":{"code":"SZSE.302132","exchange":"SZSE","board":"chinext","company_name":"中航成飞","english_name":"AVIC CHENGDU AIRCRAFT COMPANY LIMITED","listing_date":"2010-08-27","delisting_date":null,"listed":true}}`,
		// The SZSE's list is the later one: 万科's name without its padding,
		// and the English names it gives, which Tushare's stock_basic lacks.
		"/china/securities/SZSE.000002": `{"security":{"code":"SZSE.000002","exchange":"SZSE","board":"main","company_name":"万科Ａ","english_name":"CHINA VANKE CO., LTD.","listing_date":"1991-01-29","delisting_date":null,"listed":true}}`,
	} {
		got := c.do("GET", path, nil, apiKey(key)).expect(t, http.StatusOK)
		if strings.TrimSpace(string(got.Body)) != body {
			t.Errorf("%s = %s, want %s", path, got.Body, body)
		}
	}
	c.do("GET", "/china/securities/SZSE.200011", nil, apiKey(key)).expect(t, http.StatusUnprocessableEntity)
	searchPublishedLists(t, c, key)
}

// searchPublishedLists searches the 5,529 listings the published lists
// hold, on FerretDB: by name, code prefix, exchange and board, paged, and
// a vendor-form code refused naming the qualified one.
func searchPublishedLists(t *testing.T, c *client, key string) {
	t.Helper()
	type page struct {
		Securities []struct {
			Code string `json:"code"`
		} `json:"securities"`
		Meta struct {
			Count      int  `json:"count"`
			NextOffset *int `json:"next_offset"`
		} `json:"meta"`
	}
	codes := func(path string) (string, page) {
		var p page
		start := time.Now()
		c.do("GET", path, nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &p)
		t.Logf("GET %s: %d listings in %v", path, p.Meta.Count, time.Since(start).Round(time.Millisecond))
		var out []string
		for _, s := range p.Securities {
			out = append(out, s.Code)
		}
		return strings.Join(out, " "), p
	}
	for path, want := range map[string]string{
		"/china/securities?name=茅台":                    "SSE.600519",
		"/china/securities?name=万科A":                   "SZSE.000002",
		"/china/securities?name=china%20vanke":         "SZSE.000002",
		"/china/securities?code=30213":                 "SZSE.302132",
		"/china/securities?code=SZSE.00000&board=main": "SZSE.000001 SZSE.000002 SZSE.000004 SZSE.000006 SZSE.000007 SZSE.000008 SZSE.000009",
		"/china/securities?exchange=bse&code=920185":   "BSE.920185",
		"/china/securities?board=star&code=SSE.68898":  "SSE.688981",
		"/china/securities?listed=false":               "",
	} {
		if got, _ := codes(path); got != want {
			t.Errorf("GET %s: %s, want %s", path, got, want)
		}
	}
	first, p := codes("/china/securities?exchange=SSE&limit=1000")
	if p.Meta.Count != 1000 || p.Meta.NextOffset == nil || *p.Meta.NextOffset != 1000 || !strings.HasPrefix(first, "SSE.600000 ") {
		t.Errorf("first page of SSE: %d listings, next %v, from %.30s", p.Meta.Count, p.Meta.NextOffset, first)
	}
	var refused struct {
		Message    string `json:"message"`
		DidYouMean string `json:"did_you_mean"`
	}
	c.do("GET", "/china/securities?code=600519.SH", nil, apiKey(key)).expect(t, http.StatusUnprocessableEntity).JSON(t, &refused)
	if refused.DidYouMean != "SSE.600519" || !strings.Contains(refused.Message, "did you mean SSE.600519?") {
		t.Errorf("a vendor-form code: %+v", refused)
	}
}

// TestChinaSecuritiesIngestDelistedAndRefused loads a delisting from
// Tushare's layout with list_status and delist_date, and shows a truncated
// list refused with its line, the run writing nothing, and a legacy .xls
// refused by its signature.
func TestChinaSecuritiesIngestDelistedAndRefused(t *testing.T) {
	cfg := appConfig(t, stack{mongo: true})
	dir := t.TempDir()
	write := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A constructed row with LeTV's facts (300104, listed 2010-08-12,
	// delisted 2020-07-21), in stock_basic's layout with list_status and
	// delist_date asked for: no such download was found.
	delisted := write("delisted.csv", []byte("ts_code,symbol,name,market,list_status,list_date,delist_date\n"+
		"300104.SZ,300104,乐视退,创业板,D,20100812,20200721\n"))
	real, err := os.ReadFile(tushareStockBasic)
	if err != nil {
		t.Fatal(err)
	}
	truncated := write("stock_basic.csv", real[:len(real)/2])
	err = cli.Ingest(context.Background(), cfg, "china_securities", []string{truncated}, io.Discard, nil)
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "stock_basic.csv:2591: the last line has no line break") {
		t.Fatalf("ingest of a truncated list = %v", err)
	}
	legacy := write("GPLIST.xls", []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"))
	err = cli.Ingest(context.Background(), cfg, "china_securities", []string{legacy}, io.Discard, nil)
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "GPLIST.xls: a legacy Excel 97-2003 (.xls)") {
		t.Fatalf("ingest of a legacy .xls = %v", err)
	}
	if n := len(listingDocs(t, cfg)); n != 0 {
		t.Fatalf("refused runs wrote %d listings", n)
	}

	// The listing carries its file's retrieval time, when it was
	// downloaded: its modification time (spec-gaps B195).
	downloaded := time.Date(2026, 10, 5, 7, 30, 15, 250e6, time.UTC)
	if err := os.Chtimes(delisted, downloaded, downloaded); err != nil {
		t.Fatal(err)
	}
	ingestListings(t, cfg, delisted)
	c := serveApp(t, cfg)
	_, key := signIn(t, c, "ma@example.com")
	got := c.do("GET", "/china/securities/szse.300104", nil, apiKey(key)).expect(t, http.StatusOK)
	if want := `{"security":{"code":"SZSE.300104","exchange":"SZSE","board":"chinext","company_name":"乐视退","listing_date":"2010-08-12","delisting_date":"2020-07-21","listed":false}}`; strings.TrimSpace(string(got.Body)) != want {
		t.Fatalf("delisted listing = %s", got.Body)
	}
	page := c.do("GET", "/china/securities?listed=false", nil, apiKey(key)).expect(t, http.StatusOK)
	if want := `"retrieved_at":"2026-10-05T07:30:15.25Z"`; !strings.Contains(string(page.Body), want) {
		t.Errorf("the page of the listing downloaded at %s says %s", downloaded, page.Body)
	}
	for query, n := range map[string]string{"listed=false": `"count":1`, "listed=true": `"count":0`} {
		got := c.do("GET", "/china/securities?"+query, nil, apiKey(key)).expect(t, http.StatusOK)
		if !strings.Contains(string(got.Body), n) || (query == "listed=false" && !strings.Contains(string(got.Body), `"code":"SZSE.300104"`)) {
			t.Errorf("GET /china/securities?%s = %s", query, got.Body)
		}
	}
}

// TestChinaSecuritiesSampleRetrievedAt: a page of the bundled listings is
// dated by when the list was retrieved, not by the request (spec-gaps
// B195), on every store.
func TestChinaSecuritiesSampleRetrievedAt(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			_, key := signIn(t, c, "lin@example.com")
			var p struct {
				Meta struct {
					AsOf       string `json:"as_of"`
					Provenance struct {
						RetrievedAt string `json:"retrieved_at"`
					} `json:"provenance"`
				} `json:"meta"`
			}
			c.do("GET", "/china/securities?name=茅台", nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &p)
			if want := sampledata.ChinaSecuritiesRetrievedAt.Format(time.RFC3339Nano); p.Meta.Provenance.RetrievedAt != want || p.Meta.AsOf == want {
				t.Fatalf("meta %+v, want retrieved_at %s, the sample's retrieval", p.Meta, want)
			}
		})
	}
}
