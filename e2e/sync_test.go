package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// TestSyncOnDatabases runs `quarry sync nse` into PostgreSQL + MongoDB from
// empty stores, against the replay server's real UDiFF days: while another
// node holds the source's lease in PostgreSQL the run fetches nothing;
// once the lease is free it loads the days whole, a server serves them with
// their coverage in /catalog, and a second run naming the days fetches them
// again (an explicit range always fetches its days) to the same store.
func TestSyncOnDatabases(t *testing.T) {
	srv := replay.New(t)
	srv.AddNSE(t)
	cfg := appConfig(t, onDatabases)
	cfg.Sync.NSEBaseURL, cfg.Sync.RetryBackoff = srv.URL, time.Millisecond
	args, err := cli.ParseSyncArgs([]string{"nse", "--from", "2025-06-23", "--to", "2025-06-24"})
	if err != nil {
		t.Fatal(err)
	}
	holdLease(t, cfg.PostgresURL, "nse", "another-node")
	var out strings.Builder
	if err := cli.Sync(t.Context(), cfg, args, &out); err == nil || !strings.Contains(out.String(), "another node holds the source's lease") {
		t.Fatalf("run while another node holds the lease: %v\n%s", err, out.String())
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests while another node held the lease", n)
	}
	releaseLease(t, cfg.PostgresURL, "nse")
	out.Reset()
	if err := cli.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "nse: 2 days (0 holidays), 2 files, 6021 rows") {
		t.Fatalf("backfill: %v\n%s", err, out.String())
	}
	c := serveApp(t, cfg)
	checkNSECoverage(t, c, "2025-06-23", "2025-06-24")
	_, key := signIn(t, c, "sync@example.com")
	var page struct {
		Rows []indiaRow `json:"rows"`
	}
	c.do("GET", "/india/prices?symbol=RELIANCE&start_date=2025-06-23&end_date=2025-06-24", nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Rows) != 2 || page.Rows[0].Date == page.Rows[1].Date {
		t.Fatalf("RELIANCE over the two synced days: %+v", page.Rows)
	}
	out.Reset()
	if err := cli.Sync(t.Context(), cfg, args, &out); err != nil || !strings.Contains(out.String(), "nse: 2 days (0 holidays), 2 files, 6021 rows") || len(srv.Requests()) != 4 {
		t.Fatalf("second run: %v, %d requests in all\n%s", err, len(srv.Requests()), out.String())
	}
}

// checkNSECoverage reads /catalog and requires india_prices available,
// filled by nse, holding first..last.
func checkNSECoverage(t *testing.T, c *client, first, last string) {
	t.Helper()
	var cat struct {
		Datasets []struct {
			Dataset      string          `json:"dataset"`
			Availability string          `json:"availability"`
			Source       *string         `json:"source"`
			Coverage     json.RawMessage `json:"coverage"`
		} `json:"datasets"`
	}
	c.do("GET", "/catalog", nil).expect(t, http.StatusOK).JSON(t, &cat)
	want := `{"first":"` + first + `","last":"` + last + `"}`
	for _, d := range cat.Datasets {
		if d.Dataset != "india_prices" {
			continue
		}
		if d.Availability != "available" || d.Source == nil || *d.Source != "nse" || string(d.Coverage) != want {
			t.Fatalf("india_prices in /catalog: %s, source %v, coverage %s; want available, nse, %s", d.Availability, d.Source, d.Coverage, want)
		}
		return
	}
	t.Fatal("india_prices is not in /catalog")
}

// holdLease writes the lease another node would hold on source for a
// minute, in the database's own time.
func holdLease(t *testing.T, url, source, holder string) {
	t.Helper()
	execPostgres(t, url, `INSERT INTO source_leases (source, holder, expires_at) VALUES ($1, $2, now() + interval '1 minute')`, source, holder)
}

// releaseLease frees source's lease, as its holder does at the end of a run.
func releaseLease(t *testing.T, url, source string) {
	t.Helper()
	execPostgres(t, url, `DELETE FROM source_leases WHERE source = $1`, source)
}

func execPostgres(t *testing.T, url, sql string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		t.Fatal(err)
	}
}
