package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app"
)

type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

func newAccounts(clock *fixedClock) (*app.Accounts, *memory.Platform) {
	p := memory.NewPlatform()
	cfg := app.AccountsConfig{InitialCredits: 100000, SessionTTL: 8 * time.Hour}
	return app.NewAccounts(p, p, p, cfg, clock.now), p
}

func TestLoginProvisionsThenChecksThePassword(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts, store := newAccounts(clock)
	first, err := accounts.Login(ctx, " Ada@Example.com ", "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if first.Email != "ada@example.com" || first.Credits != 100000 || !first.ExpiresAt.Equal(clock.t.Add(8*time.Hour)) {
		t.Fatalf("first login = %+v", first)
	}
	again, err := accounts.Login(ctx, "ada@example.com", "correct horse battery")
	if err != nil || again.Token == first.Token {
		t.Fatalf("second login = %+v, %v", again, err)
	}
	if _, err := accounts.Login(ctx, "ada@example.com", "wrong horse battery"); !errors.Is(err, app.ErrUnauthorized) {
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
	l, err := accounts.Login(ctx, "grace@example.com", "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.Authenticate(ctx, l.Token); err != nil {
		t.Fatalf("fresh session: %v", err)
	}
	clock.t = clock.t.Add(8 * time.Hour)
	if _, err := accounts.Authenticate(ctx, l.Token); !errors.Is(err, app.ErrUnauthorized) {
		t.Fatalf("expired session = %v", err)
	}
}

func TestSignInThrottleCountsFailuresOnly(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts, _ := newAccounts(clock)
	if _, err := accounts.Login(ctx, "ken@example.com", "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := accounts.Login(ctx, "ken@example.com", "wrong horse battery"); !errors.Is(err, app.ErrUnauthorized) {
			t.Fatalf("failure = %v", err)
		}
	}
	var limited *app.RateLimitError
	if _, err := accounts.Login(ctx, "ken@example.com", "correct horse battery"); !errors.As(err, &limited) {
		t.Fatalf("sixth attempt = %v, want a RateLimitError", err)
	}
	clock.t = clock.t.Add(time.Minute)
	if _, err := accounts.Login(ctx, "ken@example.com", "correct horse battery"); err != nil {
		t.Fatalf("after a minute one attempt is allowed again: %v", err)
	}
}
