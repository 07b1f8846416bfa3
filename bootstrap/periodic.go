package bootstrap

import (
	"context"
	"time"

	"go.uber.org/fx"
)

// periodic runs job every period in the background, from the application's
// start until its stop; stopping cancels the job's context and waits for it.
func periodic(lc fx.Lifecycle, every time.Duration, job func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				tick := time.NewTicker(every)
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
