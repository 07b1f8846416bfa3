package porttest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/ratelimit"
	"github.com/quarrydata/quarry/ports"
)

// RunRateBuckets is the contract of RateBuckets and SigninHistory: grants
// follow ratelimit.Take exactly, concurrent takers never share a token, and
// a sign-in's time is kept to the microsecond.
func RunRateBuckets(t *testing.T, newPlatform NewPlatform) {
	stores := func(t *testing.T) Platform {
		t.Helper()
		p := newPlatform(t)
		if p.Buckets == nil || p.Signins == nil {
			t.Skip("the platform keeps no shared buckets")
		}
		return p
	}
	t.Run("a new bucket is full, then refills at its rate", func(t *testing.T) { testBucketRefill(t, stores(t).Buckets) })
	t.Run("a take says what the bucket holds after it", func(t *testing.T) { testBucketRemaining(t, stores(t).Buckets) })
	t.Run("tokens given back are taken again", func(t *testing.T) { testBucketGive(t, stores(t).Buckets) })
	t.Run("buckets of different keys are apart", func(t *testing.T) { testBucketKeys(t, stores(t).Buckets) })
	t.Run("concurrent takers share no token", func(t *testing.T) { testBucketConcurrent(t, stores(t).Buckets) })
	t.Run("full buckets are forgotten, others kept", func(t *testing.T) { testBucketForget(t, stores(t).Buckets) })
	t.Run("sign-in history", func(t *testing.T) { testSigninHistory(t, stores(t).Signins) })
}

func take(t *testing.T, b ports.RateBuckets, key string, want int, r ratelimit.Rate, at time.Time) ratelimit.Grant {
	t.Helper()
	g, err := b.Take(context.Background(), key, want, r, at)
	if err != nil {
		t.Fatalf("Take: %v", err)
	}
	return g
}

func testBucketRefill(t *testing.T, b ports.RateBuckets) {
	r := ratelimit.Rate{PerSecond: 10, Burst: 5}
	key := id("bucket")
	if g := take(t, b, key, 8, r, t0); g.Tokens != 5 {
		t.Fatalf("a new bucket granted %d of 8, want its burst of 5", g.Tokens)
	}
	if g := take(t, b, key, 1, r, t0); g.Tokens != 0 || g.RetryAfter != 100*time.Millisecond {
		t.Fatalf("an empty bucket granted %+v, want nothing and a retry after 100ms", g)
	}
	if g := take(t, b, key, 5, r, t0.Add(250*time.Millisecond)); g.Tokens != 2 {
		t.Fatalf("250 ms later %d tokens were granted, want 2", g.Tokens)
	}
	if g := take(t, b, key, 9, r, t0.Add(time.Hour)); g.Tokens != 5 {
		t.Fatalf("an hour later %d tokens were granted, want the burst of 5", g.Tokens)
	}
}

func testBucketRemaining(t *testing.T, b ports.RateBuckets) {
	r := ratelimit.Rate{PerSecond: 10, Burst: 5} // one token per 100 ms
	key := id("bucket")
	steps := []struct {
		at        time.Duration
		want      int
		tokens    int
		remaining int
		full      time.Duration
	}{
		{0, 2, 2, 3, 200 * time.Millisecond},                      // a new bucket
		{0, 9, 3, 0, 500 * time.Millisecond},                      // the rest of it
		{50 * time.Millisecond, 1, 0, 0, 450 * time.Millisecond},  // refused
		{150 * time.Millisecond, 1, 1, 0, 450 * time.Millisecond}, // half a token left
		{time.Second, 1, 1, 4, 100 * time.Millisecond},            // refilled
	}
	for _, s := range steps {
		g := take(t, b, key, s.want, r, t0.Add(s.at))
		if g.Tokens != s.tokens || g.Remaining != s.remaining || g.Full != s.full {
			t.Fatalf("at +%v taking %d: %+v, want %d taken, %d left, full in %v",
				s.at, s.want, g, s.tokens, s.remaining, s.full)
		}
	}
}

func testBucketGive(t *testing.T, b ports.RateBuckets) {
	r := ratelimit.Every(time.Minute, 5)
	key := id("bucket")
	take(t, b, key, 5, r, t0)
	if err := b.Give(context.Background(), key, 2, r); err != nil {
		t.Fatalf("Give: %v", err)
	}
	if g := take(t, b, key, 5, r, t0); g.Tokens != 2 {
		t.Fatalf("after 2 were given back %d were granted, want 2", g.Tokens)
	}
}

func testBucketKeys(t *testing.T, b ports.RateBuckets) {
	r := ratelimit.Rate{PerSecond: 1, Burst: 2}
	a, other := id("bucket"), id("bucket")
	take(t, b, a, 2, r, t0)
	if g := take(t, b, other, 2, r, t0); g.Tokens != 2 {
		t.Fatalf("another key's bucket granted %d, want its own burst of 2", g.Tokens)
	}
}

func testBucketConcurrent(t *testing.T, b ports.RateBuckets) {
	r := ratelimit.Rate{PerSecond: 1, Burst: 37}
	key := id("bucket")
	var mu sync.Mutex
	granted := 0
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			g, err := b.Take(context.Background(), key, 2, r, t0)
			if err != nil {
				t.Errorf("Take: %v", err)
				return
			}
			mu.Lock()
			granted += g.Tokens
			mu.Unlock()
		})
	}
	wg.Wait()
	if granted != 37 {
		t.Fatalf("50 concurrent takers of 2 were granted %d tokens, want exactly the burst of 37", granted)
	}
}

func testSigninHistory(t *testing.T, h ports.SigninHistory) {
	ctx := context.Background()
	key := id("signin")
	if _, err := h.LastSignin(ctx, key); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("LastSignin of a new key: %v, want ErrNotFound", err)
	}
	for _, at := range []time.Time{t0, t0.Add(time.Hour)} {
		if err := h.RecordSignin(ctx, key, at); err != nil {
			t.Fatalf("RecordSignin: %v", err)
		}
		got, err := h.LastSignin(ctx, key)
		if err != nil || !got.Equal(at) {
			t.Fatalf("LastSignin = %v, %v; want %v", got, err, at)
		}
	}
	if _, err := h.ForgetSignins(ctx, t0.Add(time.Hour)); err != nil {
		t.Fatalf("ForgetSignins: %v", err)
	}
	if _, err := h.LastSignin(ctx, key); err != nil {
		t.Fatalf("a sign-in at the cutoff was forgotten: %v", err)
	}
	if _, err := h.ForgetSignins(ctx, t0.Add(time.Hour+time.Microsecond)); err != nil {
		t.Fatalf("ForgetSignins: %v", err)
	}
	if _, err := h.LastSignin(ctx, key); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("a sign-in before the cutoff is still held: %v", err)
	}
}

func testBucketForget(t *testing.T, b ports.RateBuckets) {
	ctx := context.Background()
	r := ratelimit.Rate{PerSecond: 1, Burst: 3}
	key := id("bucket")
	take(t, b, key, 3, r, t0)
	if _, err := b.ForgetFull(ctx, t0.Add(time.Second)); err != nil {
		t.Fatalf("ForgetFull: %v", err)
	}
	if g := take(t, b, key, 3, r, t0.Add(time.Second)); g.Tokens != 1 {
		t.Fatalf("a bucket still refilling was forgotten: %d tokens granted, want 1", g.Tokens)
	}
	n, err := b.ForgetFull(ctx, t0.Add(time.Hour))
	if err != nil || n < 1 {
		t.Fatalf("ForgetFull an hour later = %d, %v; want the refilled bucket dropped", n, err)
	}
	if g := take(t, b, key, 5, r, t0.Add(time.Hour)); g.Tokens != 3 {
		t.Fatalf("a forgotten bucket granted %d, want a full one's 3", g.Tokens)
	}
}
