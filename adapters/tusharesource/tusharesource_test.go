package tusharesource_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/quarrydata/quarry/adapters/tusharesource"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

const token = "test-token-never-logged"

func newSource(t *testing.T, srv *replay.Server, cfg tusharesource.Config) (*tusharesource.Source, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zap.DebugLevel)
	cfg.Token, cfg.BaseURL, cfg.Backoff, cfg.Log = token, srv.URL, time.Millisecond, zap.New(core)
	if cfg.PerMinute == 0 {
		cfg.PerMinute = 60_000
	}
	s, err := tusharesource.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, e := range logs.All() {
			if strings.Contains(e.Message+fmt.Sprint(e.ContextMap()), token) {
				t.Errorf("the token was logged: %v", e)
			}
		}
	})
	return s, logs
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func june(d int) time.Time { return time.Date(2022, 6, d, 0, 0, 0, 0, time.UTC) }

func TestFetchWritesTheDayAsATushareDailyCSVAndTheListingsOnce(t *testing.T) {
	srv := replay.New(t)
	srv.AddTushare(t)
	s, _ := newSource(t, srv, tusharesource.Config{})
	files, err := s.Fetch(replay.Spooled(t), june(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Dataset != "china_prices" || files[0].Name != "daily_20220601.csv" ||
		files[1].Dataset != "china_securities" || files[1].Name != "stock_basic.csv" {
		t.Fatalf("files %+v", files)
	}
	want := "ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n" +
		"000001.SZ,20220601,14.14,14.14,14,14.08,14.16,-0.08,-0.57,845298.98,1187423.73\n" +
		"600519.SH,20220601,1802.0,1814.78,1779.0,1788.25,1804.03,-15.78,-0.8747,21760.01,3897858.999\n" +
		"830799.BJ,20220601,7.78,8.27,7.7,7.97,7.71,0.26,3.3722,3572.93,2866.02\n"
	if got := readFile(t, files[0].Path); got != want {
		t.Fatalf("daily CSV:\n%s", got)
	}
	if lines := strings.Count(readFile(t, files[1].Path), "\n"); lines != 5525 {
		t.Fatalf("stock_basic CSV holds %d lines, want the header and 5,524 listings", lines)
	}
	again, err := s.Fetch(replay.Spooled(t), june(2))
	if err != nil || len(again) != 1 {
		t.Fatalf("the next day: %d files, %v; want the bars only, the listings asked for once a day", len(again), err)
	}
	for _, r := range srv.Requests() {
		if r.Token != token || !strings.HasPrefix(r.UserAgent, "quarry") {
			t.Errorf("request %+v", r)
		}
	}
}

func TestAWeekdayWithoutRowsIsAHoliday(t *testing.T) {
	srv := replay.New(t)
	srv.AddTushare(t)
	s, _ := newSource(t, srv, tusharesource.Config{})
	if _, err := s.Fetch(replay.Spooled(t), june(3)); !errors.Is(err, ports.ErrNoPublication) {
		t.Fatalf("2022-06-03 (端午节): %v, want no publication", err)
	}
}

// TestARefusalForTheTokenStopsAtOnce: code 40203 is answered once and the
// source asks no more: retrying does not give a token points.
func TestARefusalForTheTokenStopsAtOnce(t *testing.T) {
	for _, fault := range []replay.Fault{replay.NoPermission, replay.RateSpent} {
		srv := replay.New(t)
		srv.AddTushare(t)
		srv.FailTushare("daily", "20220601", fault, fault, fault, fault)
		s, logs := newSource(t, srv, tusharesource.Config{})
		_, err := s.Fetch(replay.Spooled(t), june(1))
		if !errors.Is(err, ports.ErrSourceStopped) || !strings.Contains(err.Error(), "code 40203") || !strings.Contains(err.Error(), "QUARRY_TUSHARE_") {
			t.Fatalf("fault %d: %v, want a stop naming the code and the setting", fault, err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Fatalf("fault %d: %d requests, want 1 (no retry)", fault, n)
		}
		if logs.FilterMessageSnippet("stopped serving this token").Len() != 1 {
			t.Fatalf("fault %d: the stop was not logged: %v", fault, logs.All())
		}
	}
}

func TestAListingsRefusalLeavesTheBars(t *testing.T) {
	srv := replay.New(t)
	srv.AddTushare(t)
	srv.FailTushare("stock_basic", "", replay.NoPermission)
	s, logs := newSource(t, srv, tusharesource.Config{})
	files, err := s.Fetch(replay.Spooled(t), june(1))
	if err != nil || len(files) != 1 || files[0].Dataset != "china_prices" {
		t.Fatalf("%d files, %v; want the day's bars without the listings", len(files), err)
	}
	if logs.FilterMessageSnippet("stock_basic not fetched").Len() != 1 {
		t.Fatalf("logs %v", logs.All())
	}
}

func TestTooManyAndUnavailableAreRetried(t *testing.T) {
	srv := replay.New(t)
	srv.AddTushare(t)
	srv.FailTushare("daily", "20220601", replay.TooMany, replay.Unavailable)
	s, _ := newSource(t, srv, tusharesource.Config{})
	if _, err := s.Fetch(replay.Spooled(t), june(1)); err != nil {
		t.Fatalf("after a 429 and a 503: %v", err)
	}
}

func TestACutOrMalformedAnswerFails(t *testing.T) {
	for _, fault := range []replay.Fault{replay.Truncated, replay.HTML} {
		srv := replay.New(t)
		srv.AddTushare(t)
		srv.FailTushare("daily", "20220601", fault)
		s, _ := newSource(t, srv, tusharesource.Config{})
		if _, err := s.Fetch(replay.Spooled(t), june(1)); !errors.Is(err, ports.ErrSourceFailed) {
			t.Fatalf("fault %d: %v, want a failed fetch", fault, err)
		}
		if _, err := s.Fetch(replay.Spooled(t), june(1)); err != nil {
			t.Fatalf("fault %d, asked again: %v", fault, err)
		}
	}
}

// TestTheClientKeepsItsRatePerWindow: with 5 requests per 200 ms, six
// requests take at least the window, as the client sends them (the limiter
// spaces them 40 ms apart; what the server saw could be closer when one
// is delayed in flight).
func TestTheClientKeepsItsRatePerWindow(t *testing.T) {
	srv := replay.New(t)
	srv.AddTushare(t)
	const n, window = 5, 200 * time.Millisecond
	s, _ := newSource(t, srv, tusharesource.Config{PerMinute: n, Window: window})
	start := time.Now()
	for d := 6; d <= 10; d++ {
		if _, err := s.Fetch(replay.Spooled(t), june(d)); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	reqs := srv.Requests()
	if len(reqs) != n+1 {
		t.Fatalf("%d requests, want %d (five days and the listings once)", len(reqs), n+1)
	}
	if took < window-time.Millisecond { // a millisecond for the limiter's float rounding
		t.Fatalf("%d requests took %v, want at least %v", n+1, took, window)
	}
}

func TestNewRefusesAnEmptyToken(t *testing.T) {
	if _, err := tusharesource.New(tusharesource.Config{Token: " ", BaseURL: tusharesource.DefaultBaseURL}); err == nil {
		t.Fatal("an empty token was taken")
	}
}

// FuzzParse feeds the answer parser: it never panics, and what it takes
// with code 0 writes a CSV of its own fields whose rows match its items.
func FuzzParse(f *testing.F) {
	seeds, err := filepath.Glob("testdata/*.json")
	if err != nil || len(seeds) == 0 {
		f.Fatal(err, seeds)
	}
	for _, name := range seeds {
		body, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body)
		f.Add(body[:len(body)/2])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := tusharesource.Parse(body)
		if err != nil || a.Code != 0 {
			return
		}
		if _, err := a.Table.CSV(a.Table.Fields); err != nil {
			t.Fatalf("a parsed table refused its own fields: %v", err)
		}
	})
}

func TestParseTakesTheSeedsAndRefusesTheirHalves(t *testing.T) {
	seeds, _ := filepath.Glob("testdata/*.json")
	for _, name := range seeds {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tusharesource.Parse(body); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := tusharesource.Parse(body[:len(body)/2]); err == nil {
			t.Errorf("%s: half of it parsed", name)
		}
	}
	a, err := tusharesource.Parse([]byte(`{"code":0,"msg":"","data":{"fields":["a","b"],"items":[["x"]]}}`))
	if err == nil {
		t.Fatalf("an item short of the fields parsed: %+v", a)
	}
}

// TestADayAnsweredWithAnotherDaysRowsIsRefused: `daily` asked for
// 2022-06-02 answers 2022-06-01's rows; the day is refused naming both.
func TestADayAnsweredWithAnotherDaysRowsIsRefused(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "daily_20220601.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	t.Cleanup(srv.Close)
	s, err := tusharesource.New(tusharesource.Config{Token: token, BaseURL: srv.URL, Backoff: time.Millisecond, PerMinute: 60_000})
	if err != nil {
		t.Fatal(err)
	}
	files, err := s.Fetch(replay.Spooled(t), june(2))
	if !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "2022-06-02") || !strings.Contains(err.Error(), "2022-06-01") {
		t.Fatalf("Fetch = %d files, %v; want a failed fetch naming 2022-06-02 and 2022-06-01", len(files), err)
	}
}

// TestARedirectToAnotherHostNeverCarriesTheToken: Tushare's token is in
// the body, and a 307 or 308 posts the body again to wherever it points,
// past Go's own rule, which drops only Authorization across hosts. The
// source answered a 307 to another host by posting the token there; now
// the redirect is refused and the other host receives nothing.
func TestARedirectToAnotherHostNeverCarriesTheToken(t *testing.T) {
	elsewhere := replay.New(t)
	elsewhere.AddTushare(t)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer front.Close()
	s, err := tusharesource.New(tusharesource.Config{Token: token, BaseURL: front.URL, Backoff: time.Millisecond, PerMinute: 60_000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fetch(replay.Spooled(t), june(1)); !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "redirect from") {
		t.Fatalf("a redirect to another host: %v", err)
	}
	for _, r := range elsewhere.Requests() {
		t.Errorf("the other host received %q with token %q", r.API, r.Token)
	}
}

// TestAnAnswerPastItsBoundIsRefused: an answer is parsed whole, into
// values several times its size, so one past MaxAnswerBytes is refused as
// it is read; the bound was fetch's 1 GiB.
func TestAnAnswerPastItsBoundIsRefused(t *testing.T) {
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"code":0,"msg":"","data":{"fields":["ts_code"],"items":[`))
		row := []byte(`["1"],`)
		for range tusharesource.MaxAnswerBytes / len(row) {
			_, _ = w.Write(row)
		}
		_, _ = w.Write([]byte(`["1"]]}}`))
	}))
	defer huge.Close()
	s, err := tusharesource.New(tusharesource.Config{Token: token, BaseURL: huge.URL, Backoff: time.Millisecond, PerMinute: 60_000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fetch(replay.Spooled(t), june(1)); !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "larger than 16777216 bytes") {
		t.Fatalf("an answer past its bound: %v", err)
	}
}
