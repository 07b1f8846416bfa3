package cli_test

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

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
	args, err := cli.ParseSyncArgs([]string{"nse", "--from", "2025-06-23", "--to", "2025-06-24"})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := cli.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "nse: 2 days (0 holidays), 2 files, 6021 rows") {
		t.Fatalf("first run: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := cli.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "nse: 0 days") {
		t.Fatalf("second run: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := cli.SyncStatus(t.Context(), cfg, &out); err != nil || !strings.Contains(out.String(), "coverage 2025-06-23 to 2025-06-24; 2 files, 6021 rows") {
		t.Fatalf("status: %v\n%s", err, out.String())
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}
