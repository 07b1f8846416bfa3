package http_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestUnknownQueryParametersAreRefused: a query parameter the operation
// does not take (a misspelt filter, `scopes` on key creation) is a 400
// naming it (each of several), and so is one given twice, after the key is checked and before anything is charged,
// and a parameter the operation takes passes.
func TestUnknownQueryParametersAreRefused(t *testing.T) {
	e := newExportServer(t)
	key := e.account("acc_q", 1000, exportScopes...)
	send := func(method, target, secret, body string) *httptest.ResponseRecorder {
		t.Helper()
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if secret != "" {
			r.Header.Set("X-API-KEY", secret)
		}
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, r)
		return w
	}
	message := func(w *httptest.ResponseRecorder) string {
		var b struct{ Error, Message string }
		_ = json.Unmarshal(w.Body.Bytes(), &b)
		return b.Error + ": " + b.Message
	}
	body := `{"dataset":"test.rows","format":"csv"}`
	w := send("POST", "/india/exports?tickr=NVDA", key, body)
	if w.Code != http.StatusBadRequest || !strings.Contains(message(w), `"tickr"`) || w.Header().Get("X-Credits-Cost") != "0" {
		t.Fatalf("unknown parameter: %d %q, cost %q", w.Code, message(w), w.Header().Get("X-Credits-Cost"))
	}
	if b := e.balance("acc_q"); b != 1000 {
		t.Fatalf("balance %d after a refusal, want 1000", b)
	}
	if w := send("POST", "/india/exports?tickr=NVDA", "qk_wrong", body); w.Code != http.StatusUnauthorized {
		t.Fatalf("a bad key with an unknown parameter: %d, want the 401 first", w.Code)
	}
	if w := send("POST", "/india/exports", key, body); w.Code != http.StatusOK {
		t.Fatalf("no parameter: %d %s", w.Code, w.Body)
	}
	w = send("POST", "/account/keys?name=laptop&scopes=china:read", "", "")
	if w.Code != http.StatusBadRequest || !strings.Contains(message(w), "/account/browser-credentials") {
		t.Fatalf("scopes on key creation: %d %q", w.Code, message(w))
	}
	if w := send("GET", "/catalog?foo=bar", "", ""); w.Code != http.StatusBadRequest || !strings.Contains(message(w), "takes none") {
		t.Fatalf("catalog with an unknown parameter: %d %q", w.Code, message(w))
	}
	if w := send("GET", "/catalog?tickr=x&foo=1", "", ""); w.Code != http.StatusBadRequest || !strings.Contains(message(w), `"foo", "tickr"`) {
		t.Fatalf("two unknown parameters: %d %q, want both named", w.Code, message(w))
	}
	w = send("POST", "/account/keys?name=a&name=b", "", "")
	if w.Code != http.StatusBadRequest || !strings.Contains(message(w), `"name" given 2 times`) {
		t.Fatalf("a parameter given twice: %d %q", w.Code, message(w))
	}
}
