package app

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimiter applies a token bucket per API key.
type RateLimiter struct {
	mu       sync.Mutex
	limiters map[string]*rate.Limiter
	rps      rate.Limit
	burst    int
}

// NewRateLimiter allows rps requests per second per key with the given burst.
// The map holds one limiter per authenticated key, so it is bounded by the
// number of keys.
func NewRateLimiter(rps float64, burst int) *RateLimiter {
	return &RateLimiter{limiters: map[string]*rate.Limiter{}, rps: rate.Limit(rps), burst: burst}
}

// Allow takes one token for the key or returns a RateLimitError.
func (r *RateLimiter) Allow(keyID string) error {
	now := time.Now()
	l := r.limiter(keyID)
	res := l.ReserveN(now, 1)
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		return &RateLimitError{RetryAfter: delay, Limit: r.burst, Remaining: 0}
	}
	return nil
}

// Remaining reports the whole tokens left for the key.
func (r *RateLimiter) Remaining(keyID string) int {
	return int(math.Max(0, math.Floor(r.limiter(keyID).TokensAt(time.Now()))))
}

// Limit returns the burst, the most requests a key can make at once.
func (r *RateLimiter) Limit() int { return r.burst }

func (r *RateLimiter) limiter(keyID string) *rate.Limiter {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, ok := r.limiters[keyID]
	if !ok {
		l = rate.NewLimiter(r.rps, r.burst)
		r.limiters[keyID] = l
	}
	return l
}
