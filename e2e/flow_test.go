package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

var stacks = map[string]stack{"memory": {}, "postgres+mongo": onDatabases, "embedded": embedded}

type creditsBody struct {
	Balance int64         `json:"balance"`
	Ledger  []ledgerEntry `json:"ledger"`
	Meta    struct {
		Total int `json:"total"`
	} `json:"meta"`
}

// ledgerEntry is one entry of GET /account/credits.
type ledgerEntry struct {
	EntryID   string  `json:"entry_id"`
	Kind      string  `json:"kind"`
	Amount    int64   `json:"amount"`
	Route     *string `json:"route"`
	RequestID *string `json:"request_id"`
	RefundOf  *string `json:"refund_of"`
	Reason    *string `json:"reason"`
}

func credits(t *testing.T, c *client, session string) creditsBody {
	t.Helper()
	var out creditsBody
	c.do("GET", "/account/credits?limit=500", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &out)
	var sum int64
	for _, e := range out.Ledger {
		sum += e.Amount
	}
	if sum != out.Balance || len(out.Ledger) != out.Meta.Total {
		t.Fatalf("balance %d but entries sum to %d (%d of %d entries)", out.Balance, sum, len(out.Ledger), out.Meta.Total)
	}
	return out
}

// refusal is a data request expected to fail with status, its body
// mentioning says.
type refusal struct {
	path   string
	status int
	says   string
}

// expectUncharged sends each refusal with the key and checks that it fails
// as expected and reports cost 0. A request that reached the ledger and was
// refunded (404) reports the balance, untouched; one refused before the
// charge reports none, since reading it would cost a database round trip
// (spec-gaps B12).
func expectUncharged(t *testing.T, c *client, key string, balance int64, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		r := c.do("GET", tc.path, nil, apiKey(key)).expect(t, tc.status)
		if !strings.Contains(string(r.Body), tc.says) {
			t.Errorf("%s: body %s does not mention %q", tc.path, r.Body, tc.says)
		}
		remaining := ""
		if tc.status == http.StatusNotFound {
			remaining = strconv.FormatInt(balance, 10)
		}
		if r.Header.Get("X-Credits-Cost") != "0" || r.Header.Get("X-Credits-Remaining") != remaining {
			t.Errorf("%s: credit headers %q/%q", tc.path, r.Header.Get("X-Credits-Cost"), r.Header.Get("X-Credits-Remaining"))
		}
	}
}

func TestSignUpKeyQueryCredits(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "ada@example.com")

			r := c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusOK)
			var got struct {
				Security struct {
					Code, Exchange, Board, CompanyName string
					Listed                             bool
				} `json:"security"`
			}
			r.JSON(t, &got)
			if got.Security.Code != "SSE.600519" || got.Security.Board != "main" || !got.Security.Listed {
				t.Fatalf("security = %+v", got.Security)
			}
			if r.Header.Get("X-Credits-Cost") != "1" || r.Header.Get("X-Credits-Remaining") != "99999" {
				t.Fatalf("credit headers %q/%q", r.Header.Get("X-Credits-Cost"), r.Header.Get("X-Credits-Remaining"))
			}
			// The sample is Tushare's stock_basic: names as the exchange lists
			// them, in Chinese; the exchange part of a code in any case.
			pingAn := c.do("GET", "/china/securities/szse.000001", nil, apiKey(key)).expect(t, http.StatusOK)
			if !bytes.Contains(pingAn.Body, []byte(`"code":"SZSE.000001"`)) || !bytes.Contains(pingAn.Body, []byte(`"company_name":"平安银行"`)) ||
				!bytes.Contains(pingAn.Body, []byte(`"listing_date":"1991-04-03","delisting_date":null`)) {
				t.Fatalf("Ping An Bank = %s", pingAn.Body)
			}

			st := credits(t, c, session)
			if st.Balance != 99998 || len(st.Ledger) != 3 || st.Ledger[2].Kind != "grant" || st.Ledger[0].Kind != "debit" {
				t.Fatalf("statement = %+v", st)
			}
			if *st.Ledger[0].Route != "GET /china/securities/{code}" {
				t.Fatalf("debit route = %q", *st.Ledger[0].Route)
			}
		})
	}
}

func TestFailedRequestsAreNotCharged(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "grace@example.com")
			cases := []refusal{
				{"/china/securities/600519", http.StatusUnprocessableEntity, "SSE.600519"},
				{"/china/securities/SZSE.600519", http.StatusUnprocessableEntity, "SSE.600519"},
				{"/china/securities/NYSE.600519", http.StatusUnprocessableEntity, "SSE, SZSE, BSE"},
				{"/china/securities/SSE.AAPL", http.StatusUnprocessableEntity, "6 digits"},
				{"/china/securities/SSE.600002", http.StatusNotFound, "SSE.600002"}, // 齐鲁石化, merged away in 2006: not in the list
				{"/india/judgments/J1/pdf", http.StatusUnprocessableEntity, "want inj_ and 16 characters"},
			}
			expectUncharged(t, c, key, 100000, cases)
			st := credits(t, c, session)
			// The 404 was debited and refunded; nothing else touched the ledger.
			if st.Balance != 100000 || len(st.Ledger) != 3 || st.Ledger[0].Kind != "refund" || *st.Ledger[0].RefundOf != st.Ledger[1].EntryID {
				t.Fatalf("statement after failures = %+v", st)
			}
		})
	}
}

func TestCredentialsAreNotInterchangeable(t *testing.T) {
	c, _ := startApp(t, onDatabases)
	session, key := signIn(t, c, "linus@example.com")
	c.do("GET", "/account/keys", nil, apiKey(key)).expect(t, http.StatusUnauthorized)
	c.do("POST", "/account/keys", nil, apiKey(key)).expect(t, http.StatusUnauthorized)
	c.do("GET", "/china/securities/SSE.600519", nil, header{"X-API-KEY", session}).expect(t, http.StatusUnauthorized)
	c.do("GET", "/china/securities/SSE.600519", nil).expect(t, http.StatusUnauthorized)
	c.do("GET", "/china/securities/SSE.600519", nil, apiKey("qk_"+strings.Repeat("A", 38))).expect(t, http.StatusUnauthorized)
	c.do("GET", "/account/credits", nil, bearer("qs_forged")).expect(t, http.StatusUnauthorized)
	c.do("POST", "/account/login", map[string]string{"email": "linus@example.com", "password": "wrong password here"}).expect(t, http.StatusUnauthorized)
	c.do("POST", "/account/login", map[string]string{"email": "linus@example.com", "password": "short"}).expect(t, http.StatusUnprocessableEntity)
	c.do("POST", "/account/login", map[string]string{"email": "not an email", "password": "long enough password"}).expect(t, http.StatusUnprocessableEntity)
	c.do("POST", "/account/login", []byte(`{"email":`)).expect(t, http.StatusBadRequest)
	c.do("POST", "/account/login", bytes.Repeat([]byte(" "), 2<<20)).expect(t, http.StatusRequestEntityTooLarge)
	c.do("POST", "/account/keys?name="+strings.Repeat("n", 65), nil, bearer(session)).expect(t, http.StatusUnprocessableEntity)
	c.do("GET", "/account/credits?limit=0", nil, bearer(session)).expect(t, http.StatusUnprocessableEntity)
	if st := credits(t, c, session); st.Balance != 100000 || len(st.Ledger) != 1 {
		t.Fatalf("refused requests changed the ledger: %+v", st)
	}
}

func TestRevocationTakesEffectOnTheNextRequest(t *testing.T) {
	c, _ := startApp(t, onDatabases)
	session, key := signIn(t, c, "barbara@example.com")
	var keys struct {
		Keys []struct {
			KeyID  string `json:"key_id"`
			Status string `json:"status"`
		} `json:"keys"`
	}
	c.do("GET", "/account/keys", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &keys)
	if len(keys.Keys) != 1 || keys.Keys[0].Status != "active" {
		t.Fatalf("keys = %+v", keys)
	}
	c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusOK)
	other, _ := signIn(t, c, "mallory@example.com")
	c.do("DELETE", "/account/keys/"+keys.Keys[0].KeyID, nil, bearer(other)).expect(t, http.StatusNotFound)
	c.do("DELETE", "/account/keys/key_unknown", nil, bearer(session)).expect(t, http.StatusNotFound)
	r := c.do("DELETE", "/account/keys/"+keys.Keys[0].KeyID, nil, bearer(session)).expect(t, http.StatusOK)
	if !bytes.Contains(r.Body, []byte(`"status":"revoked"`)) {
		t.Fatalf("revoke answered %s", r.Body)
	}
	c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusUnauthorized)
}

func TestRateLimitRefusesWithoutCharging(t *testing.T) {
	c, _ := startApp(t, stack{postgres: true, mongo: true, rps: 0.01, burst: 3})
	session, key := signIn(t, c, "ken@example.com")
	for range 3 {
		c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusOK)
	}
	r := c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusTooManyRequests)
	for _, h := range []string{"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
		if r.Header.Get(h) == "" {
			t.Errorf("429 lacks %s", h)
		}
	}
	if st := credits(t, c, session); st.Balance != 99997 || len(st.Ledger) != 4 {
		t.Fatalf("after 429: %+v", st)
	}
}

func TestSignInIsThrottledPerEmail(t *testing.T) {
	c, _ := startApp(t, stack{})
	signIn(t, c, "dennis@example.com")
	wrong := map[string]string{"email": "dennis@example.com", "password": "not the password"}
	for range 5 {
		c.do("POST", "/account/login", wrong).expect(t, http.StatusUnauthorized)
	}
	r := c.do("POST", "/account/login", wrong).expect(t, http.StatusTooManyRequests)
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("throttled sign-in lacks Retry-After")
	}
	signIn(t, c, "someone-else@example.com")
}

// TestBank is the concurrency proof on PostgreSQL: 200 concurrent cost-1
// requests against a balance of 50.
func TestBank(t *testing.T) {
	c, cfg := startApp(t, stack{postgres: true, mongo: true, credits: 50, rps: 1e5, burst: 1000})
	session, key := signIn(t, c, "bank@example.com")
	statuses := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key))
			mu.Lock()
			statuses[r.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if statuses[http.StatusOK] != 50 || statuses[http.StatusPaymentRequired] != 150 {
		t.Fatalf("statuses = %v, want 50 OK and 150 Payment Required", statuses)
	}
	if st := credits(t, c, session); st.Balance != 0 || len(st.Ledger) != 51 {
		t.Fatalf("after the bank test: balance %d, %d entries", st.Balance, len(st.Ledger))
	}
	var out bytes.Buffer
	if err := cli.VerifyLedger(context.Background(), cfg, &out); err != nil {
		t.Fatalf("ledger verify: %v\n%s", err, out.String())
	}
}

// TestCatalogAndOperations checks the free routes, and that the metrics are
// served on their own listener only (spec-gaps B50).
func TestCatalogAndOperations(t *testing.T) {
	c, cfg := startApp(t, stack{postgres: true, mongo: true, metrics: true})
	var cat struct {
		Version  string `json:"version"`
		Datasets []struct {
			Dataset      string `json:"dataset"`
			Availability string `json:"availability"`
		} `json:"datasets"`
	}
	c.do("GET", "/catalog", nil).expect(t, http.StatusOK).JSON(t, &cat)
	avail := map[string]string{}
	for _, d := range cat.Datasets {
		avail[d.Dataset] = d.Availability
	}
	if cat.Version != "2026-07-20" || avail["china_securities"] != "available" || avail["us_financials"] != "available" || avail["china_prices"] != "available" || avail["india_prices"] != "available" {
		t.Fatalf("catalog = %+v", cat)
	}
	c.do("GET", "/healthz", nil).expect(t, http.StatusOK)
	ready := c.do("GET", "/readyz", nil).expect(t, http.StatusOK)
	if !bytes.Contains(ready.Body, []byte(`"postgres":"ok"`)) || !bytes.Contains(ready.Body, []byte(`"mongodb":"ok"`)) {
		t.Fatalf("readyz = %s", ready.Body)
	}
	c.do("GET", "/openapi.json", nil).expect(t, http.StatusOK)
	_, key := signIn(t, c, "metrics@example.com")
	c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusOK)
	if code, _ := plainGet(t, c.base+"/metrics"); code != http.StatusNotFound {
		t.Fatalf("GET /metrics on the API: %d, want 404", code)
	}
	code, m := plainGet(t, "http://"+cfg.MetricsAddr+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("GET /metrics on the metrics listener: %d", code)
	}
	for _, series := range []string{"quarry_http_requests_total", "quarry_http_request_duration_seconds", "quarry_credits_debited_total 1"} {
		if !bytes.Contains(m, []byte(series)) {
			t.Errorf("metrics lack %q", series)
		}
	}
	r := c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key))
	if id := r.Header.Get("X-Request-ID"); !strings.HasPrefix(id, "req_") || len(id) != 30 {
		t.Fatalf("X-Request-ID = %q", id)
	}
}

// plainGet sends GET to url outside the document's validation (the
// metrics listener is no part of the interface) and returns the status and
// body.
func plainGet(t *testing.T, url string) (int, []byte) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, body
}
