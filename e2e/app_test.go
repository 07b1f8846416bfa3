package e2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// stack says which storage an app under test runs on.
type stack struct {
	postgres bool
	mongo    bool
	// dataDir puts every store the databases do not take in a new data
	// directory (QUARRY_DATA_DIR): the durable embedded backend.
	dataDir bool
	// credits, rps and burst override the defaults when non-zero.
	credits int64
	rps     float64
	burst   int
	// refresh overrides how often a server on MongoDB looks for new data.
	refresh time.Duration
	// metrics serves GET /metrics on a listener of its own, at the
	// configuration's MetricsAddr, as `quarry serve` does; without it
	// there is none, so apps sharing a configuration share no port.
	metrics bool
}

var onDatabases = stack{postgres: true, mongo: true}

// embedded is the durable embedded backend: SQLite and FerretDB over
// SQLite in a data directory, which holds the ingested samples (a copy of
// embeddedTemplate's documents).
var embedded = stack{dataDir: true}

// startApp starts the fx-wired service on the stack, with every bundled
// sample ingested, and returns a validating client for it and its configuration.
func startApp(t *testing.T, s stack) (*client, bootstrap.Config) {
	t.Helper()
	cfg := appConfig(t, s)
	switch {
	case s.mongo && s.dataDir:
		// The ingestion builds the search indexes in the data directory
		// too, which a copy of the documents would not.
		if err := cli.Ingest(context.Background(), cfg, "all", nil, io.Discard, nil); err != nil {
			t.Fatalf("ingest: %v", err)
		}
	case s.mongo:
		copyMongoTemplate(t, cfg.MongoDB)
	}
	return serveApp(t, cfg), cfg
}

// serveApp starts the fx-wired service on cfg as its databases are, with
// its metrics listener when cfg names one, and returns a validating client
// for it.
func serveApp(t *testing.T, cfg bootstrap.Config) *client {
	t.Helper()
	log := zaptest.NewLogger(t, zaptest.Level(zapcore.WarnLevel))
	fxApp := fx.New(bootstrap.Options(cfg, log), bootstrap.MetricsListener(cfg))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := fxApp.Start(ctx); err != nil {
		t.Fatalf("start app: %v", err)
	}
	t.Cleanup(func() { _ = fxApp.Stop(context.Background()) })
	return &client{t: t, base: "http://" + cfg.HTTPAddr, http: &http.Client{Timeout: 30 * time.Second}}
}

func appConfig(t *testing.T, s stack) bootstrap.Config {
	env := map[string]string{bootstrap.EnvHTTPAddr: freeAddr(t), bootstrap.EnvMetricsAddr: "off"}
	if s.metrics {
		env[bootstrap.EnvMetricsAddr] = freeAddr(t)
	}
	if s.postgres {
		env[bootstrap.EnvPostgresURL] = postgresDB(t)
	}
	if s.dataDir {
		dir := t.TempDir() + "/data"
		if !s.mongo {
			copyEmbeddedTemplate(t, dir)
		}
		env[bootstrap.EnvDataDir] = dir
	}
	if s.mongo {
		name := mongoDBName()
		env[bootstrap.EnvMongoURI], env[bootstrap.EnvMongoDB] = servers.mongoURI, name
		t.Cleanup(func() { _ = servers.mongo.Database(name).Drop(context.Background()) })
	}
	cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if s.credits != 0 {
		cfg.InitialCredits = s.credits
	}
	if s.refresh != 0 {
		cfg.MongoRefresh = s.refresh
	}
	if s.rps != 0 {
		cfg.RateLimitRPS, cfg.RateLimitBurst = s.rps, s.burst
	}
	return cfg
}

// freeAddr reserves a loopback port for the app to listen on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// signIn signs in a new account and mints a key; it returns both secrets.
func signIn(t *testing.T, c *client, email string) (session, key string) {
	t.Helper()
	var login struct {
		SessionToken string `json:"session_token"`
	}
	c.do("POST", "/account/login", map[string]string{"email": email, "password": "correct horse battery staple"}).
		expect(t, http.StatusOK).JSON(t, &login)
	var created struct {
		APIKey string `json:"api_key"`
	}
	c.do("POST", "/account/keys", nil, bearer(login.SessionToken)).expect(t, http.StatusCreated).JSON(t, &created)
	return login.SessionToken, created.APIKey
}
