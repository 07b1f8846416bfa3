package postgres

import (
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

// Connect opens a pool on the database at databaseURL and checks that it
// answers. A URL that does not parse is reported without repeating it, since
// it may hold a password; a database that cannot be reached is
// ports.ErrUnavailable. A pool_max_conns in the URL wins over the default
// pool size.
func Connect(ctx context.Context, databaseURL string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, parseError(err)
	}
	if !strings.Contains(databaseURL, "pool_max_conns") {
		cfg.MaxConns = defaultMaxConns
	}
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
