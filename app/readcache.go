package app

import (
	"context"
	"sync"
	"time"
)

// readCache is a bounded read-through cache with a time to live, for
// reference data that changes only when a file is ingested. Misses are
// never cached, so newly ingested data is visible on the next request;
// changed data is served for at most the TTL.
type readCache[V any] struct {
	ttl time.Duration
	max int
	now Clock

	mu      sync.RWMutex
	entries map[string]cached[V]
}

type cached[V any] struct {
	value   V
	expires time.Time
}

func newReadCache[V any](ttl time.Duration, max int, now Clock) *readCache[V] {
	return &readCache[V]{ttl: ttl, max: max, now: now, entries: map[string]cached[V]{}}
}

// get returns the fresh cached value of key, or loads, caches and returns it.
func (c *readCache[V]) get(ctx context.Context, key string, load func(context.Context, string) (V, error)) (V, error) {
	now := c.now()
	c.mu.RLock()
	e, ok := c.entries[key]
	c.mu.RUnlock()
	if ok && now.Before(e.expires) {
		return e.value, nil
	}
	v, err := load(ctx, key)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		// Dropping everything is crude but bounded and rare: reference
		// sets (listings, filers) number in the thousands.
		clear(c.entries)
	}
	c.entries[key] = cached[V]{value: v, expires: now.Add(c.ttl)}
	return v, nil
}

// reset drops every entry, for a change whose keys cannot be named.
func (c *readCache[V]) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
}

// forget drops keys, so a change made through this instance shows at once.
func (c *readCache[V]) forget(keys ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range keys {
		delete(c.entries, k)
	}
}
