package sqlite

import (
	"context"

	"go.uber.org/fx"

	"github.com/quarrydata/quarry/ports"
)

// Config says which database file the adapter uses. The bootstrap package
// supplies it to Module.
type Config struct {
	// Path is the database file, created if missing; its directory must
	// exist and be used by one process at a time.
	Path string
}

// Module provides the Store, opened and migrated while the application is
// built and closed when it stops, as itself and as the account, session,
// key, ledger, key watch, rate-bucket, sign-in history and idempotency
// ports. It needs a Config in the graph.
var Module = fx.Module("sqlite",
	fx.Provide(
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
	),
)

// newStore opens the file while the application is built, so a bad path
// stops start-up, and closes it on stop: the batch in flight commits first.
func newStore(lc fx.Lifecycle, cfg Config) (*Store, error) {
	s, err := Open(context.Background(), cfg.Path)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(s.Close))
	return s, nil
}
