package http_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/ports"
)

const signupRefusal = "too many accounts created from this address; try again in 12 minutes"

// login posts a sign-in from the client address addr.
func login(srv http.Handler, email, addr string) *httptest.ResponseRecorder {
	body := fmt.Sprintf(`{"email":%q,"password":"a long enough passphrase"}`, email)
	r := httptest.NewRequest("POST", "/account/login", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.RemoteAddr = addr + ":40000"
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	return w
}

// retryIn12Minutes reports whether a refusal's Retry-After is the 12
// minutes a token of 5 an hour takes, less the seconds the test has run.
func retryIn12Minutes(w *httptest.ResponseRecorder) bool {
	secs, err := strconv.Atoi(w.Header().Get("Retry-After"))
	return err == nil && secs > 660 && secs <= 720
}

// TestSignupLimitAnswers429 creates the accounts one address may, then one
// more: it is refused with its own message and Retry-After, and creates
// nothing, while another address may still sign up and the address may
// still sign in to an account it has.
func TestSignupLimitAnswers429(t *testing.T) {
	p := memory.NewPlatform()
	srv := newServer(t, p)
	for i := range 5 {
		if w := login(srv, fmt.Sprintf("user%d@example.com", i), "192.0.2.1"); w.Code != http.StatusOK {
			t.Fatalf("sign-up %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	w := login(srv, "user5@example.com", "192.0.2.1")
	var body struct{ Error, Message string }
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusTooManyRequests ||
		body.Error != "rate_limited" || body.Message != signupRefusal || !retryIn12Minutes(w) {
		t.Fatalf("the sixth sign-up: %d, Retry-After %q, %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if _, err := p.AccountByEmail(context.Background(), "user5@example.com"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("a refused sign-up created its account: %v", err)
	}
	if w := login(srv, "user5@example.com", "198.51.100.7"); w.Code != http.StatusOK {
		t.Fatalf("another address: %d %s", w.Code, w.Body)
	}
	if w := login(srv, "user0@example.com", "192.0.2.1"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"credits":100000`) {
		t.Fatalf("an existing account from the limited address: %d %s", w.Code, w.Body)
	}
}

// TestConsoleSignupIsLimited: the console's form shares the address's
// sign-up limit with POST /account/login.
func TestConsoleSignupIsLimited(t *testing.T) {
	p := memory.NewPlatform()
	c := &console{t: t, srv: newServer(t, p)}
	for i := range 5 {
		if w := login(c.srv, fmt.Sprintf("user%d@example.com", i), "192.0.2.1"); w.Code != http.StatusOK {
			t.Fatalf("sign-up %d: %d", i+1, w.Code)
		}
	}
	form := c.send(httptest.NewRequest("GET", "/console/signup", nil))
	r := postForm("/console/signup", url.Values{"csrf": {csrfIn(t, form.Body.String())}, "email": {"eve@example.com"}, "password": {"a long enough passphrase"}})
	r.AddCookie(cookie(t, form, "quarry_console_signin"))
	w := c.send(r)
	if w.Code != http.StatusTooManyRequests || !retryIn12Minutes(w) || !strings.Contains(w.Body.String(), signupRefusal) {
		t.Fatalf("the console's sixth sign-up: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	for _, ck := range w.Result().Cookies() {
		if ck.Name == "quarry_console" && ck.Value != "" {
			t.Fatal("a refused sign-up opened a session")
		}
	}
	if _, err := p.AccountByEmail(context.Background(), "eve@example.com"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("a refused sign-up created its account: %v", err)
	}
}
