package e2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testcontainers/testcontainers-go"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/quarrytest/quarrycontainer"
)

// quarryImage is the image `go tool task image` builds; the test task
// rebuilds it before every run.
var quarryImage = envOr("QUARRY_IMAGE", "quarry:dev")

var buildImage struct {
	once sync.Once
	err  error
	log  []byte
}

// ensureQuarryImage builds the Quarry image when it is missing, so the
// suite also runs outside `go tool task test`. An image already present is
// used as it is, even when older than the code: the test task rebuilds it.
func ensureQuarryImage(t *testing.T) {
	t.Helper()
	buildImage.once.Do(func() {
		if exec.Command("docker", "image", "inspect", quarryImage).Run() == nil {
			return
		}
		cmd := exec.Command("bash", "../scripts/images/quarry.sh")
		cmd.Env = append(os.Environ(), "QUARRY_IMAGE="+quarryImage)
		buildImage.log, buildImage.err = cmd.CombinedOutput()
	})
	if buildImage.err != nil {
		t.Fatalf("build %s: %v\n%s", quarryImage, buildImage.err, buildImage.log)
	}
}

// runQuarry starts the Quarry image with opts and terminates it at cleanup.
func runQuarry(t *testing.T, opts ...testcontainers.ContainerCustomizer) *quarrycontainer.Container {
	t.Helper()
	ensureQuarryImage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	c, err := quarrycontainer.Run(ctx, quarryImage, opts...)
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s ready at %s in %v", quarryImage, c.URL, time.Since(start).Round(time.Millisecond))
	return c
}

// TestContainerServesTheSample starts the image on memory storage, signs in
// through the module and spends the credits down to 402, every response
// validated against the OpenAPI document.
func TestContainerServesTheSample(t *testing.T) {
	c := runQuarry(t, quarrycontainer.WithCredits(2))
	acct, err := c.SignIn(context.Background(), "container@example.com", "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	api := &client{t: t, base: c.URL, http: &http.Client{Timeout: 30 * time.Second}}
	api.do("GET", "/readyz", nil).expect(t, http.StatusOK)
	for range 2 {
		var got struct {
			Security struct {
				CompanyName string `json:"company_name"`
			} `json:"security"`
		}
		api.do("GET", "/china/securities/SSE.600519", nil, apiKey(acct.APIKey)).expect(t, http.StatusOK).JSON(t, &got)
		if got.Security.CompanyName != "贵州茅台" {
			t.Fatalf("company name %q", got.Security.CompanyName)
		}
	}
	api.do("GET", "/china/securities/SSE.600519", nil, apiKey(acct.APIKey)).expect(t, http.StatusPaymentRequired)
}

// TestContainerOnDatabases starts the image on the suite's PostgreSQL and
// MongoDB-wire servers, reached at their addresses on the engine's network,
// with the sample ingested beforehand as a deployment would.
func TestContainerOnDatabases(t *testing.T) {
	ctx := context.Background()
	hostPG := postgresDB(t)
	inner, err := url.Parse(hostPG)
	if err != nil {
		t.Fatal(err)
	}
	inner.Host = net.JoinHostPort(servers.pgIP, "5432")
	mongoDB := mongoDBName()
	t.Cleanup(func() { _ = servers.mongo.Database(mongoDB).Drop(context.Background()) })
	env := map[string]string{bootstrap.EnvMongoURI: servers.mongoURI, bootstrap.EnvMongoDB: mongoDB}
	cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if err := cli.Ingest(ctx, cfg, "all", nil, io.Discard, nil); err != nil {
		t.Fatalf("ingest: %v", err)
	}

	c := runQuarry(t,
		quarrycontainer.WithPostgres(inner.String()),
		quarrycontainer.WithMongo("mongodb://"+net.JoinHostPort(servers.mongoIP, "27017"), mongoDB))
	acct, err := c.SignIn(ctx, "container@example.com", "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	api := &client{t: t, base: c.URL, http: &http.Client{Timeout: 30 * time.Second}}
	var ready struct {
		Checks map[string]string `json:"checks"`
	}
	api.do("GET", "/readyz", nil).expect(t, http.StatusOK).JSON(t, &ready)
	if ready.Checks["postgres"] != "ok" || ready.Checks["mongodb"] != "ok" {
		t.Fatalf("readiness checks %v, want postgres and mongodb ok", ready.Checks)
	}
	api.do("GET", "/china/securities/SSE.600519", nil, apiKey(acct.APIKey)).expect(t, http.StatusOK)
	api.do("GET", "/us/financials?ticker=AAPL&limit=1", nil, apiKey(acct.APIKey)).expect(t, http.StatusOK)

	// The account and its debits are in the test's PostgreSQL database.
	conn, err := pgx.Connect(ctx, hostPG)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var debits int
	err = conn.QueryRow(ctx, `SELECT count(*) FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
		WHERE a.email = $1 AND e.kind = 'debit'`, acct.Email).Scan(&debits)
	if err != nil || debits != 2 {
		t.Fatalf("debits in PostgreSQL: %d, %v; want 2", debits, err)
	}
}
