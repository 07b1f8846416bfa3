package platform

import (
	"context"
	"sync"
	"time"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/ratelimit"
	"github.com/quarrydata/quarry/ports"
)

// leaseIdle is how long a node keeps a key's unused tokens.
const leaseIdle = time.Minute

// RateLimiter applies a token bucket per API key, shared by every node
// through ports.RateBuckets. A node takes a key's tokens from the shared
// bucket in leases of a tenth of the burst (1 to 1,000) and spends them
// without a round trip; once the bucket is empty it answers 429 from memory
// until a lease's worth has refilled. No node ever admits a token the shared
// bucket did not grant, so over any window every node together admits at
// most burst + rate × window, plus the leases they held when it began; a
// node's unused lease is dropped after leaseIdle.
type RateLimiter struct {
	store   ports.RateBuckets
	rate    ratelimit.Rate
	size    int
	now     usecase.Clock
	refused *refusals

	mu        sync.Mutex
	leases    map[string]*lease
	nextSweep time.Time
}

// lease is one key's tokens held by this node, and when the shared bucket
// was to be full again as of this node's last take from it.
type lease struct {
	mu     sync.Mutex
	tokens int
	used   time.Time
	full   time.Time
}

// Quota is what a key's rate limit holds once a request was admitted or
// refused, for the RateLimit-Policy and RateLimit headers.
type Quota struct {
	// Limit is the burst: the most requests at once.
	Limit int
	// Window is how long an empty bucket takes to refill: Limit requests
	// per Window is the sustained rate.
	Window time.Duration
	// Remaining is how many requests the key may make now: this node's
	// lease and what the shared bucket held at this node's last take, with
	// its refill since (other nodes' takes since then are not seen).
	Remaining int
	// Reset is how long until Remaining is back to Limit if nothing more is
	// taken.
	Reset time.Duration
}

// NewRateLimiter allows rps requests per second per key with the given
// burst, across every node sharing store.
func NewRateLimiter(store ports.RateBuckets, rps float64, burst int, now usecase.Clock) *RateLimiter {
	return &RateLimiter{
		store: store, rate: ratelimit.Rate{PerSecond: rps, Burst: burst},
		size: leaseSize(burst), now: now, refused: newRefusals(), leases: map[string]*lease{},
	}
}

// leaseSize is how many tokens a node takes at once: a tenth of the burst,
// at least 1 and at most 1,000.
func leaseSize(burst int) int { return min(max(burst/10, 1), 1000) }

// Allow takes one token for the key and returns what its limit holds after
// it, or returns a RateLimitError.
func (r *RateLimiter) Allow(ctx context.Context, keyID string) (Quota, error) {
	now := r.now()
	l := r.lease(keyID, now)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.used = now
	if l.tokens > 0 {
		l.tokens--
		return r.quota(l, now), nil
	}
	bucket := "key:" + keyID
	if wait := r.refused.refused(bucket, now); wait > 0 {
		return Quota{}, r.limited(l, now, wait)
	}
	g, err := r.store.Take(ctx, bucket, r.size, r.rate, now)
	if err != nil {
		return Quota{}, err
	}
	l.full = now.Add(g.Full)
	if g.Tokens == 0 {
		// Ask again once a whole lease has refilled, not at every token.
		wait := g.RetryAfter + time.Duration(r.size-1)*time.Duration(r.rate.Interval())*time.Microsecond
		r.refused.refuse(bucket, now.Add(wait), now)
		return Quota{}, r.limited(l, now, wait)
	}
	l.tokens = g.Tokens - 1
	return r.quota(l, now), nil
}

// quota is what the key holds at now by this node's lease l.
func (r *RateLimiter) quota(l *lease, now time.Time) Quota {
	interval := r.rate.Interval()
	owed := max(0, l.full.Sub(now).Microseconds())
	shared := int(max(0, (r.rate.Tolerance()-owed)/interval))
	left := min(r.rate.Burst, l.tokens+shared)
	micros := func(n int) time.Duration { return time.Duration(int64(n)*interval) * time.Microsecond }
	return Quota{Limit: r.rate.Burst, Window: micros(r.rate.Burst), Remaining: left, Reset: micros(r.rate.Burst - left)}
}

// limited refuses a request. Its quota has none remaining even while the
// shared bucket refills the first tokens of the next lease: this node admits
// none until a lease's worth is back.
func (r *RateLimiter) limited(l *lease, now time.Time, wait time.Duration) error {
	q := r.quota(l, now)
	q.Remaining = 0
	return &RateLimitError{RetryAfter: wait, Limit: r.rate.Burst, Remaining: 0, Quota: &q}
}

// lease returns this node's lease for the key, dropping idle ones once a
// minute.
func (r *RateLimiter) lease(keyID string, now time.Time) *lease {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !now.Before(r.nextSweep) {
		for k, l := range r.leases {
			if l.mu.TryLock() {
				if now.Sub(l.used) >= leaseIdle {
					delete(r.leases, k)
				}
				l.mu.Unlock()
			}
		}
		r.nextSweep = now.Add(leaseIdle)
	}
	l, ok := r.leases[keyID]
	if !ok {
		l = &lease{used: now}
		r.leases[keyID] = l
	}
	return l
}

// Sweep drops the shared buckets that have refilled (of keys and of
// sign-ins alike: a full bucket is the same as none) and returns how many.
func (r *RateLimiter) Sweep(ctx context.Context) (int64, error) {
	return r.store.ForgetFull(ctx, r.now())
}
