package bootstrap_test

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// TestServeKeepsNSECurrentWhenQuarrySyncNamesIt serves on memory with
// QUARRY_SYNC=nse from 2025-06-18, the clock on the 28th, against the
// replay server: the schedule fetches the eight days, and the metrics and
// the catalog say so.
func TestServeKeepsNSECurrentWhenQuarrySyncNamesIt(t *testing.T) {
	srv := replay.New(t)
	srv.AddNSE(t)
	cfg, availability := scheduledNSE(t, srv.URL)

	var body string
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, body = get(t, "http://"+cfg.MetricsAddr+"/metrics"); strings.Contains(body, `quarry_source_last_success_timestamp_seconds{source="nse"}`) {
			break
		}
	}
	for _, want := range []string{`quarry_source_last_success_timestamp_seconds{source="nse"} 1.751112e+09`, `quarry_source_requests_total{source="nse"} 8`,
		`quarry_source_errors_total{source="nse"} 0`} {
		if !strings.Contains(body, want) {
			t.Fatalf("metrics lack %s:\n%s", want, grepLines(body, "quarry_source"))
		}
	}
	if st, err := availability.Status(t.Context(), dataset.IndiaPrices); err != nil || st.Availability != dataset.Available {
		t.Fatalf("india_prices once the range is held: %+v, %v", st, err)
	}
	_, catalog := get(t, "http://"+cfg.Listener.Addr().String()+"/catalog")
	want := `"source":"nse","coverage":{"first":"2025-06-18","last":"2025-06-27"},"last_sync":"2025-06-28T12:00:00Z","lag_seconds":0`
	if !strings.Contains(catalog, want) {
		t.Fatalf("the catalog lacks %s:\n%.2000s", want, catalog)
	}
}

// TestADatasetIsPartialWhileItsSourceLagsTheRange: the replay server
// serves an HTML page for 2025-06-24 on every attempt, so the schedule
// stops after the 23rd; india_prices serves what it holds, as partial.
func TestADatasetIsPartialWhileItsSourceLagsTheRange(t *testing.T) {
	srv := replay.New(t)
	srv.AddNSE(t)
	srv.Fail("content/cm/BhavCopy_NSE_CM_0_0_0_20250624_F_0000.csv.zip", replay.HTML, replay.HTML)
	cfg, availability := scheduledNSE(t, srv.URL)
	// The schedule loads the days before the 24th once the fetch of the
	// 24th has failed; wait for them to be served.
	var st dataset.Status
	var err error
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline) && !st.Serving(); time.Sleep(100 * time.Millisecond) {
		st, err = availability.Status(t.Context(), dataset.IndiaPrices)
	}
	_, body := get(t, "http://"+cfg.MetricsAddr+"/metrics")
	if err != nil || st.Availability != dataset.Partial || !strings.Contains(body, `quarry_source_errors_total{source="nse"} 1`) {
		t.Fatalf("india_prices with the 24th missing: %+v, %v\n%s", st, err, grepLines(body, "quarry_source"))
	}
}

// scheduledNSE starts the service on memory with india_prices empty, the
// clock on 2025-06-28 and QUARRY_SYNC=nse from 2025-06-18 against the
// replay server at url, with the metrics on a listener of their own. It
// returns the configuration and the service's availability.
func scheduledNSE(t *testing.T, url string) (bootstrap.Config, *usecase.Availability) {
	t.Helper()
	cfg := memoryConfig(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Listener = ln
	cfg.MetricsAddr = freePort(t)
	cfg.Empty = []string{"india_prices"}
	cfg.Clock = func() time.Time { return time.Date(2025, 6, 28, 12, 0, 0, 0, time.UTC) }
	cfg.Sync = bootstrap.SyncConfig{Sources: []string{"nse"}, Every: time.Hour, From: time.Date(2025, 6, 18, 0, 0, 0, 0, time.UTC),
		NSEBaseURL: url, RetryBackoff: time.Millisecond}
	var got struct {
		fx.In
		Availability *usecase.Availability
	}
	start(t, cfg, bootstrap.MetricsListener(cfg), fx.Populate(&got))
	return cfg, got.Availability
}

func grepLines(s, sub string) string {
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// TestServeKeepsEDGARFilingsCurrent serves on memory with QUARRY_SYNC=edgar
// from 2025-07-30, the day Microsoft filed its 10-K, with the US filings
// left empty: the schedule stores the filing's folder, and the filing
// index route and search find it.
func TestServeKeepsEDGARFilingsCurrent(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	cfg := memoryConfig(t)
	cfg.Empty = []string{"us_filing_indexes", "us_financials"}
	cfg.MongoRefresh = 50 * time.Millisecond
	cfg.Clock = func() time.Time { return time.Date(2025, 7, 31, 12, 0, 0, 0, time.UTC) }
	cfg.Sync = bootstrap.SyncConfig{Sources: []string{"edgar"}, Every: time.Hour, From: time.Date(2025, 7, 30, 0, 0, 0, 0, time.UTC),
		NSEBaseURL: srv.URL, SECUserAgent: "Quarry test ops@example.org", SECBaseURL: srv.URL, SECDataBaseURL: srv.URL, RetryBackoff: time.Millisecond}
	var h *httpadapter.Server
	start(t, cfg, fx.Populate(&h))
	_, key := signIn(t, h)
	index := "/us/filings/0000950170-25-100235/index"
	var code int
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline) && code != http.StatusOK; time.Sleep(100 * time.Millisecond) {
		code, _ = serveOnce(h, "GET", index, "", key)
	}
	if code != http.StatusOK {
		t.Fatalf("GET %s = %d once the schedule ran", index, code)
	}
	var body string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && !strings.Contains(body, "0000950170-25-100235"); time.Sleep(100 * time.Millisecond) {
		_, body = serveOnce(h, "POST", "/us/search", `{"query":"productivity and collaboration"}`, key)
	}
	if !strings.Contains(body, "0000950170-25-100235") {
		t.Fatalf("search does not find the synced filing: %s", body)
	}
}
