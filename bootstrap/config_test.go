package bootstrap_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/bootstrap"
)

func TestLoadConfigDefaults(t *testing.T) {
	cfg, err := bootstrap.LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTPAddr != "127.0.0.1:8080" || cfg.InitialCredits != 100000 || cfg.RateLimitRPS != 50 ||
		cfg.RateLimitBurst != 100 || cfg.SignupsPerHour != 5 || cfg.SessionTTL != 8*time.Hour || cfg.MongoRefresh != 30*time.Second || cfg.CacheBytes != 256<<20 || !cfg.SampleData || cfg.PostgresURL != "" {
		t.Fatalf("defaults = %+v", cfg)
	}
	withMongo, err := bootstrap.LoadConfig(func(k string) string {
		return map[string]string{bootstrap.EnvMongoURI: "mongodb://db:27017"}[k]
	})
	if err != nil || withMongo.SampleData || withMongo.MongoDB != "quarry" {
		t.Fatalf("with MongoDB: %+v, %v", withMongo, err)
	}
}

func TestLoadConfigReadsTheMetricsAddress(t *testing.T) {
	for raw, want := range map[string]string{"": "127.0.0.1:9464", "off": "", "10.0.0.5:9100": "10.0.0.5:9100", "127.0.0.1:0": "127.0.0.1:0"} {
		cfg, err := bootstrap.LoadConfig(func(k string) string {
			return map[string]string{bootstrap.EnvMetricsAddr: raw}[k]
		})
		if err != nil || cfg.MetricsAddr != want {
			t.Errorf("%s=%q: %q, %v; want %q", bootstrap.EnvMetricsAddr, raw, cfg.MetricsAddr, err, want)
		}
	}
}

func TestLoadConfigReadsCacheBytes(t *testing.T) {
	for raw, want := range map[string]int64{"0": 0, "1048576": 1 << 20, "64KiB": 64 << 10, "256MiB": 256 << 20, "2GiB": 2 << 30} {
		cfg, err := bootstrap.LoadConfig(func(k string) string {
			return map[string]string{bootstrap.EnvCacheBytes: raw}[k]
		})
		if err != nil || cfg.CacheBytes != want {
			t.Errorf("%s=%s: %d, %v; want %d", bootstrap.EnvCacheBytes, raw, cfg.CacheBytes, err, want)
		}
	}
}

func TestLoadConfigRefusesBadValuesWithOneLine(t *testing.T) {
	cases := map[string]string{
		bootstrap.EnvHTTPAddr:       "8080",
		bootstrap.EnvInitialCredits: "-5",
		bootstrap.EnvRateLimitRPS:   "fast",
		bootstrap.EnvRateLimitBurst: "0",
		bootstrap.EnvSignupLimit:    "0",
		bootstrap.EnvSessionTTL:     "8",
		bootstrap.EnvMongoRefresh:   "-1s",
		bootstrap.EnvCacheBytes:     "256MB",
		bootstrap.EnvSampleData:     "maybe",
		bootstrap.EnvLogLevel:       "loud",
		bootstrap.EnvAutoMigrate:    "sometimes",
		bootstrap.EnvPprofAddr:      "0.0.0.0:6060",
		bootstrap.EnvMetricsAddr:    "9090",
		bootstrap.EnvVaultKey:       "abcd", // too short, and the value is never repeated
		bootstrap.EnvAskModelURL:    "llm.example/v1",
		bootstrap.EnvIndexDir:       "/var/lib/quarry-index", // without MongoDB or a data directory
	}
	for name, value := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := bootstrap.LoadConfig(func(k string) string {
				if k == name {
					return value
				}
				return ""
			})
			if err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("LoadConfig(%s=%q) = %v, want one line naming the variable", name, value, err)
			}
		})
	}
}

func TestLoadConfigReadsTheVaultKeyInHex(t *testing.T) {
	key := strings.Repeat("0f", 32)
	cfg, err := bootstrap.LoadConfig(func(k string) string { return map[string]string{bootstrap.EnvVaultKey: key}[k] })
	if err != nil || len(cfg.VaultKey) != 32 || cfg.VaultKey[0] != 0x0f {
		t.Fatalf("VaultKey = %x, %v", cfg.VaultKey, err)
	}
	for _, bad := range []string{strings.Repeat("0f", 31), strings.Repeat("zz", 32)} {
		_, err := bootstrap.LoadConfig(func(k string) string { return map[string]string{bootstrap.EnvVaultKey: bad}[k] })
		if err == nil || strings.Contains(err.Error(), bad) {
			t.Fatalf("LoadConfig(%s=%q) = %v", bootstrap.EnvVaultKey, bad, err)
		}
	}
}

func TestLoadConfigReadsTheAskModel(t *testing.T) {
	env := map[string]string{bootstrap.EnvAskModelURL: "https://llm.example/v1", bootstrap.EnvAskModel: "m-1", bootstrap.EnvAskModelKey: "sk-secret"}
	cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
	if err != nil || cfg.AskModelURL != "https://llm.example/v1" || cfg.AskModel != "m-1" || cfg.AskModelKey != "sk-secret" {
		t.Fatalf("ask model: %+v, %v", cfg, err)
	}
	for _, bad := range []map[string]string{
		{bootstrap.EnvAskModelURL: "https://llm.example/v1", bootstrap.EnvAskModelKey: "sk-secret"},                                 // no model
		{bootstrap.EnvAskModelURL: "https://u:sk-secret@llm.example/v1", bootstrap.EnvAskModel: "m", bootstrap.EnvAskModelKey: "x"}, // credentials in the URL
		{bootstrap.EnvAskModelURL: "ftp://llm.example", bootstrap.EnvAskModel: "m", bootstrap.EnvAskModelKey: "sk-secret"},
	} {
		_, err := bootstrap.LoadConfig(func(k string) string { return bad[k] })
		if err == nil || strings.Contains(err.Error(), "sk-secret") || strings.Contains(err.Error(), "\n") {
			t.Errorf("LoadConfig(%v) = %v, want one line without the key", bad, err)
		}
	}
}

func TestLoadConfigMakesTheDataDirectoryAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cfg, err := bootstrap.LoadConfig(func(k string) string { return map[string]string{bootstrap.EnvDataDir: "./data"}[k] })
	if err != nil || cfg.DataDir != filepath.Join(dir, "data") {
		t.Fatalf("%s=./data: DataDir %q, %v; want %q", bootstrap.EnvDataDir, cfg.DataDir, err, filepath.Join(dir, "data"))
	}
}
