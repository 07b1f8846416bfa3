package bootstrap_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// TestServeKeepsNSECurrentWhenQuarrySyncNamesIt serves on memory with
// QUARRY_SYNC=nse from 2025-06-18, the clock on the 28th, against the
// replay server: the schedule fetches the eight days and the metrics say
// so.
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
	start(t, cfg, bootstrap.MetricsListener(cfg))

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
