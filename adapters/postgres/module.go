package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/ports"
)

// Config says which database the adapter uses. The bootstrap package
// supplies it to Module.
type Config struct {
	// URL is a PostgreSQL connection URL; it may carry a password.
	URL string
	// Timeout bounds a ledger write and a connection attempt; zero keeps
	// their defaults.
	Timeout time.Duration
}

// Module provides the connection pool, closed when the application stops, the
// Store as itself and as the account, session, key, ledger, key watch,
// rate-bucket, sign-in history and idempotency ports, and the sources'
// leases. It needs a Config in the graph. On stop the Store's debit batchers stop
// before the pool closes.
var Module = fx.Module("postgres",
	fx.Provide(
		newPool,
		fx.Annotate(newStore,
			fx.As(fx.Self()),
			fx.As(new(ports.AccountStore)),
			fx.As(new(ports.SessionStore)),
			fx.As(new(ports.KeyStore)),
			fx.As(new(ports.Ledger)),
			fx.As(new(ports.KeyWatch)),
			fx.As(new(ports.RateBuckets)),
			fx.As(new(ports.SigninHistory)),
			fx.As(new(ports.IdempotencyStore)),
		),
		fx.Annotate(NewSourceLeases, fx.As(new(ports.SourceLeases))),
	),
)

// newPool connects while the application is built, so a bad URL or an
// unreachable database stops start-up, and closes the pool on stop.
func newPool(lc fx.Lifecycle, cfg Config) (*pgxpool.Pool, error) {
	pool, err := ConnectWithin(context.Background(), cfg.URL, cfg.Timeout)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(pool.Close))
	return pool, nil
}

// newStore builds the Store and stops its batchers on stop. fx runs stop
// hooks in the reverse order of their registration, and the Store is built
// after the pool it needs, so the batch in flight commits before the pool
// closes under it.
func newStore(lc fx.Lifecycle, pool *pgxpool.Pool, cfg Config) *Store {
	s := New(pool).WithTimeout(cfg.Timeout)
	lc.Append(fx.StopHook(s.Close))
	return s
}
