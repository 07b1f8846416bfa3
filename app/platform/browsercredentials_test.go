package platform_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/scope"
)

func TestBrowserCredentialsAreNarrowAndShortLived(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts, p := newAccounts(clock)
	login, err := accounts.Login(ctx, "ada@example.com", "correct horse battery", "192.0.2.1")
	if err != nil || !login.Created {
		t.Fatalf("first login = %+v, %v", login, err)
	}
	if again, err := accounts.Login(ctx, "ada@example.com", "correct horse battery", "192.0.2.1"); err != nil || again.Created {
		t.Fatalf("a second sign-in says it created the account: %+v, %v", again, err)
	}
	id, err := accounts.Authenticate(ctx, login.Token)
	if err != nil {
		t.Fatal(err)
	}
	keys := platform.NewKeys(p, clock.now)
	metering := platform.NewMetering(p, p, clock.now)

	for name, scopes := range map[string][]string{
		"none": {}, "resale": {"resale:read"}, "unknown": {"admin"}, "repeated": {"us:read", "us:read"},
	} {
		if _, err := keys.CreateBrowserCredential(ctx, id, scopes); !errors.Is(err, usecase.ErrValidation) {
			t.Errorf("%s: %v, want a validation error", name, err)
		}
	}
	c, err := keys.CreateBrowserCredential(ctx, id, []string{"china:read"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Key.Scopes, []string{"china:read"}) || !c.Key.ExpiresAt.Equal(clock.t.Add(platform.BrowserCredentialTTL)) {
		t.Fatalf("minted %+v", c.Key)
	}
	k, err := metering.Authenticate(ctx, c.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := metering.Authorize(k, []scope.Permission{scope.USRead}); !errors.Is(err, platform.ErrForbidden) {
		t.Fatalf("us:read with a china:read credential: %v", err)
	}
	if _, err := platform.NewOperators(p, p, p, clock.now).SetKeyScope(ctx, c.Key.ID, "resale:read", true); !errors.Is(err, usecase.ErrValidation) {
		t.Fatalf("an operator widened a browser credential: %v", err)
	}
	if _, err := keys.Revoke(ctx, id, c.Key.ID); err == nil {
		t.Fatal("a browser credential was revoked as a key")
	}
	clock.t = clock.t.Add(platform.BrowserCredentialTTL)
	// A refusal names the credential by its id, as the API, the console
	// and the ledger do, never by the qk_ its secret starts with.
	named := func(err error) bool {
		return errors.Is(err, platform.ErrUnauthorized) && strings.Contains(err.Error(), c.Key.ID) && !strings.Contains(err.Error(), c.Key.Prefix)
	}
	if !strings.HasPrefix(c.Key.ID, "bcr_") {
		t.Fatalf("credential id %q, want bcr_...", c.Key.ID)
	}
	if _, err := metering.Authenticate(ctx, c.Secret); !named(err) {
		t.Fatalf("an expired credential authenticated, or the refusal does not name %s: %v", c.Key.ID, err)
	}
	if _, err := metering.Charge(ctx, k, "GET /china/securities/{code}", "req_1", 1); !named(err) {
		t.Fatalf("an expired credential was charged, or the refusal does not name %s: %v", c.Key.ID, err)
	}
	if live, err := keys.ListBrowserCredentials(ctx, id); err != nil || len(live) != 0 {
		t.Fatalf("expired credentials listed: %v, %v", live, err)
	}

	if err := accounts.SignOut(ctx, login.Token); err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.Authenticate(ctx, login.Token); !errors.Is(err, platform.ErrUnauthorized) {
		t.Fatalf("a signed-out session authenticated: %v", err)
	}
}
