package readcache_test

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/app/usecase"
)

// lengths is a memo of the length of a string source, counting derivations.
type lengths struct {
	memo    *readcache.Memo[string, int]
	derived atomic.Int64
}

func newLengths(shared *readcache.Cache, weight int) *lengths {
	l := &lengths{}
	l.memo = readcache.NewMemo(shared, func(a, b string) bool { return a == b }, func(string, int) int { return weight })
	return l
}

func (l *lengths) get(key, source string) int {
	return l.memo.Get(key, source, func(s string) int {
		l.derived.Add(1)
		return len(s)
	})
}

// TestMemoDerivesAgainOnlyForANewSource asks for one key with one source
// twice, across the read cache's TTL, then with another source: the second
// answer is kept, as memo entries are checked rather than expired, and the
// third derived afresh.
func TestMemoDerivesAgainOnlyForANewSource(t *testing.T) {
	var clock atomic.Int64
	clock.Store(time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC).UnixNano())
	l := newLengths(readcachetest.New(t, time.Minute, func() time.Time { return time.Unix(0, clock.Load()) }), 100)
	if got := l.get("k", "abc"); got != 3 {
		t.Fatalf("first get: %d", got)
	}
	clock.Add(int64(time.Hour))
	if got := l.get("k", "abc"); got != 3 || l.derived.Load() != 1 {
		t.Fatalf("same source: %d, derived %d times", got, l.derived.Load())
	}
	if got := l.get("k", "abcdef"); got != 6 || l.derived.Load() != 2 {
		t.Fatalf("new source: %d, derived %d times", got, l.derived.Load())
	}
}

// TestMemoWithoutACacheDerivesEveryTime: a nil ReadCache (QUARRY_CACHE_BYTES
// 0) makes a nil memo, which keeps nothing.
func TestMemoWithoutACacheDerivesEveryTime(t *testing.T) {
	l := newLengths(nil, 100)
	for range 3 {
		if got := l.get("k", "abc"); got != 3 {
			t.Fatalf("get: %d", got)
		}
	}
	if n := l.derived.Load(); n != 3 {
		t.Errorf("derived %d times, want 3", n)
	}
}

// TestMemoConcurrentGets has goroutines ask for a few keys with changing
// sources at once (run with -race): every answer is derived from the
// source it was asked with.
func TestMemoConcurrentGets(t *testing.T) {
	l := newLengths(readcachetest.New(t, time.Hour, usecase.SystemClock), 100)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				source := strconv.Itoa(g * i)
				if got := l.get(strconv.Itoa(i%5), source); got != len(source) {
					t.Errorf("key %d, source %q: %d", i%5, source, got)
					return
				}
			}
		})
	}
	wg.Wait()
}
