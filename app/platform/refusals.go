package platform

import (
	"sync"
	"time"
)

// refusalSweepEvery is how often a refusal memo drops what has expired.
const refusalSweepEvery = time.Minute

// refusals remembers, in this process, until when a bucket is known to be
// empty, so that requests refused again before then are answered without
// asking the shared store. Expired entries are dropped once a minute.
type refusals struct {
	mu        sync.Mutex
	until     map[string]time.Time
	nextSweep time.Time
}

func newRefusals() *refusals { return &refusals{until: map[string]time.Time{}} }

// refused returns how long key is still known to be empty at now, or 0.
func (r *refusals) refused(key string, now time.Time) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return max(0, r.until[key].Sub(now))
}

// refuse records that key is empty until the given time.
func (r *refusals) refuse(key string, until, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !now.Before(r.nextSweep) {
		for k, u := range r.until {
			if !u.After(now) {
				delete(r.until, k)
			}
		}
		r.nextSweep = now.Add(refusalSweepEvery)
	}
	r.until[key] = until
}
