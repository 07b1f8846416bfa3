package bootstrap

import (
	"context"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app/platform"
)

// sessionSweepEvery is how often expired sessions are deleted. An expired
// session is refused whether or not it was swept; sweeping only keeps the
// table from growing with every sign-in ever made.
const sessionSweepEvery = 10 * time.Minute

// sweepSessions deletes expired sessions, sign-in history older than the
// throttle keeps, rate-limit buckets that have refilled, and expired
// Idempotency-Key records with their kept responses, every
// sessionSweepEvery while the service runs; several nodes sweeping one table
// only repeat a harmless DELETE.
var sweepSessions = fx.Invoke(func(lc fx.Lifecycle, accounts *platform.Accounts, limiter *platform.RateLimiter, idem *platform.Idempotency, log *zap.Logger) {
	periodic(lc, sessionSweepEvery, func(ctx context.Context) {
		sweep(ctx, log, "expired sessions", accounts.SweepSessions)
		sweep(ctx, log, "old sign-in history", accounts.SweepSignins)
		sweep(ctx, log, "refilled rate-limit buckets", limiter.Sweep)
		sweep(ctx, log, "expired Idempotency-Key records", idem.Sweep)
	})
})

// sweep runs one deletion and logs its outcome.
func sweep(ctx context.Context, log *zap.Logger, what string, job func(context.Context) (int64, error)) {
	n, err := job(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		log.Warn(what+" not swept", zap.Error(err))
	case n > 0:
		log.Info(what+" swept", zap.Int64("deleted", n))
	}
}
