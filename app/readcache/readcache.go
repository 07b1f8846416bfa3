package readcache

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/maypok86/otter/v2"
)

// ReadCache holds what the read-through caches in front of a document store
// have read, within one budget of bytes that all of them share: entries are
// evicted by the cache library's mix of recency and frequency (W-TinyLFU), so
// a busy dataset may use more of the budget than a quiet one, and none has to
// guess its share in advance. An entry expires its TTL after it was read from
// the store; a miss (an error, not found included) is never cached. A Memo's
// entries share the budget but do not expire: each is checked against its
// source on every use.
type Cache struct {
	entries *otter.Cache[cacheKey, weighed]
	spaces  atomic.Uint32
}

// cacheKey names an entry: the space of the cache that read it, the space's
// generation when it was read, and the key within the space.
type cacheKey struct {
	space uint32
	gen   uint64
	key   string
}

// weighed is a cached value with the estimate of its size in bytes.
// A lasting value does not expire: it is checked on every use instead.
type weighed struct {
	value   any
	weight  uint32
	lasting bool
}

// never is the expiry of a lasting value.
const never = time.Duration(math.MaxInt64)

// entryOverhead estimates, in bytes, what the cache spends on an entry
// besides its key and value: its node, its slot in the hash table and its
// place in the eviction policy.
const entryOverhead = 96

// NewReadCache returns a cache holding entries of about budget bytes in all,
// each for ttl after it was read. Its clock is now, so a test can move it.
func New(budget int64, ttl time.Duration, now usecase.Clock) (*Cache, error) {
	if budget <= 0 || ttl <= 0 {
		return nil, fmt.Errorf("read cache: budget %d and ttl %s must be positive", budget, ttl)
	}
	entries, err := otter.New(&otter.Options[cacheKey, weighed]{
		MaximumWeight: uint64(budget),
		Weigher:       func(_ cacheKey, v weighed) uint32 { return v.weight },
		ExpiryCalculator: otter.ExpiryWritingFunc(func(e otter.Entry[cacheKey, weighed]) time.Duration {
			if e.Value.lasting {
				return never
			}
			return ttl
		}),
		Clock: OtterClock{now},
	})
	if err != nil {
		return nil, fmt.Errorf("read cache: %w", err)
	}
	return &Cache{entries: entries}, nil
}

// OtterClock gives the cache its expiry time from a Clock. Its ticks drive
// the cache's periodic clean-up of expired entries, in real time: a test
// clock only decides what has expired, which reads check for themselves.
type OtterClock struct{ Now usecase.Clock }

// NowNano reads the clock in nanoseconds.
func (c OtterClock) NowNano() int64 { return c.Now().UnixNano() }

// Tick ticks every d.
func (OtterClock) Tick(d time.Duration) <-chan time.Time { return time.Tick(d) }

// cacheSpace is one cache's part of a ReadCache: its keys, the type of its
// values and how to weigh them.
type Space[V any] struct {
	shared *Cache
	id     uint32
	weigh  func(V) int
	// gen moves on with reset: entries read under an older generation,
	// loads still in flight included, are never found again.
	gen atomic.Uint64
}

func NewSpace[V any](shared *Cache, weigh func(V) int) *Space[V] {
	return &Space[V]{shared: shared, id: shared.spaces.Add(1), weigh: weigh}
}

// get returns the fresh cached value of key, or loads, caches and returns
// it. Concurrent gets of a key that is not cached wait for one load. A load
// that a forget of its key overtakes is discarded and done again, so a value
// read before a write is not cached after it.
func (s *Space[V]) Get(ctx context.Context, key string, load func(context.Context, string) (V, error)) (V, error) {
	k := cacheKey{space: s.id, gen: s.gen.Load(), key: key}
	got, err := s.shared.entries.Get(ctx, k, otter.LoaderFunc[cacheKey, weighed](func(ctx context.Context, k cacheKey) (weighed, error) {
		v, err := load(ctx, k.key)
		if err != nil {
			return weighed{}, err
		}
		return s.weighed(k.key, v), nil
	}))
	if err != nil {
		var zero V
		return zero, err
	}
	return got.value.(V), nil
}

// weighed is v under key with its weight.
func (s *Space[V]) weighed(key string, v V) weighed {
	n := int64(entryOverhead) + int64(len(key)) + int64(s.weigh(v))
	return weighed{value: v, weight: uint32(min(n, math.MaxUint32))}
}

// peek returns the value held under key, if any, loading nothing.
func (s *Space[V]) peek(key string) (V, bool) {
	got, ok := s.shared.entries.GetIfPresent(cacheKey{space: s.id, gen: s.gen.Load(), key: key})
	if !ok {
		var zero V
		return zero, false
	}
	return got.value.(V), true
}

// keep holds v under key until it is replaced or evicted: it never
// expires, for a value its reader checks on every use.
func (s *Space[V]) keep(key string, v V) {
	w := s.weighed(key, v)
	w.lasting = true
	s.shared.entries.Set(cacheKey{space: s.id, gen: s.gen.Load(), key: key}, w)
}

// forget drops keys, and discards their loads in flight. A write calls it
// after the store has the new value: dropped before, a concurrent read
// could cache the old value again.
func (s *Space[V]) Forget(keys ...string) {
	gen := s.gen.Load()
	for _, k := range keys {
		s.shared.entries.Invalidate(cacheKey{space: s.id, gen: gen, key: k})
	}
}

// reset drops every entry of the space, for a change whose keys cannot be
// named. It moves the generation on rather than invalidating every entry at
// once, which the library leaves undefined for loads in flight; a load
// started before the reset caches under the old generation, where no get
// after it looks.
func (s *Space[V]) Reset() {
	gen := s.gen.Add(1)
	var stale []cacheKey
	for k := range s.shared.entries.Keys() {
		if k.space == s.id && k.gen < gen {
			stale = append(stale, k)
		}
	}
	for _, k := range stale {
		s.shared.entries.Invalidate(k)
	}
}

// Slices is a part of a ReadCache for a store that caches what it reads
// itself, such as a document store caching documents of a layout only it
// knows: slices of E under string keys. An empty slice is never cached, so
// what another process writes first is read on the next request rather
// than after the TTL. A nil Slices caches nothing.
type Slices[E any] struct{ space *Space[[]E] }

// NewSlices returns a new part of shared, nil when shared is nil. extra
// gives the bytes an element holds beyond its own size (its strings'
// bytes), for weighing entries.
func NewSlices[E any](shared *Cache, extra func(E) int) *Slices[E] {
	if shared == nil {
		return nil
	}
	weigh := func(es []E) int {
		var e E
		n := int(unsafe.Sizeof(es)) + cap(es)*int(unsafe.Sizeof(e))
		for _, e := range es {
			n += extra(e)
		}
		return n
	}
	return &Slices[E]{space: NewSpace(shared, weigh)}
}

// Get returns the fresh cached slice under key, or loads it, caching it
// unless it is empty. The slice is shared: the caller must not change it.
func (s *Slices[E]) Get(ctx context.Context, key string, load func(context.Context) ([]E, error)) ([]E, error) {
	if s == nil {
		return load(ctx)
	}
	got, err := s.space.Get(ctx, key, func(ctx context.Context, _ string) ([]E, error) {
		got, err := load(ctx)
		if err == nil && len(got) == 0 {
			err = ErrNoRows
		}
		return got, err
	})
	if errors.Is(err, ErrNoRows) {
		return nil, nil
	}
	return got, err
}

// Forget drops keys, after a write that changed what they hold.
func (s *Slices[E]) Forget(keys ...string) {
	if s != nil {
		s.space.Forget(keys...)
	}
}

// errNoRows marks an empty lookup, so that it is not cached.
var ErrNoRows = errors.New("no rows")
