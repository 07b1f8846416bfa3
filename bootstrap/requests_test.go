package bootstrap_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// call sends one request to h and decodes its answer into out, failing
// the test on a status of 300 or more or a body that is not JSON.
func call(t testing.TB, h http.Handler, method, target, body string, hdr http.Header, out any) {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header = hdr
	if req.Header == nil {
		req.Header = http.Header{}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil || rec.Code >= 300 {
		t.Fatalf("%s %s = %d %s", method, target, rec.Code, rec.Body)
	}
}

// signIn signs a new account in on h and returns its session token and a
// new API key.
func signIn(t testing.TB, h http.Handler) (session, key string) {
	t.Helper()
	var login struct {
		SessionToken string `json:"session_token"`
	}
	call(t, h, "POST", "/account/login", `{"email":"tester@example.com","password":"testing passphrase"}`, nil, &login)
	var created struct {
		APIKey string `json:"api_key"`
	}
	call(t, h, "POST", "/account/keys", "", http.Header{"Authorization": {"Bearer " + login.SessionToken}}, &created)
	return login.SessionToken, created.APIKey
}

// serveOnce sends one request with key to h and returns its status and body.
func serveOnce(h http.Handler, method, target, body, key string) (int, string) {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("X-API-KEY", key)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}
