package app

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// sweepEvery is how often a bucket set drops the buckets that have refilled.
const sweepEvery = time.Minute

// buckets is a token bucket per key that holds only the buckets still
// refilling. A full bucket behaves exactly like a new one, so it is dropped
// on the next sweep: memory follows recent activity, not every key ever
// seen. Every call takes the caller's clock reading.
type buckets struct {
	mu        sync.Mutex
	limit     rate.Limit
	burst     int
	m         map[string]*rate.Limiter
	nextSweep time.Time
}

func newBuckets(limit rate.Limit, burst int) *buckets {
	return &buckets{limit: limit, burst: burst, m: map[string]*rate.Limiter{}}
}

// token is one token taken from a bucket.
type token struct {
	r  *rate.Reservation
	at time.Time
}

// take takes one token of key's bucket at now. When none is left it takes
// nothing and returns how long until one is.
func (b *buckets) take(key string, now time.Time) (token, time.Duration) {
	r := b.bucket(key, now).ReserveN(now, 1)
	if wait := r.DelayFrom(now); wait > 0 {
		r.CancelAt(now)
		return token{}, wait
	}
	return token{r: r, at: now}, 0
}

// size returns how many buckets are held.
func (b *buckets) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.m)
}

// bucket returns key's bucket, sweeping first when a sweep is due.
func (b *buckets) bucket(key string, now time.Time) *rate.Limiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !now.Before(b.nextSweep) {
		for k, l := range b.m {
			if l.TokensAt(now) >= float64(b.burst) {
				delete(b.m, k)
			}
		}
		b.nextSweep = now.Add(sweepEvery)
	}
	l, ok := b.m[key]
	if !ok {
		l = rate.NewLimiter(b.limit, b.burst)
		b.m[key] = l
	}
	return l
}

// give hands the token back. A reservation is cancelled as of the time it
// was taken: x/time/rate restores nothing once that time has passed, and
// less the more tokens were taken after it.
func (t token) give() {
	if t.r != nil {
		t.r.CancelAt(t.at)
	}
}
