package ports

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/ratelimit"
)

// RateBuckets holds token buckets shared by every process of one service,
// so a limit holds across nodes. Keys are opaque; callers hash what they
// must not store.
type RateBuckets interface {
	// Take takes up to want (at least 1) tokens from key's bucket at now,
	// atomically, creating a full bucket for a key not seen before.
	Take(ctx context.Context, key string, want int, r ratelimit.Rate, now time.Time) (ratelimit.Grant, error)
	// Give hands n tokens taken earlier back to key's bucket.
	Give(ctx context.Context, key string, n int, r ratelimit.Rate) error
	// ForgetFull drops the buckets that are full at now (a full bucket is
	// the same as none) and returns how many it dropped.
	ForgetFull(ctx context.Context, now time.Time) (int64, error)
}

// SigninHistory remembers when a sign-in last succeeded for a key (an
// email and a client address), shared by every process.
type SigninHistory interface {
	// LastSignin returns the time recorded for key, or ErrNotFound.
	LastSignin(ctx context.Context, key string) (time.Time, error)
	// RecordSignin records at for key, replacing what was there.
	RecordSignin(ctx context.Context, key string, at time.Time) error
	// ForgetSignins drops the sign-ins recorded before cutoff and returns
	// how many it dropped.
	ForgetSignins(ctx context.Context, cutoff time.Time) (int64, error)
}
