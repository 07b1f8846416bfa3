package bootstrap_test

import (
	"testing"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/bootstrap"
)

// TestEveryStorageCombinationWires proves the fx graph is complete for each
// choice of storage, without connecting to anything.
func TestEveryStorageCombinationWires(t *testing.T) {
	combos := map[string]map[string]string{
		"memory":           {},
		"memory uncached":  {bootstrap.EnvCacheBytes: "0"},
		"postgres":         {bootstrap.EnvPostgresURL: "postgres://u:p@db/quarry", bootstrap.EnvAutoMigrate: "true"},
		"mongo":            {bootstrap.EnvMongoURI: "mongodb://db:27017"},
		"mongo uncached":   {bootstrap.EnvMongoURI: "mongodb://db:27017", bootstrap.EnvCacheBytes: "0"},
		"memory+ask model": {bootstrap.EnvAskModelURL: "http://127.0.0.1:1/v1", bootstrap.EnvAskModel: "m", bootstrap.EnvAskModelKey: "k"},
		"postgres+mongo":   {bootstrap.EnvPostgresURL: "postgres://u:p@db/quarry", bootstrap.EnvMongoURI: "mongodb://db:27017", bootstrap.EnvSampleData: "true"},
	}
	for name, env := range combos {
		t.Run(name, func(t *testing.T) {
			cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if err := fx.ValidateApp(bootstrap.Options(cfg, zap.NewNop())); err != nil {
				t.Fatalf("wiring: %v", err)
			}
		})
	}
}
