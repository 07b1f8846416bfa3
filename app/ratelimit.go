package app

import "golang.org/x/time/rate"

// RateLimiter applies a token bucket per API key. Buckets of keys idle long
// enough to refill are dropped, so memory follows the keys in use.
type RateLimiter struct {
	keys  *buckets
	burst int
	now   Clock
}

// NewRateLimiter allows rps requests per second per key with the given burst.
func NewRateLimiter(rps float64, burst int, now Clock) *RateLimiter {
	return &RateLimiter{keys: newBuckets(rate.Limit(rps), burst), burst: burst, now: now}
}

// Allow takes one token for the key or returns a RateLimitError.
func (r *RateLimiter) Allow(keyID string) error {
	if _, wait := r.keys.take(keyID, r.now()); wait > 0 {
		return &RateLimitError{RetryAfter: wait, Limit: r.burst, Remaining: 0}
	}
	return nil
}
