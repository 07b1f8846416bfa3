package platform_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// grantCounter counts the accounts provisioned, each with its grant.
type grantCounter struct {
	*memory.Platform
	grants atomic.Int64
}

func (g *grantCounter) Provision(ctx context.Context, a account.Account, grant ledger.Entry) error {
	err := g.Platform.Provision(ctx, a, grant)
	if err == nil {
		g.grants.Add(1)
	}
	return err
}

// node is one process's Accounts over stores shared with other nodes.
func node(store *grantCounter, limits *memory.Limits, now usecase.Clock) *platform.Accounts {
	cfg := platform.AccountsConfig{InitialCredits: 100000, SessionTTL: 8 * time.Hour}
	return platform.NewAccounts(store, store, store, limits, limits, cfg, now)
}

const signupPassword = "correct horse battery"

func signUp(t *testing.T, a *platform.Accounts, email, client string) error {
	t.Helper()
	_, err := a.Login(context.Background(), email, signupPassword, client)
	return err
}

// wantSignupRefused checks err is the sign-up limit's 429, telling the
// client when to retry.
func wantSignupRefused(t *testing.T, err error, retry time.Duration) {
	t.Helper()
	var rl *platform.RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("sign-up over the limit = %v, want a RateLimitError", err)
	}
	when := fmt.Sprintf("%d minutes", int((retry+time.Minute-1)/time.Minute))
	if retry <= time.Minute {
		when = "1 minute"
	}
	want := "too many accounts created from this address; try again in " + when
	if rl.RetryAfter != retry || err.Error() != want {
		t.Fatalf("refusal %q retry after %s, want %q after %s", err, rl.RetryAfter, want, retry)
	}
}

func TestSignupsAreLimitedPerAddress(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	store := &grantCounter{Platform: memory.NewPlatform()}
	accounts := node(store, memory.NewLimits(), clock.now)
	for i := range 5 {
		if err := signUp(t, accounts, fmt.Sprintf("user%d@example.com", i), "192.0.2.1"); err != nil {
			t.Fatalf("sign-up %d of the burst: %v", i+1, err)
		}
	}
	wantSignupRefused(t, signUp(t, accounts, "user5@example.com", "192.0.2.1"), 12*time.Minute)
	if _, err := store.AccountByEmail(ctx, "user5@example.com"); !errors.Is(err, ports.ErrNotFound) || store.grants.Load() != 5 {
		t.Fatalf("a refused sign-up left account %v and %d grants, want none and 5", err, store.grants.Load())
	}
	if err := signUp(t, accounts, "elsewhere@example.com", "198.51.100.7"); err != nil {
		t.Fatalf("another address: %v", err)
	}
	if err := signUp(t, accounts, "user0@example.com", "192.0.2.1"); err != nil {
		t.Fatalf("an existing account's sign-in from the limited address: %v", err)
	}
	clock.t = clock.t.Add(12 * time.Minute)
	if err := signUp(t, accounts, "user5@example.com", "192.0.2.1"); err != nil {
		t.Fatalf("12 minutes later one more account is allowed: %v", err)
	}
	wantSignupRefused(t, signUp(t, accounts, "user6@example.com", "192.0.2.1"), 12*time.Minute)
	clock.t = clock.t.Add(11*time.Minute + 30*time.Second)
	wantSignupRefused(t, signUp(t, accounts, "user6@example.com", "192.0.2.1"), 30*time.Second)
}

// TestSignupLimitIsSharedByNodes runs two nodes over one store: together
// they create the accounts one node would.
func TestSignupLimitIsSharedByNodes(t *testing.T) {
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	store, limits := &grantCounter{Platform: memory.NewPlatform()}, memory.NewLimits()
	nodes := []*platform.Accounts{node(store, limits, clock.now), node(store, limits, clock.now)}
	for i := range 5 {
		if err := signUp(t, nodes[i%2], fmt.Sprintf("user%d@example.com", i), "192.0.2.1"); err != nil {
			t.Fatalf("sign-up %d on node %d: %v", i+1, i%2+1, err)
		}
	}
	for i, n := range nodes {
		wantSignupRefused(t, signUp(t, n, fmt.Sprintf("over%d@example.com", i), "192.0.2.1"), 12*time.Minute)
	}
	if store.grants.Load() != 5 {
		t.Fatalf("two nodes granted %d accounts to one address, want 5", store.grants.Load())
	}
}

// TestSignupLimitHoldsAnIPv6Slash64 counts the addresses of one /64, which
// one host usually holds, as one address.
func TestSignupLimitHoldsAnIPv6Slash64(t *testing.T) {
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts := node(&grantCounter{Platform: memory.NewPlatform()}, memory.NewLimits(), clock.now)
	for i := range 5 {
		if err := signUp(t, accounts, fmt.Sprintf("v6-%d@example.com", i), fmt.Sprintf("2001:db8:1:2::%x", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	wantSignupRefused(t, signUp(t, accounts, "v6-5@example.com", "2001:db8:1:2:ffff::9"), 12*time.Minute)
	if err := signUp(t, accounts, "v6-6@example.com", "2001:db8:1:3::1"); err != nil {
		t.Fatalf("the next /64: %v", err)
	}
}

// TestRefusedSignupsCostNoHashing holds every sign-up hashing slot: a
// sign-up over the limit is refused at once, without waiting for a slot.
func TestRefusedSignupsCostNoHashing(t *testing.T) {
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts := node(&grantCounter{Platform: memory.NewPlatform()}, memory.NewLimits(), clock.now)
	for i := range 5 {
		if err := signUp(t, accounts, fmt.Sprintf("user%d@example.com", i), "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
	}
	defer platform.HoldSignupHashing(accounts)()
	// The deadline only keeps a regression from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := accounts.Login(ctx, "user5@example.com", signupPassword, "192.0.2.1")
	wantSignupRefused(t, err, 12*time.Minute)
}

// TestSigninIsNotQueuedBehindSignups holds every sign-up hashing slot, with
// a sign-up waiting for one: a sign-in to an existing account still
// completes, on hashing capacity of its own.
func TestSigninIsNotQueuedBehindSignups(t *testing.T) {
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	store := &grantCounter{Platform: memory.NewPlatform()}
	accounts := node(store, memory.NewLimits(), clock.now)
	if err := signUp(t, accounts, "owner@example.com", "203.0.113.5"); err != nil {
		t.Fatal(err)
	}
	release := platform.HoldSignupHashing(accounts)
	waiting := make(chan error, 1)
	go func() { waiting <- signUp(t, accounts, "newcomer@example.com", "198.51.100.7") }()
	// The deadline only keeps a regression from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := accounts.Login(ctx, "owner@example.com", signupPassword, "203.0.113.5"); err != nil {
		release()
		t.Fatalf("sign-in while every sign-up slot is held: %v", err)
	}
	select {
	case err := <-waiting:
		t.Fatalf("a sign-up finished while every sign-up slot was held: %v", err)
	default:
	}
	release()
	if err := <-waiting; err != nil || store.grants.Load() != 2 {
		t.Fatalf("the waiting sign-up, once slots were free: %v, %d accounts", err, store.grants.Load())
	}
}

// racingStore answers the first lookup of an email as if another request
// had not yet provisioned it, as happens when two first sign-ins race.
type racingStore struct {
	*grantCounter
	raced atomic.Bool
}

func (r *racingStore) AccountByEmail(ctx context.Context, email string) (account.Account, error) {
	if r.raced.CompareAndSwap(false, true) {
		return account.Account{}, ports.ErrNotFound
	}
	return r.grantCounter.AccountByEmail(ctx, email)
}

// TestSignupLosingARaceKeepsItsToken: a first sign-in that finds the
// account provisioned by a concurrent one created nothing, so it hands its
// sign-up token back.
func TestSignupLosingARaceKeepsItsToken(t *testing.T) {
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	inner := &grantCounter{Platform: memory.NewPlatform()}
	cfg := platform.AccountsConfig{InitialCredits: 100000, SessionTTL: 8 * time.Hour}
	limits := memory.NewLimits()
	first := platform.NewAccounts(inner, inner, inner, limits, limits, cfg, clock.now)
	if err := signUp(t, first, "twice@example.com", "203.0.113.5"); err != nil {
		t.Fatal(err)
	}
	racing := &racingStore{grantCounter: inner}
	second := platform.NewAccounts(racing, racing, racing, limits, limits, cfg, clock.now)
	if err := signUp(t, second, "twice@example.com", "192.0.2.1"); err != nil {
		t.Fatalf("the sign-in that lost the race: %v", err)
	}
	for i := range 5 {
		if err := signUp(t, second, fmt.Sprintf("user%d@example.com", i), "192.0.2.1"); err != nil {
			t.Fatalf("sign-up %d after a lost race: %v", i+1, err)
		}
	}
	if err := signUp(t, second, "user5@example.com", "192.0.2.1"); err == nil || !strings.Contains(err.Error(), "too many accounts") {
		t.Fatalf("the sixth account = %v, want the sign-up limit", err)
	}
}
