package platform_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/domain/ratelimit"
)

// countingBuckets counts the round trips a limiter makes to the shared store.
type countingBuckets struct {
	*memory.Limits
	takes atomic.Int64
}

func (c *countingBuckets) Take(ctx context.Context, key string, want int, r ratelimit.Rate, now time.Time) (ratelimit.Grant, error) {
	c.takes.Add(1)
	return c.Limits.Take(ctx, key, want, r, now)
}

// TestRateLimitHoldsAcrossNodes runs three limiters on one store, as three
// nodes on one PostgreSQL, at 50 requests per second with a burst of 100,
// and offers each node a request every millisecond for 10 simulated
// seconds: together they admit no more than burst + rate × 10 s, and no
// fewer than that less the tokens each node leased and could not spend.
func TestRateLimitHoldsAcrossNodes(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	store := &countingBuckets{Limits: memory.NewLimits()}
	nodes := make([]*platform.RateLimiter, 3)
	for i := range nodes {
		nodes[i] = platform.NewRateLimiter(store, 50, 100, clock.now)
	}
	admitted, offered := 0, 0
	end := clock.t.Add(10 * time.Second)
	for ; !clock.t.After(end); clock.t = clock.t.Add(time.Millisecond) {
		for _, n := range nodes {
			offered++
			_, err := n.Allow(context.Background(), "key_1")
			var rl *platform.RateLimitError
			switch {
			case err == nil:
				admitted++
			case !errors.As(err, &rl):
				t.Fatalf("Allow: %v", err)
			}
		}
	}
	const most, lease = 100 + 50*10, 10
	t.Logf("3 nodes, 10 s at 50/s burst 100: %d admitted of %d offered, %d store round trips", admitted, offered, store.takes.Load())
	if admitted > most || admitted < most-3*lease {
		t.Fatalf("admitted %d, want %d less at most 3 unspent leases of %d", admitted, most, lease)
	}
	// A node asks the store once per lease, and once more per lease's worth
	// of refill while it is refused: not once per request.
	if trips := store.takes.Load(); trips > int64(admitted)/2 {
		t.Fatalf("%d store round trips for %d admitted and %d refused requests, want at most one per two admitted", trips, admitted, offered-admitted)
	}
}

// TestRefusedRequestsStayLocal: once the shared bucket is empty, a node
// refuses from memory until a lease's worth has refilled.
func TestRefusedRequestsStayLocal(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	store := &countingBuckets{Limits: memory.NewLimits()}
	limiter := platform.NewRateLimiter(store, 1, 1, clock.now)
	if _, err := limiter.Allow(context.Background(), "key_1"); err != nil {
		t.Fatalf("first request: %v", err)
	}
	before := store.takes.Load()
	for range 1000 {
		var rl *platform.RateLimitError
		if _, err := limiter.Allow(context.Background(), "key_1"); !errors.As(err, &rl) || rl.RetryAfter <= 0 {
			t.Fatalf("over the limit: %v, want a RateLimitError with a wait", err)
		}
	}
	if trips := store.takes.Load() - before; trips != 1 {
		t.Fatalf("1000 refusals made %d store round trips, want 1 (the one that found the bucket empty)", trips)
	}
	clock.t = clock.t.Add(time.Second)
	if _, err := limiter.Allow(context.Background(), "key_1"); err != nil {
		t.Fatalf("a second later: %v, want the refilled token", err)
	}
}

// TestAllowSaysWhatIsLeft: each admitted request says how many the key has
// left and when it is whole again, counting this node's lease and the shared
// bucket alike; a refusal says none are left.
func TestAllowSaysWhatIsLeft(t *testing.T) {
	clock := &fixedClock{t: time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	limiter := platform.NewRateLimiter(memory.NewLimits(), 10, 20, clock.now) // leases of 2, a token per 100 ms
	ctx := context.Background()
	for i := 1; i <= 20; i++ {
		q, err := limiter.Allow(ctx, "key_1")
		if err != nil {
			t.Fatalf("request %d of a burst of 20: %v", i, err)
		}
		want := platform.Quota{Limit: 20, Window: 2 * time.Second, Remaining: 20 - i, Reset: time.Duration(i) * 100 * time.Millisecond}
		if q != want {
			t.Fatalf("request %d: %+v, want %+v", i, q, want)
		}
	}
	_, err := limiter.Allow(ctx, "key_1")
	var rl *platform.RateLimitError
	if !errors.As(err, &rl) || rl.Quota == nil || rl.Quota.Remaining != 0 || rl.Quota.Reset != 2*time.Second {
		t.Fatalf("the 21st request: %v (quota %+v), want a refusal with none left, whole in 2s", err, rl)
	}
	clock.t = clock.t.Add(time.Second)
	q, err := limiter.Allow(ctx, "key_1")
	if err != nil || q.Remaining != 9 || q.Reset != 1100*time.Millisecond {
		t.Fatalf("a second later: %+v, %v; want 9 left, whole in 1.1s", q, err)
	}
}
