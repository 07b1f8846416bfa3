package bootstrap

import (
	"context"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app"
)

// sessionSweepEvery is how often expired sessions are deleted. An expired
// session is refused whether or not it was swept; sweeping only keeps the
// table from growing with every sign-in ever made.
const sessionSweepEvery = 10 * time.Minute

// sweepSessions deletes expired sessions every sessionSweepEvery while the
// service runs; several nodes sweeping one table only repeat a harmless
// DELETE.
var sweepSessions = fx.Invoke(func(lc fx.Lifecycle, accounts *app.Accounts, log *zap.Logger) {
	periodic(lc, sessionSweepEvery, func(ctx context.Context) {
		n, err := accounts.SweepSessions(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("expired sessions not swept", zap.Error(err))
		case n > 0:
			log.Info("expired sessions swept", zap.Int64("deleted", n))
		}
	})
})
