package quarrytest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/quarrytest"
)

// get makes a data request with key and returns the status and JSON body.
func get(t *testing.T, srv *quarrytest.Server, key, path string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("GET", srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(key, "qs_") {
		req.Header.Set("Authorization", "Bearer "+key)
	} else if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("GET %s: %s, body not JSON: %v", path, res.Status, err)
	}
	return res.StatusCode, body
}

const moutai = "/china/securities/SSE.600519"

func TestStartGivesAnAccountAndAKey(t *testing.T) {
	t.Parallel()
	srv := quarrytest.Start(t)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || srv.Email != quarrytest.Email ||
		!strings.HasPrefix(srv.SessionToken, "qs_") || !strings.HasPrefix(srv.APIKey, "qk_") || srv.KeyID == "" {
		t.Fatalf("server %+v", srv)
	}
	if code, body := get(t, srv, srv.APIKey, moutai); code != http.StatusOK {
		t.Fatalf("GET %s: %d %v", moutai, code, body)
	}
	if code, body := get(t, srv, srv.SessionToken, "/account/credits"); code != http.StatusOK || body["balance"] != float64(100000-1) {
		t.Fatalf("GET /account/credits: %d %v, want the default 100000 less one request", code, body)
	}
}

func TestCreditsRunOut(t *testing.T) {
	t.Parallel()
	srv := quarrytest.Start(t, quarrytest.WithCredits(1))
	if code, _ := get(t, srv, srv.APIKey, moutai); code != http.StatusOK {
		t.Fatalf("first request: %d", code)
	}
	if code, body := get(t, srv, srv.APIKey, moutai); code != http.StatusPaymentRequired || body["error"] != "insufficient_credits" {
		t.Fatalf("second request: %d %v, want 402 insufficient_credits", code, body)
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	srv := quarrytest.Start(t, quarrytest.WithRateLimit(0.01, 2))
	for i := range 2 {
		if code, _ := get(t, srv, srv.APIKey, moutai); code != http.StatusOK {
			t.Fatalf("request %d: %d", i+1, code)
		}
	}
	if code, body := get(t, srv, srv.APIKey, moutai); code != http.StatusTooManyRequests || body["error"] != "rate_limited" {
		t.Fatalf("third request: %d %v, want 429 rate_limited", code, body)
	}
}

func TestSignupLimit(t *testing.T) {
	t.Parallel()
	many := quarrytest.Start(t)
	for i := range 6 {
		if _, err := many.SignIn(fmt.Sprintf("user%d@example.com", i)); err != nil {
			t.Fatalf("by default a test may create many accounts: sign-up %d: %v", i+1, err)
		}
	}
	srv := quarrytest.Start(t, quarrytest.WithSignupLimit(2))
	if _, err := srv.SignIn("second@example.com"); err != nil {
		t.Fatalf("the second account of 2: %v", err)
	}
	if _, err := srv.SignIn("third@example.com"); err == nil || !strings.Contains(err.Error(), "too many accounts created from this address") {
		t.Fatalf("the third account of 2 = %v, want the sign-up limit's 429", err)
	}
}

func TestEmptyDatasetIsUnavailable(t *testing.T) {
	t.Parallel()
	srv := quarrytest.Start(t, quarrytest.WithEmptyDatasets(quarrytest.ChinaSecurities))
	if code, body := get(t, srv, srv.APIKey, moutai); code != http.StatusServiceUnavailable || body["error"] != "dataset_unavailable" {
		t.Fatalf("GET %s: %d %v, want 503 dataset_unavailable", moutai, code, body)
	}
	if code, body := get(t, srv, srv.APIKey, "/us/financials?ticker=AAPL"); code != http.StatusOK {
		t.Fatalf("another dataset: %d %v", code, body)
	}
}

func TestFixedClock(t *testing.T) {
	t.Parallel()
	clock := quarrytest.NewClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	srv := quarrytest.Start(t, quarrytest.WithClock(clock.Now), quarrytest.WithSessionTTL(time.Hour))
	if want := clock.Now().Add(time.Hour); !srv.SessionExpiresAt.Equal(want) {
		t.Errorf("session expires at %v, want %v", srv.SessionExpiresAt, want)
	}

	// Without as_of a data request answers as of the clock: NVIDIA's latest
	// annual statement then is fiscal 2024's (filed 2024-02-21), though the
	// sample holds fiscal 2025's too.
	code, body := get(t, srv, srv.APIKey, "/us/financials/income-statements?ticker=NVDA&limit=1")
	if code != http.StatusOK {
		t.Fatalf("income statements: %d %v", code, body)
	}
	meta := body["meta"].(map[string]any)
	stmts := body["income_statements"].([]any)
	if asOf, _ := time.Parse(time.RFC3339Nano, meta["as_of"].(string)); !asOf.Equal(clock.Now()) || len(stmts) != 1 {
		t.Fatalf("meta %v with %d statements, want as_of %v", meta, len(stmts), clock.Now())
	}
	if filed := stmts[0].(map[string]any)["filing_date"]; filed != "2024-02-21" {
		t.Errorf("latest statement filed %v, want 2024-02-21", filed)
	}

	clock.Advance(time.Hour)
	if code, _ := get(t, srv, srv.SessionToken, "/account/credits"); code != http.StatusUnauthorized {
		t.Errorf("session an hour later: %d, want 401", code)
	}
}

func TestWithFiles(t *testing.T) {
	t.Parallel()
	csv := filepath.Join(t.TempDir(), "stock_basic.csv")
	body := "ts_code,symbol,name,area,industry,cnspell,market,list_date,act_name,act_ent_type\n" +
		"000001.SZ,000001,平安银行,深圳,银行,PAYH,主板,19910403,无实际控制人,其他\n"
	if err := os.WriteFile(csv, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := quarrytest.Start(t, quarrytest.WithFiles(quarrytest.ChinaSecurities, csv))
	if code, body := get(t, srv, srv.APIKey, "/china/securities/SZSE.000001"); code != http.StatusOK ||
		body["security"].(map[string]any)["company_name"] != "平安银行" {
		t.Fatalf("the listing from the file: %d %v", code, body)
	}
	if code, _ := get(t, srv, srv.APIKey, moutai); code != http.StatusNotFound {
		t.Fatalf("a sample listing, files given instead: %d, want 404", code)
	}
}

func TestBadInputFailsTheStart(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "listings.csv")
	if err := os.WriteFile(bad, []byte("exchange,code\nSSE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, opt := range map[string]quarrytest.Option{
		"unknown dataset": quarrytest.WithEmptyDatasets("china-listings"),
		"bad file":        quarrytest.WithFiles(quarrytest.ChinaSecurities, bad),
	} {
		if srv, err := quarrytest.New(opt); err == nil {
			srv.Close()
			t.Errorf("%s: started", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestParallelServersAreIndependent runs servers side by side: an account,
// a key and spent credits on one are unknown to the others.
func TestParallelServersAreIndependent(t *testing.T) {
	t.Parallel()
	const n = 4
	servers := make([]*quarrytest.Server, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { servers[i], errs[i] = quarrytest.New(quarrytest.WithCredits(int64(10 + i))) })
	}
	wg.Wait()
	for i, srv := range servers {
		if srv != nil {
			t.Cleanup(func() { _ = srv.Close() })
		}
		if errs[i] != nil {
			t.Fatalf("server %d: %v", i, errs[i])
		}
	}
	for i, srv := range servers {
		if code, _ := get(t, srv, srv.APIKey, moutai); code != http.StatusOK {
			t.Fatalf("server %d: %d", i, code)
		}
		other := servers[(i+1)%n]
		if code, _ := get(t, other, srv.APIKey, moutai); code != http.StatusUnauthorized {
			t.Errorf("server %d's key on server %d: %d, want 401", i, (i+1)%n, code)
		}
	}
	for i, srv := range servers {
		if _, body := get(t, srv, srv.SessionToken, "/account/credits"); body["balance"] != float64(10+i-1) {
			t.Errorf("server %d balance %v, want %d", i, body["balance"], 10+i-1)
		}
	}
}

func TestDatasetNames(t *testing.T) {
	want := []string{quarrytest.ChinaPrices, quarrytest.ChinaSecurities, quarrytest.IndiaJudgments, quarrytest.IndiaPrices, quarrytest.USFilings, quarrytest.USFinancials, quarrytest.USSecurities, quarrytest.USHoldings}
	if got := quarrytest.Datasets(); !slices.Equal(got, want) {
		t.Fatalf("Datasets() = %v, constants %v", got, want)
	}
}

// TestStartTime reports how long Start takes with every sample loaded,
// sign-in and key included; run with -v to see it. The figure is reported,
// never asserted: timings depend on the machine and its load.
func TestStartTime(t *testing.T) {
	const runs = 5
	var total, slowest time.Duration
	for range runs {
		start := time.Now()
		srv, err := quarrytest.New()
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		srv.Close()
		total += took
		slowest = max(slowest, took)
	}
	t.Logf("start with every sample, sign-in and key: mean %v, slowest %v over %d runs", total/runs, slowest, runs)
}

func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		srv, err := quarrytest.New()
		if err != nil {
			b.Fatal(err)
		}
		srv.Close()
	}
}
