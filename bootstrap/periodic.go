package bootstrap

import (
	"context"
	"time"

	"go.uber.org/fx"
)

// periodic runs job every period in the background, from the application's
// start until its stop; stopping cancels the job's context and waits for it.
func periodic(lc fx.Lifecycle, every time.Duration, job func(ctx context.Context)) {
	repeat(lc, every, false, job)
}

// catchingUp is periodic with a first run at once, in the background: a
// search index resumed from disk catches up with the store right after
// start without holding up /readyz.
func catchingUp(lc fx.Lifecycle, every time.Duration, job func(ctx context.Context)) {
	repeat(lc, every, true, job)
}

// repeat runs job every period, and at start first when now is set.
func repeat(lc fx.Lifecycle, period time.Duration, now bool, job func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				if now {
					job(ctx)
				}
				tick := time.NewTicker(period)
				defer tick.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case <-tick.C:
						job(ctx)
					}
				}
			}()
			return nil
		},
		OnStop: func(context.Context) error {
			cancel()
			<-done
			return nil
		},
	})
}
