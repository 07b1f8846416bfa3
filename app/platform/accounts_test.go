package platform_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
)

type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

func newAccounts(clock *fixedClock) (*platform.Accounts, *memory.Platform) {
	p := memory.NewPlatform()
	cfg := platform.AccountsConfig{InitialCredits: 100000, SessionTTL: 8 * time.Hour}
	return platform.NewAccounts(p, p, p, memory.NewLimits(), memory.NewLimits(), cfg, clock.now), p
}

func TestLoginProvisionsThenChecksThePassword(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts, store := newAccounts(clock)
	first, err := accounts.Login(ctx, " Ada@Example.com ", "correct horse battery", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if first.Email != "ada@example.com" || first.Credits != 100000 || !first.ExpiresAt.Equal(clock.t.Add(8*time.Hour)) {
		t.Fatalf("first login = %+v", first)
	}
	again, err := accounts.Login(ctx, "ada@example.com", "correct horse battery", "192.0.2.1")
	if err != nil || again.Token == first.Token {
		t.Fatalf("second login = %+v, %v", again, err)
	}
	if _, err := accounts.Login(ctx, "ada@example.com", "wrong horse battery", "192.0.2.1"); !errors.Is(err, platform.ErrUnauthorized) {
		t.Fatalf("wrong password = %v", err)
	}
	acc, err := store.AccountByEmail(ctx, "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := store.Statement(ctx, acc.ID, 10, 0); st.Total != 1 || st.Entries[0].Amount != 100000 {
		t.Fatalf("a second sign-in must not grant again: %+v", st)
	}
}

func TestSessionsExpire(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts, _ := newAccounts(clock)
	l, err := accounts.Login(ctx, "grace@example.com", "correct horse battery", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.Authenticate(ctx, l.Token); err != nil {
		t.Fatalf("fresh session: %v", err)
	}
	clock.t = clock.t.Add(8 * time.Hour)
	if _, err := accounts.Authenticate(ctx, l.Token); !errors.Is(err, platform.ErrUnauthorized) {
		t.Fatalf("expired session = %v", err)
	}
}

func TestSignInThrottleCountsGuessesOnly(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	p := memory.NewPlatform()
	// Time passes while a password is verified: the clock ticks each read.
	ticking := func() time.Time { clock.t = clock.t.Add(10 * time.Millisecond); return clock.t }
	accounts := platform.NewAccounts(p, p, p, memory.NewLimits(), memory.NewLimits(), platform.AccountsConfig{InitialCredits: 100000, SessionTTL: 8 * time.Hour}, ticking)
	for range 10 { // successes hand their attempt back
		if _, err := accounts.Login(ctx, "ken@example.com", "correct horse battery", "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		if _, err := accounts.Login(ctx, "ken@example.com", "wrong horse battery", "192.0.2.1"); !errors.Is(err, platform.ErrUnauthorized) {
			t.Fatalf("failure = %v", err)
		}
	}
	var limited *platform.RateLimitError
	if _, err := accounts.Login(ctx, "ken@example.com", "correct horse battery", "192.0.2.1"); !errors.As(err, &limited) {
		t.Fatalf("sixth attempt = %v, want a RateLimitError", err)
	}
	clock.t = clock.t.Add(time.Minute)
	if _, err := accounts.Login(ctx, "ken@example.com", "correct horse battery", "192.0.2.1"); err != nil {
		t.Fatalf("after a minute one attempt is allowed again: %v", err)
	}
}

// TestSignInThrottleHoldsUnderConcurrency fires 200 wrong guesses at once: a
// 401 is answered only after a password was verified, so the 401s count the
// verifications, and no more than the burst may happen.
func TestSignInThrottleHoldsUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts, _ := newAccounts(clock)
	if _, err := accounts.Login(ctx, "lin@example.com", "correct horse battery", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	var verified, limited, other atomic.Int64
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() {
			_, err := accounts.Login(ctx, "lin@example.com", "wrong horse battery", "198.51.100.7")
			var rl *platform.RateLimitError
			switch {
			case errors.Is(err, platform.ErrUnauthorized):
				verified.Add(1)
			case errors.As(err, &rl):
				limited.Add(1)
			default:
				other.Add(1)
			}
		})
	}
	wg.Wait()
	t.Logf("200 concurrent guesses: %d verified, %d throttled", verified.Load(), limited.Load())
	if verified.Load() != 5 || limited.Load() != 195 || other.Load() != 0 {
		t.Fatalf("verified %d, throttled %d, other %d; want 5, 195, 0", verified.Load(), limited.Load(), other.Load())
	}
}

// TestSignInThrottleKeepsTheOwnerIn spreads guesses over many addresses until
// the email's own bucket is empty: new addresses are then refused, but the
// owner's address, known from an earlier sign-in, still gets in.
func TestSignInThrottleKeepsTheOwnerIn(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts, _ := newAccounts(clock)
	const owner = "203.0.113.5"
	if _, err := accounts.Login(ctx, "mae@example.com", "correct horse battery", owner); err != nil {
		t.Fatal(err)
	}
	guesses := 0
	for i := range 100 {
		_, err := accounts.Login(ctx, "mae@example.com", "wrong horse battery", fmt.Sprintf("198.51.100.%d", i))
		if errors.Is(err, platform.ErrUnauthorized) {
			guesses++
		}
	}
	if guesses != 20 {
		t.Fatalf("%d guesses verified from 100 addresses, want the email's burst of 20", guesses)
	}
	var limited *platform.RateLimitError
	if _, err := accounts.Login(ctx, "mae@example.com", "correct horse battery", "192.0.2.99"); !errors.As(err, &limited) {
		t.Fatalf("a new address while the email is under attack = %v, want a RateLimitError", err)
	}
	if _, err := accounts.Login(ctx, "mae@example.com", "correct horse battery", owner); err != nil {
		t.Fatalf("the owner's known address was kept out: %v", err)
	}
	clock.t = clock.t.Add(5 * time.Minute)
	if _, err := accounts.Login(ctx, "mae@example.com", "correct horse battery", "192.0.2.99"); err != nil {
		t.Fatalf("five minutes on, a new address gets one attempt: %v", err)
	}
}
