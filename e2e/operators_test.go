package e2e

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/ports"
)

// TestOperatorsTopUpAndProvisionResale runs the operator commands against
// the database a running server uses: a grant shows in the account's ledger
// with its reason, and resale:read reaches a key only this way.
func TestOperatorsTopUpAndProvisionResale(t *testing.T) {
	ctx := context.Background()
	c, cfg := startApp(t, onDatabases)
	session, _ := signIn(t, c, "topup@example.com")
	var out bytes.Buffer
	if err := cli.GrantCredits(ctx, cfg, "TopUp@example.com", 5000, "support ticket 42", &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "balance 105000") {
		t.Fatalf("grant printed %q", out.String())
	}
	st := credits(t, c, session)
	if st.Balance != 105000 || st.Ledger[0].Kind != "grant" || st.Ledger[0].Amount != 5000 ||
		st.Ledger[0].Reason == nil || *st.Ledger[0].Reason != "support ticket 42" {
		t.Fatalf("after the grant: %+v", st)
	}
	err := cli.GrantCredits(ctx, cfg, "nobody@example.com", 5, "typo", &out)
	if !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("grant to an unknown email = %v", err)
	}

	keyID := onlyKey(t, c, session).KeyID
	if err := cli.SetKeyScope(ctx, cfg, keyID, "resale:read", true, &out); err != nil {
		t.Fatal(err)
	}
	if k := onlyKey(t, c, session); !slices.Contains(k.Scopes, "resale:read") {
		t.Fatalf("scopes after grant-scope: %v", k.Scopes)
	}
	if err := cli.SetKeyScope(ctx, cfg, keyID, "resale:read", false, &out); err != nil {
		t.Fatal(err)
	}
	if k := onlyKey(t, c, session); slices.Contains(k.Scopes, "resale:read") {
		t.Fatalf("scopes after revoke-scope: %v", k.Scopes)
	}
	if err := cli.SetKeyScope(ctx, cfg, keyID, "admin:all", true, &out); err == nil {
		t.Fatal("an unknown permission was granted")
	}
}

type keyListed struct {
	KeyID  string   `json:"key_id"`
	Scopes []string `json:"scopes"`
}

func onlyKey(t *testing.T, c *client, session string) keyListed {
	t.Helper()
	var keys struct {
		Keys []keyListed `json:"keys"`
	}
	c.do("GET", "/account/keys", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &keys)
	if len(keys.Keys) != 1 {
		t.Fatalf("%d keys, want 1", len(keys.Keys))
	}
	return keys.Keys[0]
}

// TestLiveKeysAreCapped mints up to the cap: the next mint is 422 naming it,
// and revoking a key makes room again.
func TestLiveKeysAreCapped(t *testing.T) {
	c, _ := startApp(t, onDatabases)
	session, _ := signIn(t, c, "many-keys@example.com")
	var last struct {
		KeyID string `json:"key_id"`
	}
	for range 99 {
		c.do("POST", "/account/keys", nil, bearer(session)).expect(t, http.StatusCreated).JSON(t, &last)
	}
	var refused struct{ Message string }
	c.do("POST", "/account/keys", nil, bearer(session)).expect(t, http.StatusUnprocessableEntity).JSON(t, &refused)
	if !strings.Contains(refused.Message, "at most 100 active keys") {
		t.Fatalf("refusal says %q", refused.Message)
	}
	c.do("DELETE", "/account/keys/"+last.KeyID, nil, bearer(session)).expect(t, http.StatusOK)
	c.do("POST", "/account/keys", nil, bearer(session)).expect(t, http.StatusCreated)
}

// TestLastUseIsNotWorthAFailedRequest makes the database refuse every write
// of a key's last use: data requests are still served and charged.
func TestLastUseIsNotWorthAFailedRequest(t *testing.T) {
	ctx := context.Background()
	c, cfg := startApp(t, onDatabases)
	session, key := signIn(t, c, "audit@example.com")
	conn, err := pgx.Connect(ctx, cfg.PostgresURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `
		CREATE FUNCTION refuse_touch() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'last_used_at is read-only in this test'; END $$;
		CREATE TRIGGER refuse_touch BEFORE UPDATE OF last_used_at ON api_keys
		FOR EACH ROW EXECUTE FUNCTION refuse_touch()`)
	if err != nil {
		t.Fatal(err)
	}
	r := c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusOK)
	if r.Header.Get("X-Credits-Cost") != "1" {
		t.Fatalf("X-Credits-Cost %q, want 1", r.Header.Get("X-Credits-Cost"))
	}
	if st := credits(t, c, session); st.Balance != 99999 {
		t.Fatalf("balance %d, want 99999", st.Balance)
	}
}
