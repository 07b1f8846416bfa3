// Package bootstrap wires Quarry together: it reads the configuration and
// picks the fx modules of the adapters it names. It is the only package that
// knows every adapter. What the quarry commands do lives in cmd/quarry/cli;
// bootstrap gives them the building blocks that open what they work on for
// a configuration (open.go).
package bootstrap

import (
	"encoding/hex"
	"fmt"
	"math"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/ingest"

	"go.uber.org/zap/zapcore"

	"github.com/quarrydata/quarry/adapters/chatcompletions"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/pii"
)

// Config is the whole runtime configuration, read from QUARRY_* variables.
type Config struct {
	HTTPAddr       string
	PostgresURL    string
	MigrateOnStart bool
	MongoURI       string
	MongoDB        string
	// DataDir, when set, is the directory of the durable embedded backend:
	// it serves every store that no PostgreSQL URL or MongoDB URI takes
	// (SQLite for the platform, FerretDB over SQLite for the documents)
	// and keeps the search indexes on disk.
	DataDir string
	// IndexDir, when set, is the directory the search indexes are kept in
	// on disk, resumed from their checkpoints at start instead of rebuilt;
	// unset, it is the data directory's indexes folder, or memory without
	// a data directory. One process at a time.
	IndexDir string
	// Search names the search engine of the 10-K sections and the India
	// judgments: SearchBleve, an index of the process's own (in memory,
	// or kept in the index directory), or SearchPostgres, one index in
	// the PostgreSQL database at PostgresURL that every node shares.
	Search         string
	SampleData     bool
	InitialCredits int64
	RateLimitRPS   float64
	RateLimitBurst int
	// SignupsPerHour is how many accounts one client address may create
	// per hour (an IPv6 address counts by its /64), across every node.
	SignupsPerHour int
	SessionTTL     time.Duration
	// StoreTimeout bounds how long a request waits for PostgreSQL (and
	// the settling of a debit whose outcome was lost) before it is
	// answered 503 store_unavailable.
	StoreTimeout time.Duration
	// MongoTimeout bounds how long an operation waits for a MongoDB-wire
	// server that does not answer.
	MongoTimeout time.Duration
	// MongoRefresh bounds how stale a server on MongoDB may serve what
	// `quarry ingest` wrote: the life of its reference-data caches and
	// the interval at which it refreshes its search index.
	MongoRefresh time.Duration
	// CacheBytes is the memory budget, estimated in bytes, that the
	// reference-data caches in front of MongoDB share; 0 turns them off.
	CacheBytes int64
	// IngestMaxFileBytes bounds each file and archive entry an ingestion
	// run reads, uncompressed; see DefaultMaxFileBytes.
	IngestMaxFileBytes int64
	// PprofAddr, when set, is a loopback host:port where net/http/pprof
	// is served on a listener of its own; unset, there is no profiler.
	PprofAddr string
	// MetricsAddr is the host:port where `quarry serve` serves GET
	// /metrics on a listener of its own, by default 127.0.0.1:9464; empty
	// (QUARRY_METRICS_ADDR=off) turns it off. Only Serve opens it:
	// programs that embed Options (quarrytest, the e2e harness) add
	// MetricsListener themselves when they want it, so that several
	// services in one process never contend for one port.
	MetricsAddr string
	LogLevel    zapcore.Level
	// VaultPostgresURL reaches the PII vault as the vault role, and
	// VaultKey derives its tokens. Only `quarry vault` and `quarry
	// ingest` use them: Options refuses to build the serving process
	// when either is set, so it never holds them.
	VaultPostgresURL string
	VaultKey         []byte
	// AskModelURL, when set, is the base URL of an OpenAI-compatible
	// chat-completions endpoint that answers Ask's text questions, asking
	// for AskModel and sending AskModelKey (never logged) as a bearer
	// token; unset, Ask uses its extractive answerer only.
	AskModelURL string
	AskModel    string
	AskModelKey string
	// APIKey is the key `quarry mcp` sends to the remote Quarry it
	// bridges to; the server never reads it.
	APIKey string
	// Sync configures the outside sources (QUARRY_SYNC and the
	// sources' own settings).
	Sync SyncConfig

	// The fields below are for programs that embed the service, such as
	// quarrytest; no variable sets them and LoadConfig leaves them zero.

	// Files names source files by dataset, as `quarry ingest` names the
	// dataset; each named dataset is loaded from its files at start,
	// through its Ingester, instead of from its bundled sample.
	Files map[string][]string
	// Empty names datasets, as `quarry ingest` names them, whose sample
	// is not loaded at start, so they answer 503 until data is ingested.
	Empty []string
	// Clock, when set, stands in for the wall clock of the use cases:
	// session expiry, ledger entries, the default as_of, the rate limiter.
	Clock usecase.Clock
	// Listener, when set, is served instead of a listener opened on
	// HTTPAddr, so the embedding program knows the address before start.
	Listener net.Listener
}

// holdsDocuments reports whether dir is a data directory whose documents
// were written by an earlier start or ingest.
func holdsDocuments(dir string) bool {
	if dir == "" {
		return false
	}
	return exists(filepath.Join(dir, DataDirDocuments))
}

// OnMongo reports whether the documents live in a MongoDB-wire database:
// the server at QUARRY_MONGO_URI, or FerretDB embedded in QUARRY_DATA_DIR.
func (c Config) OnMongo() bool { return c.MongoURI != "" || c.DataDir != "" }

// The engines QUARRY_SEARCH names.
const (
	SearchBleve    = "bleve"
	SearchPostgres = "postgres"
)

// sharedSearch reports whether the search indexes are the ones every node
// shares in PostgreSQL.
func (c Config) sharedSearch() bool { return c.Search == SearchPostgres }

// indexDir is where the search indexes are kept on disk: IndexDir, else
// the data directory's indexes folder; empty keeps them in memory, or in
// PostgreSQL.
func (c Config) indexDir() string {
	if c.sharedSearch() {
		return ""
	}
	if c.IndexDir == "" && c.DataDir != "" {
		return filepath.Join(c.DataDir, dataDirIndexes)
	}
	return c.IndexDir
}

// EmbeddedPlatform reports whether accounts, keys, sessions and the ledger
// live in the data directory: one is named and no PostgreSQL URL takes them.
func (c Config) EmbeddedPlatform() bool { return c.PostgresURL == "" && c.DataDir != "" }

// EmbeddedDocuments reports whether the documents live in the data
// directory: one is named and no MongoDB URI takes them.
func (c Config) EmbeddedDocuments() bool { return c.MongoURI == "" && c.DataDir != "" }

// samples reports whether the bundled sample of the named dataset is
// loaded at start: sample data is asked for, and the dataset is neither
// left empty nor loaded from files.
func (c Config) samples(name string) bool {
	_, fromFiles := c.Files[name]
	return c.SampleData && !fromFiles && !slices.Contains(c.Empty, name)
}

// Variable names, with their defaults in LoadConfig.
const (
	EnvHTTPAddr       = "QUARRY_HTTP_ADDR"
	EnvPostgresURL    = "QUARRY_POSTGRES_URL"
	EnvAutoMigrate    = "QUARRY_AUTO_MIGRATE"
	EnvMongoURI       = "QUARRY_MONGO_URI"
	EnvMongoDB        = "QUARRY_MONGO_DB"
	EnvDataDir        = "QUARRY_DATA_DIR"
	EnvIndexDir       = "QUARRY_INDEX_DIR"
	EnvSearch         = "QUARRY_SEARCH"
	EnvSampleData     = "QUARRY_SAMPLE_DATA"
	EnvInitialCredits = "QUARRY_INITIAL_CREDITS"
	EnvRateLimitRPS   = "QUARRY_RATE_LIMIT_RPS"
	EnvRateLimitBurst = "QUARRY_RATE_LIMIT_BURST"
	EnvSignupLimit    = "QUARRY_SIGNUP_LIMIT"
	EnvSessionTTL     = "QUARRY_SESSION_TTL"
	EnvMongoRefresh   = "QUARRY_MONGO_REFRESH"
	EnvStoreTimeout   = "QUARRY_STORE_TIMEOUT"
	EnvMongoTimeout   = "QUARRY_MONGO_TIMEOUT"
	EnvCacheBytes     = "QUARRY_CACHE_BYTES"
	// EnvIngestMaxFileBytes is named by the refusal of a file too large.
	EnvIngestMaxFileBytes = "QUARRY_INGEST_MAX_FILE_BYTES"
	EnvLogLevel           = "QUARRY_LOG_LEVEL"
	EnvPprofAddr          = "QUARRY_PPROF_ADDR"
	EnvMetricsAddr        = "QUARRY_METRICS_ADDR"
	EnvVaultURL           = "QUARRY_VAULT_POSTGRES_URL"
	EnvVaultKey           = "QUARRY_VAULT_KEY"
	EnvAskModelURL        = "QUARRY_ASK_MODEL_URL"
	EnvAskModel           = "QUARRY_ASK_MODEL"
	EnvAskModelKey        = "QUARRY_ASK_MODEL_KEY"
	EnvAPIKey             = "QUARRY_API_KEY"
	// The sources' settings (syncconfig.go).
	EnvSync      = "QUARRY_SYNC"
	EnvSyncEvery = "QUARRY_SYNC_EVERY"
	EnvSyncFrom  = "QUARRY_SYNC_FROM"
	// EnvSyncMaxRunBytes is named by the stop of a run past its budget.
	EnvSyncMaxRunBytes = "QUARRY_SYNC_MAX_RUN_BYTES"
	EnvNSEBaseURL      = "QUARRY_NSE_BASE_URL"
	EnvSECUserAgent    = "QUARRY_SEC_USER_AGENT"
	EnvSECBaseURL      = "QUARRY_SEC_BASE_URL"
	EnvSECDataBaseURL  = "QUARRY_SEC_DATA_BASE_URL"
	EnvJudgmentsInbox  = "QUARRY_JUDGMENTS_INBOX"
	EnvTushareToken    = "QUARRY_TUSHARE_TOKEN"
	EnvTushareBaseURL  = "QUARRY_TUSHARE_BASE_URL"
	// EnvTusharePerMinute is named by the stop on a refusal for the rate.
	EnvTusharePerMinute = "QUARRY_TUSHARE_PER_MINUTE"
)

// LoadConfig reads the configuration through getenv (os.Getenv in the
// binary) and refuses a bad value with one line naming the variable.
func LoadConfig(getenv func(string) string) (Config, error) {
	r := reader{getenv: getenv}
	c := Config{
		HTTPAddr:           r.str(EnvHTTPAddr, "127.0.0.1:8080"),
		PostgresURL:        getenv(EnvPostgresURL),
		MongoURI:           getenv(EnvMongoURI),
		MongoDB:            r.str(EnvMongoDB, "quarry"),
		DataDir:            r.path(EnvDataDir),
		IndexDir:           r.path(EnvIndexDir),
		Search:             r.str(EnvSearch, SearchBleve),
		InitialCredits:     r.int64(EnvInitialCredits, 100000, 0),
		RateLimitRPS:       r.float(EnvRateLimitRPS, 50),
		RateLimitBurst:     int(r.int64(EnvRateLimitBurst, 100, 1)),
		SignupsPerHour:     int(r.int64(EnvSignupLimit, platform.DefaultSignupsPerHour, 1)),
		SessionTTL:         r.duration(EnvSessionTTL, 8*time.Hour),
		MongoRefresh:       r.duration(EnvMongoRefresh, 30*time.Second),
		StoreTimeout:       r.duration(EnvStoreTimeout, platform.DefaultStoreTimeout),
		MongoTimeout:       r.duration(EnvMongoTimeout, platform.DefaultStoreTimeout),
		CacheBytes:         r.bytes(EnvCacheBytes, 256<<20),
		IngestMaxFileBytes: r.bytes(EnvIngestMaxFileBytes, ingest.DefaultMaxFileBytes),
		LogLevel:           r.level(EnvLogLevel),
		PprofAddr:          getenv(EnvPprofAddr),
		MetricsAddr:        r.metricsAddr(),
		VaultPostgresURL:   getenv(EnvVaultURL),
		VaultKey:           r.hexKey(EnvVaultKey),
		AskModelURL:        getenv(EnvAskModelURL),
		AskModel:           getenv(EnvAskModel),
		AskModelKey:        getenv(EnvAskModelKey),
		APIKey:             getenv(EnvAPIKey),
		Sync:               r.syncConfig(),
	}
	// Sample data fills the memory stores by default, and a new data
	// directory once, at its first start; a database is filled with
	// `quarry ingest` unless asked for explicitly.
	c.SampleData = r.bool(EnvSampleData, c.MongoURI == "" && !holdsDocuments(c.DataDir))
	c.MigrateOnStart = r.bool(EnvAutoMigrate, false)
	if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil && r.err == nil {
		r.err = fmt.Errorf("%s=%q: want host:port", EnvHTTPAddr, c.HTTPAddr)
	}
	if c.IndexDir != "" && !c.OnMongo() && r.err == nil {
		r.err = fmt.Errorf("%s is set without %s or %s: documents in memory are gone at a restart, and an index kept on disk would name documents no store holds", EnvIndexDir, EnvMongoURI, EnvDataDir)
	}
	if r.err == nil {
		r.err = c.checkSearch()
	}
	if c.PprofAddr != "" && !loopback(c.PprofAddr) && r.err == nil {
		r.err = fmt.Errorf("%s=%q: want a loopback host:port such as 127.0.0.1:6060", EnvPprofAddr, c.PprofAddr)
	}
	if c.AskModelURL != "" && r.err == nil {
		if err := chatcompletions.CheckURL(c.AskModelURL); err != nil {
			r.err = fmt.Errorf("%s=%q: %v", EnvAskModelURL, redactURL(c.AskModelURL), err)
		} else if c.AskModel == "" {
			r.err = fmt.Errorf("%s is set: %s must name the model", EnvAskModelURL, EnvAskModel)
		}
	}
	return c, r.err
}

// checkSearch refuses a QUARRY_SEARCH that names no engine, and a shared
// index without the database it lives in, without durable documents (an
// index every node shares would name documents a restart forgets) or
// beside QUARRY_INDEX_DIR, which only bleve uses.
func (c Config) checkSearch() error {
	switch {
	case c.Search != SearchBleve && c.Search != SearchPostgres:
		return fmt.Errorf("%s=%q: want %s or %s", EnvSearch, c.Search, SearchBleve, SearchPostgres)
	case !c.sharedSearch():
		return nil
	case c.PostgresURL == "":
		return fmt.Errorf("%s=%s needs %s: the shared index lives in that database", EnvSearch, SearchPostgres, EnvPostgresURL)
	case !c.OnMongo():
		return fmt.Errorf("%s=%s needs %s or %s: documents in memory are gone at a restart, and the shared index would name documents no store holds", EnvSearch, SearchPostgres, EnvMongoURI, EnvDataDir)
	case c.IndexDir != "":
		return fmt.Errorf("%s is set with %s=%s: the index directory is bleve's; unset one", EnvIndexDir, EnvSearch, SearchPostgres)
	}
	return nil
}

// metricsAddr reads QUARRY_METRICS_ADDR: unset is the loopback default,
// "off" no listener, anything else a host:port (port 0: any free port, as
// several nodes on one machine may want).
func (r *reader) metricsAddr() string {
	switch raw := r.getenv(EnvMetricsAddr); raw {
	case "":
		// Not 9090: that is Prometheus's own port, often on the same host.
		return "127.0.0.1:9464"
	case "off":
		return ""
	default:
		if _, _, err := net.SplitHostPort(raw); err != nil {
			r.fail(EnvMetricsAddr, raw, `want host:port, or "off"`)
		}
		return raw
	}
}

// redactURL hides a password a URL carries, so a refusal can quote it.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		return u.Redacted()
	}
	return raw
}

// loopback reports whether addr is a host:port on the loopback interface,
// where only the machine itself can reach it.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// reader keeps the first error, so LoadConfig reads straight through.
type reader struct {
	getenv func(string) string
	err    error
}

func (r *reader) fail(name, raw, want string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s=%q: %s", name, raw, want)
	}
}

func (r *reader) str(name, def string) string {
	if v := r.getenv(name); v != "" {
		return v
	}
	return def
}

// path reads a path and makes it absolute against the working directory,
// once, at start: the SQLite and FerretDB URIs built from it need an
// absolute path (file://data/platform.db would name a host "data"), and a
// later change of directory must not move the data.
func (r *reader) path(name string) string {
	raw := r.getenv(name)
	if raw == "" {
		return ""
	}
	abs, err := filepath.Abs(raw)
	if err != nil {
		r.fail(name, raw, "want a directory path")
	}
	return abs
}

func (r *reader) int64(name string, def, minimum int64) int64 {
	raw := r.getenv(name)
	if raw == "" {
		return def
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < minimum {
		r.fail(name, raw, fmt.Sprintf("want an integer of at least %d", minimum))
	}
	return n
}

// byteUnits are the suffixes a size may carry.
var byteUnits = []struct {
	suffix string
	size   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}}

func (r *reader) bytes(name string, def int64) int64 {
	raw := r.getenv(name)
	if raw == "" {
		return def
	}
	digits, unit := raw, int64(1)
	for _, u := range byteUnits {
		if d, ok := strings.CutSuffix(raw, u.suffix); ok {
			digits, unit = d, u.size
			break
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/unit {
		r.fail(name, raw, "want a number of bytes such as 268435456 or 256MiB (KiB, MiB and GiB are known), or 0")
	}
	return n * unit
}

func (r *reader) float(name string, def float64) float64 {
	raw := r.getenv(name)
	if raw == "" {
		return def
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || !(f > 0) || f > 1e6 {
		r.fail(name, raw, "want a positive number of requests per second")
	}
	return f
}

func (r *reader) bool(name string, def bool) bool {
	raw := r.getenv(name)
	if raw == "" {
		return def
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		r.fail(name, raw, "want true or false")
	}
	return b
}

func (r *reader) duration(name string, def time.Duration) time.Duration {
	raw := r.getenv(name)
	if raw == "" {
		return def
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		r.fail(name, raw, "want a positive duration such as 8h or 30m")
	}
	return d
}

// hexKey reads a secret of at least pii.MinKeyBytes bytes written in hex
// (openssl rand -hex 32 makes one). The refusal never repeats the value.
func (r *reader) hexKey(name string) []byte {
	raw := r.getenv(name)
	if raw == "" {
		return nil
	}
	key, err := hex.DecodeString(strings.TrimSpace(raw))
	if err != nil || len(key) < pii.MinKeyBytes {
		if r.err == nil {
			r.err = fmt.Errorf("%s: want at least %d bytes written as %d or more hex digits (openssl rand -hex %d makes one)",
				name, pii.MinKeyBytes, 2*pii.MinKeyBytes, pii.MinKeyBytes)
		}
		return nil
	}
	return key
}

func (r *reader) level(name string) zapcore.Level {
	raw := r.getenv(name)
	if raw == "" {
		return zapcore.InfoLevel
	}
	l, err := zapcore.ParseLevel(raw)
	if err != nil {
		r.fail(name, raw, "want debug, info, warn or error")
	}
	return l
}
