package bootstrap_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// chinaPricesServer serves on memory with china_prices left empty and the
// sync settings set changes, and returns its handler once started.
func chinaPricesServer(t *testing.T, set func(*bootstrap.SyncConfig)) http.Handler {
	t.Helper()
	cfg := memoryConfig(t)
	cfg.MetricsAddr = ""
	cfg.Empty = []string{"china_prices"}
	cfg.Clock = func() time.Time { return time.Date(2022, 6, 11, 12, 0, 0, 0, time.UTC) }
	set(&cfg.Sync)
	var srv *httpadapter.Server
	start(t, cfg, fx.Populate(&srv))
	return srv
}

// chinaPricesStatus is china_prices as GET /catalog shows it.
func chinaPricesStatus(t *testing.T, h http.Handler) string {
	t.Helper()
	var cat struct {
		Datasets []struct{ Dataset, Availability string }
	}
	call(t, h, "GET", "/catalog", "", nil, &cat)
	for _, d := range cat.Datasets {
		if d.Dataset == "china_prices" {
			return d.Availability
		}
	}
	t.Fatal("the catalog lacks china_prices")
	return ""
}

// unavailable is the 503 GET /china/prices answers.
func unavailable(t *testing.T, h http.Handler) (code int, body map[string]any) {
	t.Helper()
	_, key := signIn(t, h)
	code, text := serveOnce(h, "GET", "/china/prices?code=SSE.600519", "", key)
	if err := json.Unmarshal([]byte(text), &body); err != nil {
		t.Fatal(err)
	}
	return code, body
}

// TestChinaPricesAvailabilityFollowsTheTushareSource walks the states
// through /catalog and the 503 body: source_required without a token,
// not_backfilled with one and nothing loaded, partial while the schedule
// lacks a day of the range, available once it holds them all.
func TestChinaPricesAvailabilityFollowsTheTushareSource(t *testing.T) {
	from := time.Date(2022, 5, 30, 0, 0, 0, 0, time.UTC)
	h := chinaPricesServer(t, func(*bootstrap.SyncConfig) {})
	code, body := unavailable(t, h)
	if got := chinaPricesStatus(t, h); got != "source_required" || code != http.StatusServiceUnavailable ||
		body["availability"] != "source_required" || body["reason"] != "governed_source_not_configured" ||
		body["external_source_required"] != true || !strings.Contains(body["message"].(string), "set QUARRY_TUSHARE_TOKEN") {
		t.Fatalf("without a token: catalog %s, %d %v", got, code, body)
	}

	srv := replay.New(t)
	srv.AddTushare(t)
	withToken := func(c *bootstrap.SyncConfig) {
		c.TushareToken, c.TushareBaseURL, c.TusharePerMinute, c.RetryBackoff = "replay-token", srv.URL, 60_000, time.Millisecond
	}
	h = chinaPricesServer(t, withToken)
	code, body = unavailable(t, h)
	if got := chinaPricesStatus(t, h); got != "not_backfilled" || code != http.StatusServiceUnavailable ||
		body["external_source_required"] != false || !strings.Contains(body["message"].(string), "quarry sync tushare --from") {
		t.Fatalf("with a token, nothing loaded: catalog %s, %d %v", got, code, body)
	}

	srv.FailTushare("daily", "20220606", replay.HTML)
	scheduled := func(c *bootstrap.SyncConfig) {
		withToken(c)
		c.Sources, c.From = []string{"tushare"}, from
	}
	h = chinaPricesServer(t, scheduled)
	if got := waitFor(t, h, "partial"); got != "partial" {
		t.Fatalf("with the 6th refused: %s", got)
	}

	h = chinaPricesServer(t, scheduled) // the fault is spent: this schedule fetches every day
	if got := waitFor(t, h, "available"); got != "available" {
		t.Fatalf("with the range held: %s", got)
	}
}

// waitFor polls the catalog until china_prices is want, for at most a
// minute, and returns what it last was.
func waitFor(t *testing.T, h http.Handler, want string) string {
	t.Helper()
	got := ""
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && got != want; time.Sleep(50 * time.Millisecond) {
		got = chinaPricesStatus(t, h)
	}
	return got
}
