// Package readcachetest holds what the tests of the read cache and of the
// slices' caches share: a clock moved by hand, a small cache and a measure
// of the heap a value keeps.
package readcachetest

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
)

// Clock is a clock a test moves by hand; the cache reads it from its own
// goroutines too.
type Clock struct{ ns atomic.Int64 }

// NewClock returns a Clock that reads t.
func NewClock(t time.Time) *Clock {
	c := &Clock{}
	c.ns.Store(t.UnixNano())
	return c
}

// Now reads the clock.
func (c *Clock) Now() time.Time { return time.Unix(0, c.ns.Load()).UTC() }

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// New returns a read cache of one MiB whose entries live for ttl.
func New(t *testing.T, ttl time.Duration, now usecase.Clock) *readcache.Cache {
	t.Helper()
	c, err := readcache.New(1<<20, ttl, now)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// HeapHeld returns how many heap bytes build's result keeps alive, and the
// result, which the caller keeps alive until it has weighed it.
func HeapHeld(build func() any) (uint64, any) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - before.HeapAlloc, kept
}
