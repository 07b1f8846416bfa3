package e2e

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

type browserCredential struct {
	CredentialID string   `json:"credential_id"`
	APIKey       string   `json:"api_key"`
	KeyPrefix    string   `json:"key_prefix"`
	Scopes       []string `json:"scopes"`
	Status       string   `json:"status"`
	ExpiresAt    string   `json:"expires_at"`
}

func mintCredential(t *testing.T, c *client, session string, scopes ...string) browserCredential {
	t.Helper()
	var out browserCredential
	c.do("POST", "/account/browser-credentials", map[string][]string{"scopes": scopes}, bearer(session)).
		expect(t, http.StatusCreated).JSON(t, &out)
	return out
}

// manualClock is a clock a test moves by hand; safe for the server's
// goroutines to read.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestBrowserCredentials walks spec §5.8 through the API on memory and on
// PostgreSQL: a session mints a narrowed, short-lived credential; it is
// charged like a key, refused with 403 before any charge where it lacks a
// permission, listed, revoked at once, and refused once it expires.
func TestBrowserCredentials(t *testing.T) {
	for name, s := range map[string]stack{"memory": {}, "postgres": {postgres: true}} {
		t.Run(name, func(t *testing.T) {
			clock := &manualClock{now: time.Now().UTC().Truncate(time.Microsecond)}
			cfg := appConfig(t, s)
			cfg.Clock = clock.Now
			c := serveApp(t, cfg)
			session, key := signIn(t, c, "grace@example.com")

			// Only a session mints one, with self-serve permissions named once.
			c.do("POST", "/account/browser-credentials", map[string][]string{"scopes": {"china:read"}}, apiKey(key)).expect(t, http.StatusUnauthorized)
			c.do("POST", "/account/browser-credentials", map[string][]string{"scopes": {"resale:read"}}, bearer(session)).expect(t, http.StatusUnprocessableEntity)
			c.do("POST", "/account/browser-credentials", map[string][]string{"scopes": {}}, bearer(session)).expect(t, http.StatusUnprocessableEntity)
			c.do("POST", "/account/browser-credentials", map[string][]string{"scopes": {"us:read", "us:read"}}, bearer(session)).expect(t, http.StatusUnprocessableEntity)
			c.do("POST", "/account/browser-credentials", map[string][]string{"scopes": {"everything"}}, bearer(session)).expect(t, http.StatusUnprocessableEntity)
			c.do("POST", "/account/browser-credentials", []byte(`{"scopes":["us:read"],"ttl":3600}`), bearer(session)).expect(t, http.StatusBadRequest)
			c.do("POST", "/account/browser-credentials", []byte(`{}`), bearer(session)).expect(t, http.StatusUnprocessableEntity)

			narrow := mintCredential(t, c, session, "us:read")
			china := mintCredential(t, c, session, "china:read")
			if !strings.HasPrefix(narrow.CredentialID, "bcr_") || !strings.HasPrefix(narrow.APIKey, narrow.KeyPrefix) {
				t.Fatalf("minted %+v", narrow)
			}
			before := credits(t, c, session)

			// §5.5: a valid credential lacking china:read gets 403, before any debit.
			r := c.do("GET", "/china/securities/SSE.600519", nil, apiKey(narrow.APIKey)).expect(t, http.StatusForbidden)
			if r.Header.Get("X-Credits-Cost") != "0" || !strings.Contains(string(r.Body), "china:read") {
				t.Fatalf("403 with cost %q: %s", r.Header.Get("X-Credits-Cost"), r.Body)
			}
			if after := credits(t, c, session); after.Meta.Total != before.Meta.Total || after.Balance != before.Balance {
				t.Fatalf("a 403 reached the ledger: %d entries, balance %d; was %d, %d", after.Meta.Total, after.Balance, before.Meta.Total, before.Balance)
			}

			// With the permission it is charged to the account like a key.
			r = c.do("GET", "/china/securities/SSE.600519", nil, apiKey(china.APIKey)).expect(t, http.StatusOK)
			if r.Header.Get("X-Credits-Cost") != "1" || r.Header.Get("X-Credits-Remaining") != "99999" {
				t.Fatalf("credit headers %v", r.Header)
			}
			var ledger struct {
				Ledger []struct {
					KeyID *string `json:"key_id"`
				} `json:"ledger"`
			}
			c.do("GET", "/account/credits?limit=1", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &ledger)
			if len(ledger.Ledger) != 1 || ledger.Ledger[0].KeyID == nil || *ledger.Ledger[0].KeyID != china.CredentialID {
				t.Fatalf("the debit names %+v, want the credential %s", ledger.Ledger, china.CredentialID)
			}

			// Listed apart from keys, and revoked only as what it is.
			var list struct {
				BrowserCredentials []browserCredential `json:"browser_credentials"`
			}
			c.do("GET", "/account/browser-credentials", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &list)
			if len(list.BrowserCredentials) != 2 || list.BrowserCredentials[0].CredentialID != narrow.CredentialID || list.BrowserCredentials[1].Status != "active" {
				t.Fatalf("listed %+v", list.BrowserCredentials)
			}
			var keys struct {
				Keys []struct {
					KeyID string `json:"key_id"`
				} `json:"keys"`
			}
			c.do("GET", "/account/keys", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &keys)
			if len(keys.Keys) != 1 {
				t.Fatalf("GET /account/keys lists %d entries, want the one key", len(keys.Keys))
			}
			c.do("DELETE", "/account/keys/"+china.CredentialID, nil, bearer(session)).expect(t, http.StatusNotFound)
			c.do("DELETE", "/account/browser-credentials/"+keys.Keys[0].KeyID, nil, bearer(session)).expect(t, http.StatusNotFound)
			other, _ := signIn(t, c, "eve@example.com")
			c.do("DELETE", "/account/browser-credentials/"+china.CredentialID, nil, bearer(other)).expect(t, http.StatusNotFound)
			var revoked browserCredential
			c.do("DELETE", "/account/browser-credentials/"+china.CredentialID, nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &revoked)
			if revoked.Status != "revoked" {
				t.Fatalf("revoked %+v", revoked)
			}
			c.do("GET", "/china/securities/SSE.600519", nil, apiKey(china.APIKey)).expect(t, http.StatusUnauthorized)

			// Expiry: 10 minutes after minting it is 401, and no longer listed.
			late := mintCredential(t, c, session, "china:read")
			c.do("GET", "/china/securities/SSE.600519", nil, apiKey(late.APIKey)).expect(t, http.StatusOK)
			clock.Add(10 * time.Minute)
			r = c.do("GET", "/china/securities/SSE.600519", nil, apiKey(late.APIKey)).expect(t, http.StatusUnauthorized)
			if !strings.Contains(string(r.Body), "expired") {
				t.Fatalf("expired credential answered %s", r.Body)
			}
			c.do("GET", "/account/browser-credentials", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &list)
			if len(list.BrowserCredentials) != 0 {
				t.Fatalf("expired credentials listed: %+v", list.BrowserCredentials)
			}
			c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusOK)
		})
	}
}

// TestBrowserCredentialRevocationReachesEveryNode: a credential cached by
// one node is refused there as soon as another node revoked it, through the
// PostgreSQL notification and the debit's own check.
func TestBrowserCredentialRevocationReachesEveryNode(t *testing.T) {
	cfg := appConfig(t, stack{postgres: true})
	a := serveApp(t, cfg)
	cfg.HTTPAddr = freeAddr(t)
	b := serveApp(t, cfg)
	session, _ := signIn(t, a, "ada@example.com")
	cred := mintCredential(t, a, session, "china:read")
	b.do("GET", "/china/securities/SSE.600519", nil, apiKey(cred.APIKey)).expect(t, http.StatusOK) // now cached on b
	a.do("DELETE", "/account/browser-credentials/"+cred.CredentialID, nil, bearer(session)).expect(t, http.StatusOK)
	b.do("GET", "/china/securities/SSE.600519", nil, apiKey(cred.APIKey)).expect(t, http.StatusUnauthorized)
}
