package http_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCredentialHeaderTwiceIs400: a request carrying X-API-KEY or
// Authorization twice is refused with 400, whatever the values, and costs
// nothing; neither value is "the first wins".
func TestCredentialHeaderTwiceIs400(t *testing.T) {
	e := newExportServer(t)
	key := e.account("acc_dup", 100, exportScopes...)
	other := e.account("acc_other", 100, exportScopes...)
	for _, keys := range [][]string{{key, key}, {key, other}, {"", key}} {
		r := httptest.NewRequest("POST", "/india/exports", strings.NewReader(`{"dataset":"test.rows","format":"csv"}`))
		r.Header["X-Api-Key"] = keys
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, r)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "2 X-API-KEY headers") {
			t.Errorf("X-API-KEY %q: %d %s, want 400 naming the header", keys, w.Code, w.Body)
		}
	}
	if b1, b2 := e.balance("acc_dup"), e.balance("acc_other"); b1 != 100 || b2 != 100 {
		t.Fatalf("balances %d and %d after refused requests, want 100 each", b1, b2)
	}

	c := newConsole(t)
	bearer := "Bearer " + c.session.Value
	for _, h := range []http.Header{
		{"Authorization": {bearer, bearer}},
		{"Authorization": {bearer, "Bearer qs_other"}},
		{"Authorization": {bearer}, "X-Api-Key": {"qk_a", "qk_b"}},
	} {
		r := httptest.NewRequest("POST", "/account/keys?name=twice", nil)
		r.Header = h
		if w := c.send(r); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "headers; send exactly one") {
			t.Errorf("%v: %d %s, want 400", h, w.Code, w.Body)
		}
	}
	r := httptest.NewRequest("GET", "/account/keys", nil)
	r.Header.Set("Authorization", bearer)
	if w := c.send(r); w.Code != http.StatusOK || strings.Contains(w.Body.String(), `"twice"`) {
		t.Fatalf("keys after the refusals: %d %s, want no key named twice", w.Code, w.Body)
	}
}
