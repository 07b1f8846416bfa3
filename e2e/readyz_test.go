package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/bootstrap"
)

// TestReadyzOnAnUnmigratedDatabase: a service started on a PostgreSQL
// database nobody migrated is not ready, and says what to run, as does a
// request that needs the database meanwhile; once the
// migrations are applied it is ready, with nothing restarted.
func TestReadyzOnAnUnmigratedDatabase(t *testing.T) {
	url := emptyPostgresDB(t)
	env := map[string]string{bootstrap.EnvHTTPAddr: freeAddr(t), bootstrap.EnvMetricsAddr: "off", bootstrap.EnvPostgresURL: url}
	cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	c := serveApp(t, cfg)
	var report struct {
		Checks   map[string]string `json:"checks"`
		Messages map[string]string `json:"messages"`
	}
	c.do("GET", "/readyz", nil).expect(t, http.StatusServiceUnavailable).JSON(t, &report)
	if report.Checks["postgres"] != "not_migrated" || !strings.Contains(report.Messages["postgres"], "quarry migrate") {
		t.Fatalf("readyz on an unmigrated database: checks %v, messages %v; want postgres not_migrated, naming quarry migrate", report.Checks, report.Messages)
	}
	// A sign-in meanwhile is told the same, not that a store timed out.
	var refused struct {
		Error, Message string
	}
	c.do("POST", "/account/login", map[string]string{"email": "early@example.com", "password": "a long passphrase"}).
		expect(t, http.StatusServiceUnavailable).JSON(t, &refused)
	if refused.Error != "store_unavailable" || !strings.Contains(refused.Message, "quarry migrate") {
		t.Fatalf("a sign-in on an unmigrated database: %+v; want store_unavailable naming quarry migrate", refused)
	}
	pool, err := postgres.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := postgres.Migrate(context.Background(), pool); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	c.do("GET", "/readyz", nil).expect(t, http.StatusOK)
}

// emptyPostgresDB creates a database with no migration applied and returns
// its URL.
func emptyPostgresDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("empty_%d_%d", os.Getpid(), dbSeq.Add(1))
	admin, err := pgx.Connect(ctx, servers.pgAdminURL)
	if err != nil {
		t.Fatalf("connect admin: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		if conn, err := pgx.Connect(ctx, servers.pgAdminURL); err == nil {
			defer conn.Close(ctx)
			_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		}
	})
	return pgURL(name)
}
