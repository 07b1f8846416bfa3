package e2e

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBodiesAreReadStrictly holds every JSON body to the same rules: the
// size limit counts every byte, field names match exactly and once, the
// bytes are UTF-8, and a value of the wrong type fails the schema (422)
// where malformed JSON is 400. None of them is charged.
func TestBodiesAreReadStrictly(t *testing.T) {
	c, _ := startApp(t, stack{})
	session, key := signIn(t, c, "strict@example.com")
	before := credits(t, c, session).Balance
	for _, tc := range []struct {
		name   string
		body   string
		status int
		says   string
	}{
		{"whitespace after the body counts toward 1 MiB", `{"query":"iPhone"}` + strings.Repeat(" ", 1<<20), http.StatusRequestEntityTooLarge, "1 MiB"},
		{"a number where a string belongs", `{"query": 5}`, http.StatusUnprocessableEntity, `"query"`},
		{"an operator object where a string belongs", `{"query": {"$ne": ""}}`, http.StatusUnprocessableEntity, `"query"`},
		{"a case variant of a field", `{"query":"x","QUERY":""}`, http.StatusBadRequest, `unknown field "QUERY"`},
		{"a duplicate field", `{"query":"x","query":"y"}`, http.StatusBadRequest, "duplicate"},
		{"invalid UTF-8", "{\"query\":\"\xff\xfe\"}", http.StatusBadRequest, "UTF-8"},
		{"malformed JSON", `{"query":`, http.StatusBadRequest, "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e struct{ Message string }
			c.do("POST", "/us/search", []byte(tc.body), apiKey(key)).expect(t, tc.status).JSON(t, &e)
			if !strings.Contains(e.Message, tc.says) {
				t.Errorf("message %q does not say %q", e.Message, tc.says)
			}
		})
	}
	if after := credits(t, c, session).Balance; after != before {
		t.Fatalf("balance %d after refused bodies, want %d", after, before)
	}
}

// TestPasswordsAreTheBytesReceived: a password of invalid UTF-8 is refused
// rather than repaired, so two different byte strings can never both open
// one account.
func TestPasswordsAreTheBytesReceived(t *testing.T) {
	c, _ := startApp(t, stack{})
	for _, password := range []string{"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", "\xc0\xc1\xc0\xc1\xc0\xc1\xc0\xc1"} {
		body := []byte(`{"email":"bytes@example.com","password":"` + password + `"}`)
		c.do("POST", "/account/login", body).expect(t, http.StatusBadRequest)
	}
}

// TestBearerSchemeIsCaseInsensitive follows RFC 9110: "bearer" is "Bearer".
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	c, _ := startApp(t, stack{})
	session, _ := signIn(t, c, "scheme@example.com")
	for _, scheme := range []string{"bearer", "BEARER", "Bearer"} {
		c.do("GET", "/account/credits", nil, header{"Authorization", scheme + " " + session}).expect(t, http.StatusOK)
	}
}

// TestSignInThrottleHoldsUnderConcurrency fires 100 wrong passwords for one
// email at once, on PostgreSQL: at most 5 are verified (401), the rest are
// 429.
func TestSignInThrottleHoldsUnderConcurrency(t *testing.T) {
	c, _ := startApp(t, onDatabases)
	signIn(t, c, "guessed@example.com")
	statuses := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			r := c.do("POST", "/account/login", map[string]string{"email": "guessed@example.com", "password": "not the password"})
			mu.Lock()
			defer mu.Unlock()
			statuses[r.Status]++
		})
	}
	wg.Wait()
	if statuses[http.StatusUnauthorized] != 5 || statuses[http.StatusTooManyRequests] != 95 {
		t.Fatalf("statuses %v, want 5 x 401 and 95 x 429", statuses)
	}
}

// TestTransportErrorsAreJSON sends what Go's server or router would answer
// on its own, over a raw connection so that nothing is cleaned on the way:
// every answer is an ErrorResponse, and no path is redirected into a route.
func TestTransportErrorsAreJSON(t *testing.T) {
	c, cfg := startApp(t, stack{})
	_, key := signIn(t, c, "raw@example.com")
	for _, tc := range []struct {
		name    string
		request string
		status  int
	}{
		{"a trailing slash", "GET /catalog/ HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusNotFound},
		{"a doubled slash", "GET //catalog HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusNotFound},
		{"a dot-dot segment", "GET /account/../catalog HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusNotFound},
		{"another case", "GET /CATALOG HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusNotFound},
		{"a data path that cleans to a route", "GET /china/securities/SSE.600519/ HTTP/1.1\r\nHost: x\r\nX-API-KEY: " + key + "\r\n\r\n", http.StatusNotFound},
		{"a control character in a header", "GET /catalog HTTP/1.1\r\nHost: x\r\nX-Note: a\x01b\r\n\r\n", http.StatusBadRequest},
		{"headers over 32 KiB", "GET /catalog HTTP/1.1\r\nHost: x\r\nX-Pad: " + strings.Repeat("a", 40<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := rawRequest(t, cfg.HTTPAddr, tc.request)
			defer resp.Body.Close()
			var body struct {
				Error   string `json:"error"`
				Message string `json:"message"`
			}
			err := json.NewDecoder(resp.Body).Decode(&body)
			if resp.StatusCode != tc.status || err != nil || body.Error == "" || body.Message == "" ||
				resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %s, body %+v (%v); want %d with an ErrorResponse", resp.StatusCode, resp.Header.Get("Content-Type"), body, err, tc.status)
			}
		})
	}
}

// rawRequest writes request as given and reads the response.
func rawRequest(t *testing.T, addr, request string) *http.Response {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
