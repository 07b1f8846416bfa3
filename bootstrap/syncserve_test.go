package bootstrap_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := memoryConfig(t)
	cfg.Listener = ln
	cfg.MetricsAddr = freePort(t)
	cfg.Empty = []string{"india_prices"}
	cfg.Clock = func() time.Time { return time.Date(2025, 6, 28, 12, 0, 0, 0, time.UTC) }
	cfg.Sync = bootstrap.SyncConfig{Sources: []string{"nse"}, Every: time.Hour, From: time.Date(2025, 6, 18, 0, 0, 0, 0, time.UTC),
		NSEBaseURL: srv.URL, RetryBackoff: time.Millisecond}
	var got struct {
		fx.In
		Availability *usecase.Availability
	}
	start(t, cfg, bootstrap.MetricsListener(cfg), fx.Populate(&got))

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
	if st, err := got.Availability.Status(t.Context(), dataset.IndiaPrices); err != nil || st.Availability != dataset.Available {
		t.Fatalf("india_prices once the range is held: %+v, %v", st, err)
	}
	_, catalog := get(t, "http://"+ln.Addr().String()+"/catalog")
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
	cfg := memoryConfig(t)
	cfg.MetricsAddr = freePort(t)
	cfg.Empty = []string{"india_prices"}
	cfg.Clock = func() time.Time { return time.Date(2025, 6, 28, 12, 0, 0, 0, time.UTC) }
	cfg.Sync = bootstrap.SyncConfig{Sources: []string{"nse"}, Every: time.Hour, From: time.Date(2025, 6, 18, 0, 0, 0, 0, time.UTC),
		NSEBaseURL: srv.URL, RetryBackoff: time.Millisecond}
	var got struct {
		fx.In
		Availability *usecase.Availability
	}
	start(t, cfg, bootstrap.MetricsListener(cfg), fx.Populate(&got))
	// The schedule loads the days before the 24th once the fetch of the
	// 24th has failed; wait for them to be served.
	var st dataset.Status
	var err error
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline) && !st.Serving(); time.Sleep(100 * time.Millisecond) {
		st, err = got.Availability.Status(t.Context(), dataset.IndiaPrices)
	}
	_, body := get(t, "http://"+cfg.MetricsAddr+"/metrics")
	if err != nil || st.Availability != dataset.Partial || !strings.Contains(body, `quarry_source_errors_total{source="nse"} 1`) {
		t.Fatalf("india_prices with the 24th missing: %+v, %v\n%s", st, err, grepLines(body, "quarry_source"))
	}
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

// TestSyncCommandOnADataDirectory runs `quarry sync nse` twice on a data
// directory against the replay server, and `quarry sync status`: the
// checkpoint lives in the directory, so the second run fetches nothing.
func TestSyncCommandOnADataDirectory(t *testing.T) {
	srv := replay.New(t)
	srv.AddNSE(t)
	dir := t.TempDir()
	cfg, err := bootstrap.LoadConfig(func(k string) string {
		return map[string]string{bootstrap.EnvDataDir: dir, bootstrap.EnvNSEBaseURL: srv.URL}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	args, err := bootstrap.ParseSyncArgs([]string{"nse", "--from", "2025-06-23", "--to", "2025-06-24"})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := bootstrap.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "nse: 2 days (0 holidays), 2 files, 6021 rows") {
		t.Fatalf("first run: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := bootstrap.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "nse: 0 days") {
		t.Fatalf("second run: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := bootstrap.SyncStatus(t.Context(), cfg, &out); err != nil || !strings.Contains(out.String(), "coverage 2025-06-23 to 2025-06-24; 2 files, 6021 rows") {
		t.Fatalf("status: %v\n%s", err, out.String())
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}
