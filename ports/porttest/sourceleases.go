package porttest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/ports"
)

// NewSourceLeases returns an empty SourceLeases for one test.
type NewSourceLeases func(t *testing.T) ports.SourceLeases

// RunSourceLeases checks a SourceLeases: one holder at a time per source,
// renewal by the holder, release only by the holder, expiry, sources kept
// apart, and exactly one winner among holders racing for a free lease.
func RunSourceLeases(t *testing.T, newLeases NewSourceLeases) {
	t.Run("one holder at a time", func(t *testing.T) { leaseOneHolder(t, newLeases(t)) })
	t.Run("release", func(t *testing.T) { leaseRelease(t, newLeases(t)) })
	t.Run("expiry", func(t *testing.T) { leaseExpiry(t, newLeases(t)) })
	t.Run("race", func(t *testing.T) { leaseRace(t, newLeases(t)) })
}

// acquire calls Acquire and fails the test on an error.
func acquire(t *testing.T, l ports.SourceLeases, source, holder string, ttl time.Duration) bool {
	t.Helper()
	ok, err := l.Acquire(t.Context(), source, holder, ttl)
	must(t, "Acquire", err)
	return ok
}

func leaseOneHolder(t *testing.T, l ports.SourceLeases) {
	steps := []struct {
		source, holder string
		want           bool
	}{
		{"nse", "node-a", true},
		{"nse", "node-b", false},
		{"nse", "node-a", true}, // a renewal
		{"edgar", "node-b", true},
		{"edgar", "node-a", false},
		{"nse", "node-b", false},
	}
	for i, s := range steps {
		if got := acquire(t, l, s.source, s.holder, time.Minute); got != s.want {
			t.Fatalf("step %d: Acquire(%s, %s) = %v, want %v", i, s.source, s.holder, got, s.want)
		}
	}
}

func leaseRelease(t *testing.T, l ports.SourceLeases) {
	ctx := t.Context()
	if !acquire(t, l, "nse", "node-a", time.Minute) {
		t.Fatal("a free lease was refused")
	}
	must(t, "Release", l.Release(ctx, "nse", "node-b"))
	if acquire(t, l, "nse", "node-b", time.Minute) {
		t.Fatal("a release by a node not holding the lease freed it")
	}
	must(t, "Release", l.Release(ctx, "nse", "node-a"))
	if !acquire(t, l, "nse", "node-b", time.Minute) {
		t.Fatal("the lease was not free once its holder released it")
	}
	must(t, "Release", l.Release(ctx, "edgar", "node-a"))
}

func leaseExpiry(t *testing.T, l ports.SourceLeases) {
	const ttl = 300 * time.Millisecond
	if !acquire(t, l, "nse", "node-a", ttl) {
		t.Fatal("a free lease was refused")
	}
	time.Sleep(ttl + 200*time.Millisecond)
	if !acquire(t, l, "nse", "node-b", time.Minute) {
		t.Fatal("a lease that ran out was not taken over")
	}
	if acquire(t, l, "nse", "node-a", time.Minute) {
		t.Fatal("the holder whose lease ran out renewed it over the new holder")
	}
}

func leaseRace(t *testing.T, l ports.SourceLeases) {
	const racers = 20
	var wg sync.WaitGroup
	won := make(chan string, racers)
	for i := range racers {
		wg.Go(func() {
			holder := fmt.Sprintf("node-%d", i)
			ok, err := l.Acquire(t.Context(), "nse", holder, time.Minute)
			if err != nil {
				t.Errorf("Acquire(%s): %v", holder, err)
			}
			if ok {
				won <- holder
			}
		})
	}
	wg.Wait()
	close(won)
	var winners []string
	for h := range won {
		winners = append(winners, h)
	}
	if len(winners) != 1 {
		t.Fatalf("%d racers took the one lease: %v", len(winners), winners)
	}
}
