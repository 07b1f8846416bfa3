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

// sweepSessions deletes expired sessions once at start and then every
// sessionSweepEvery while the service runs; several nodes sweeping the same
// table only repeat a harmless DELETE.
var sweepSessions = fx.Invoke(func(lc fx.Lifecycle, accounts *app.Accounts, log *zap.Logger) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				sweepEvery(ctx, accounts, log)
			}()
			return nil
		},
		OnStop: func(context.Context) error {
			cancel()
			<-done
			return nil
		},
	})
})

func sweepEvery(ctx context.Context, accounts *app.Accounts, log *zap.Logger) {
	tick := time.NewTicker(sessionSweepEvery)
	defer tick.Stop()
	for {
		n, err := accounts.SweepSessions(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("sweep expired sessions", zap.Error(err))
		case n > 0:
			log.Info("swept expired sessions", zap.Int64("deleted", n))
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
