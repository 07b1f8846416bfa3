package bootstrap

import "github.com/quarrydata/quarry/adapters/tusharesource"

// Setting describes one QUARRY_* variable for `quarry help`.
type Setting struct {
	// Name is the variable, one of the Env* constants.
	Name string
	// Default is the value LoadConfig uses when the variable is unset,
	// written as an operator would write it; empty when unset means off,
	// memory, or a default that depends on other settings (said in Meaning).
	Default string
	// Meaning says in one line what the variable sets.
	Meaning string
}

// Settings lists every variable LoadConfig reads, in the order `quarry
// help` prints them. A test holds it to the Env* constants, so a variable
// added there without a line here fails, and checks that each Default is
// what LoadConfig does when the variable is unset.
var Settings = []Setting{
	{EnvHTTPAddr, "127.0.0.1:8080", "listen address (host:port)"},
	{EnvDataDir, "", "unset: memory. The durable embedded backend, for every store no URL below takes; created if missing; one process at a time; `quarry ingest` writes it too"},
	{EnvPostgresURL, "", "unset: memory or the data directory. Accounts, keys, sessions and the ledger on PostgreSQL"},
	{EnvAutoMigrate, "false", "apply the PostgreSQL migrations at start"},
	{EnvMongoURI, "", "unset: memory or the data directory. Dataset documents on MongoDB (or a MongoDB-wire server)"},
	{EnvMongoDB, "quarry", "MongoDB database name"},
	{EnvIndexDir, "", "unset: the data directory's indexes folder, else memory (rebuilt at each start). With MongoDB or a data directory: the folder the search indexes are kept in, resumed at a restart; one per server"},
	{EnvSearch, SearchBleve, "search engine of the 10-K sections and India judgments: bleve (each process's own index, in memory or the index directory) or postgres (one index in " + EnvPostgresURL + "'s database that every node shares, written by quarry ingest/sync or the one node holding its lock; needs MongoDB or a data directory)"},
	{EnvSampleData, "", "load the bundled samples at start; default true without MongoDB (with a data directory: at its first start only), else false"},
	{EnvInitialCredits, "100000", "credits granted at sign-up"},
	{EnvRateLimitRPS, "50", "requests per second per API key"},
	{EnvRateLimitBurst, "100", "burst per API key"},
	{EnvSignupLimit, "5", "accounts one client address may create per hour, shared by every node"},
	{EnvSessionTTL, "8h", "session token lifetime"},
	{EnvStoreTimeout, "2s", "how long a request waits for PostgreSQL before it is answered 503 store_unavailable with Retry-After; a debit whose outcome was lost is settled within it"},
	{EnvMongoTimeout, "2s", "how long a request waits for a MongoDB-wire server that does not answer before it is answered 503 store_unavailable, refunded"},
	{EnvMongoRefresh, "30s", "with MongoDB or a data directory: cache life of reference data and how often new filing sections are indexed"},
	{EnvIngestMaxFileBytes, "16GiB", "`quarry ingest`: the most a source file or zip entry may hold, uncompressed (KiB, MiB, GiB suffixes)"},
	{EnvCacheBytes, "256MiB", "memory the reference-data caches share (KiB, MiB, GiB suffixes); 0 turns them off"},
	{EnvLogLevel, "info", "debug, info, warn or error"},
	{EnvPprofAddr, "", "unset: off. A loopback host:port serving Go's profiler on a listener of its own"},
	{EnvMetricsAddr, "127.0.0.1:9464", "host:port of the Prometheus metrics listener (`quarry serve` only); off turns it off, port 0 takes any free port"},
	{EnvVaultURL, "", "the PII vault as its own role; for `quarry vault` and `quarry ingest` only (serve refuses it)"},
	{EnvVaultKey, "", "hex key (>= 32 bytes) that derives PII tokens; for `quarry ingest` only (serve refuses it)"},
	{EnvAskModelURL, "", "unset: extractive answers only. Base URL of an OpenAI-compatible chat-completions endpoint for Ask"},
	{EnvAskModel, "", "the model asked for; required with the URL"},
	{EnvAskModelKey, "", "bearer token sent to the endpoint; never logged"},
	{EnvAPIKey, "", "`quarry mcp` only: the API key sent to the remote Quarry it bridges to; never logged"},
	{EnvSync, "", "unset: no schedule. Sources `quarry serve` keeps current, comma-separated (nse, edgar, tushare; not judgments, whose inbox needs the vault key serve refuses)"},
	{EnvSyncEvery, "1h", "how often the schedule runs each source named in " + EnvSync},
	{EnvSyncFrom, "", "unset: each source starts at the latest day due. First day (YYYY-MM-DD) the schedule backfills from"},
	{EnvSyncMaxRunBytes, "8GiB", "the most bytes one run of a source (`quarry sync`, or one scheduled run) may fetch, decoded; the run stops at the day that passes it, keeping the days before, and the next run goes on"},
	{EnvNSEBaseURL, defaultNSEBaseURL, "NSE archive host the nse source fetches the daily bhavcopy from (a mirror may stand in)"},
	{EnvSECUserAgent, "", "unset: the edgar source is off. The User-Agent the SEC asks for: who fetches and a contact e-mail (Example Corp ops@example.com)"},
	{EnvSECBaseURL, defaultSECBaseURL, "SEC host the edgar source fetches the daily form index (Archives/edgar/daily-index/…) from"},
	{EnvSECDataBaseURL, defaultSECDataBaseURL, "SEC host the edgar source fetches companyfacts (api/xbrl/companyfacts/…) from"},
	{EnvJudgmentsInbox, "", "unset: the judgments inbox is off. Folder of licensed India judgment deliveries (.zip) `quarry sync judgments` takes, with " + EnvVaultKey},
	{EnvTushareToken, "", "unset: the tushare source is off, and china_prices on an empty store is source_required. The Tushare Pro token; never logged"},
	{EnvTushareBaseURL, tusharesource.DefaultBaseURL, "Tushare Pro API host the tushare source posts to (daily, stock_basic)"},
	{EnvTusharePerMinute, "500", "requests a minute the tushare source sends at most: daily's limit for base points; lower it to the account's limit"},
}
