package cli_test

import (
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// TestSyncCommandOnADataDirectory runs `quarry sync nse` twice on a data
// directory against the replay server, and `quarry sync status`: the
// checkpoint lives in the directory; the second run, naming the same days,
// fetches them again (an explicit range always does) to the same store.
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
	args, err := cli.ParseSyncArgs([]string{"nse", "--from", "2025-06-23", "--to", "2025-06-24"})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := cli.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "nse: 2 days (0 holidays), 2 files, 6021 rows") {
		t.Fatalf("first run: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := cli.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "nse: 2 days (0 holidays), 2 files, 6021 rows") {
		t.Fatalf("second run: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := cli.SyncStatus(t.Context(), cfg, &out); err != nil || !strings.Contains(out.String(), "coverage 2025-06-23 to 2025-06-24; 2 files, 6021 rows") {
		t.Fatalf("status: %v\n%s", err, out.String())
	}
	if n := len(srv.Requests()); n != 4 {
		t.Fatalf("%d requests, want 4: the days named, fetched by each run", n)
	}
}

// TestSyncTushareCommandOnADataDirectory runs `quarry sync tushare` over
// the sample's whole span on a data directory against the replay server
// (642 trading days holding the 1,079 bars, and the 5,524 listings once),
// then `quarry sync status`; without a token the source is named with
// the setting that enables it.
func TestSyncTushareCommandOnADataDirectory(t *testing.T) {
	srv := replay.New(t)
	srv.AddTushare(t)
	dir := t.TempDir()
	env := map[string]string{bootstrap.EnvDataDir: dir, bootstrap.EnvTushareBaseURL: srv.URL, bootstrap.EnvTusharePerMinute: "600000"}
	cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := cli.SyncStatus(t.Context(), cfg, &out); err != nil || !strings.Contains(out.String(), "tushare: not configured (set QUARRY_TUSHARE_TOKEN)") {
		t.Fatalf("status without a token: %v\n%s", err, out.String())
	}
	env[bootstrap.EnvTushareToken] = "replay-token"
	if cfg, err = bootstrap.LoadConfig(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	args, err := cli.ParseSyncArgs([]string{"tushare", "--from", "2021-05-06", "--to", "2023-12-21"})
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	began := time.Now()
	if err := cli.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "tushare: 960 days (44 holidays), 643 files, 6603 rows") {
		t.Fatalf("backfill: %v\n%s", err, out.String())
	}
	t.Logf("backfill of the sample's span: %s in %v", strings.TrimSpace(out.String()), time.Since(began).Round(time.Millisecond))
	out.Reset()
	if err := cli.SyncStatus(t.Context(), cfg, &out); err != nil || !strings.Contains(out.String(), "tushare: configured; coverage 2021-05-06 to 2023-12-21") {
		t.Fatalf("status: %v\n%s", err, out.String())
	}
}
