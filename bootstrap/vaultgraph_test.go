package bootstrap_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/ports"
)

// storageCombos are the serving configurations, by name.
var storageCombos = map[string]map[string]string{
	"memory":         {},
	"postgres":       {bootstrap.EnvPostgresURL: "postgres://u:p@db/quarry", bootstrap.EnvAutoMigrate: "true"},
	"mongo":          {bootstrap.EnvMongoURI: "mongodb://db:27017"},
	"mongo uncached": {bootstrap.EnvMongoURI: "mongodb://db:27017", bootstrap.EnvCacheBytes: "0"},
	"postgres+mongo": {bootstrap.EnvPostgresURL: "postgres://u:p@db/quarry", bootstrap.EnvMongoURI: "mongodb://db:27017", bootstrap.EnvSampleData: "true"},
}

// vaultTypes are the graph labels of everything that reaches the vault or
// derives its tokens: the port, its adapters and the key.
var vaultTypes = regexp.MustCompile(`\b(ports\.Vault|\*?vault\.Store|\*?memory\.Vault|pii\.Key|\*?pii\.Redactor)\b`)

// errGraphTaken stops fx.New once the graph is drawn, before any
// constructor runs, so nothing connects anywhere.
var errGraphTaken = errors.New("graph taken")

// serveGraph returns the dig graph of the serving process built from
// opts: every constructor provided, whether or not it would run.
func serveGraph(t *testing.T, opts fx.Option) string {
	t.Helper()
	var dot fx.DotGraph
	// A child module's invokes run before the root's, and this one is
	// the first child, so it runs before any invoke of opts.
	app := fx.New(fx.NopLogger,
		fx.Module("graph", fx.Invoke(func(g fx.DotGraph) error { dot = g; return errGraphTaken })),
		opts)
	if !errors.Is(app.Err(), errGraphTaken) {
		t.Fatalf("building the graph: %v", app.Err())
	}
	if !strings.Contains(string(dot), "http.DataHandler") || !strings.Contains(string(dot), "*http.Server") {
		t.Fatalf("the graph has no handlers or server; is it the serving one?\n%s", dot)
	}
	return string(dot)
}

// TestServeGraphHoldsNoVault proves, for every storage combination, that
// the serving process's fx graph holds no vault type at all, so no HTTP
// handler can depend on the vault, directly or transitively: fx can only
// give a constructor what the graph provides.
func TestServeGraphHoldsNoVault(t *testing.T) {
	for name, env := range storageCombos {
		t.Run(name, func(t *testing.T) {
			cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			dot := serveGraph(t, bootstrap.Options(cfg, zap.NewNop()))
			if found := vaultTypes.FindAllString(dot, -1); len(found) > 0 {
				t.Fatalf("the serving graph holds %v", found)
			}
		})
	}
	// The check can fail: the same graph with a handler built on a vault
	// shows it.
	t.Run("a vault wired into a handler is seen", func(t *testing.T) {
		cfg, _ := bootstrap.LoadConfig(func(string) string { return "" })
		dot := serveGraph(t, fx.Options(
			bootstrap.Options(cfg, zap.NewNop()),
			fx.Provide(func() ports.Vault { return memory.NewVault() }),
			fx.Provide(fx.Annotate(func(ports.Vault) httpadapter.DataHandler { return httpadapter.DataHandler{} },
				fx.ResultTags(`group:"handlers"`))),
		))
		if !vaultTypes.MatchString(dot) {
			t.Fatal("a vault in the graph went unseen")
		}
	})
}

// TestServeRefusesTheVaultSettings: the serving process is never given
// the vault's connection or key; set in its environment, it will not start.
func TestServeRefusesTheVaultSettings(t *testing.T) {
	for _, env := range []map[string]string{
		{bootstrap.EnvVaultURL: "postgres://quarry_vault:secret@db/quarry"},
		{bootstrap.EnvVaultKey: strings.Repeat("ab", 32)},
	} {
		cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		err = fx.ValidateApp(bootstrap.Options(cfg, zap.NewNop()))
		if err == nil || !strings.Contains(err.Error(), "must never hold the PII vault") {
			t.Fatalf("serve with %v: %v", env, err)
		}
		if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "abab") {
			t.Fatalf("the refusal repeats the secret: %v", err)
		}
	}
}
