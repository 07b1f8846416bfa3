package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/ports"
)

// defaultMaxConns sizes the pool for the debit hot path: every billed request
// holds a connection for one statement, and pgxpool's own default (the CPU
// count, at least 4) would queue them behind one another.
const defaultMaxConns = 32

// pingTimeout bounds how long Connect waits for the first answer, so that a
// wrong host fails start-up instead of hanging it.
const pingTimeout = 5 * time.Second

// The pool's settings for a failover. A URL naming several hosts with
// target_session_attrs=read-write connects to whichever is the primary, so
// what moves a pool to a promoted standby is how soon it drops connections
// to the old one and opens new ones: a connection that broke is dropped when
// it is next used or health-checked, an idle one after a short while, and
// every one within a bounded lifetime (jittered, so that the nodes do not
// reconnect at once). A connection attempt is bounded, so that a host that
// does not answer is passed over within seconds for the next one.
const (
	healthCheckPeriod     = time.Second
	maxConnIdleTime       = 30 * time.Second
	maxConnLifetime       = 5 * time.Minute
	maxConnLifetimeJitter = 30 * time.Second
	defaultConnectTimeout = 5 * time.Second
)

// Connect opens a pool on the database at databaseURL, as ConnectWithin
// does with the default connection timeout.
func Connect(ctx context.Context, databaseURL string) (*pgxpool.Pool, error) {
	return ConnectWithin(ctx, databaseURL, 0)
}

// ConnectWithin opens a pool on the database at databaseURL and checks that
// it answers; each connection attempt to a host is bounded by timeout
// (zero: 5 s) unless the URL sets connect_timeout. A URL that does not
// parse is reported without repeating it, since it may hold a password; a
// database that cannot be reached is ports.ErrUnavailable. A pool_max_conns
// in the URL wins over the default pool size.
func ConnectWithin(ctx context.Context, databaseURL string, timeout time.Duration) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, parseError(err)
	}
	configure(cfg, databaseURL, timeout)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open pool: %w: %v", ports.ErrUnavailable, err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, translate("connect", err)
	}
	return pool, nil
}

// configure applies the pool defaults a URL does not override.
func configure(cfg *pgxpool.Config, databaseURL string, timeout time.Duration) {
	if !strings.Contains(databaseURL, "pool_max_conns") {
		cfg.MaxConns = defaultMaxConns
	}
	if !strings.Contains(databaseURL, "connect_timeout") {
		cfg.ConnConfig.ConnectTimeout = cmp.Or(timeout, defaultConnectTimeout)
	}
	if !strings.Contains(databaseURL, "pool_health_check_period") {
		cfg.HealthCheckPeriod = healthCheckPeriod
	}
	if !strings.Contains(databaseURL, "pool_max_conn_idle_time") {
		cfg.MaxConnIdleTime = maxConnIdleTime
	}
	if !strings.Contains(databaseURL, "pool_max_conn_lifetime") {
		cfg.MaxConnLifetime = maxConnLifetime
		cfg.MaxConnLifetimeJitter = maxConnLifetimeJitter
	}
}

// parseError keeps pgx's reason for rejecting a URL but drops the URL itself:
// pgx redacts passwords from it only on a best-effort basis, and net/url
// quotes it whole.
func parseError(err error) error {
	reason := err.Error()
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		reason = strings.ReplaceAll(reason, strconv.Quote(urlErr.URL), "<url>")
	}
	// pgx's message reads "cannot parse `<connection string>`: <reason>".
	if i := strings.LastIndex(reason, "`: "); i >= 0 {
		reason = reason[i+len("`: "):]
	}
	return fmt.Errorf("postgres: invalid database URL: %s", reason)
}
