package http_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// noMarkup fails unless body is an ErrorResponse in application/json whose
// bytes hold no <, > or &, and whose message still shows the input escaped.
func noMarkup(t *testing.T, name string, h http.Header, body []byte, wantStatus, status int, shows string) {
	t.Helper()
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(body, &e); err != nil || status != wantStatus || h.Get("Content-Type") != "application/json" {
		t.Errorf("%s: %d %s %s (%v); want %d with an ErrorResponse", name, status, h.Get("Content-Type"), body, err, wantStatus)
		return
	}
	if strings.ContainsAny(string(body), "<>&") || strings.ContainsAny(e.Message, "<>&") {
		t.Errorf("%s: markup reflected: %s", name, body)
	}
	if !strings.Contains(e.Message, shows) {
		t.Errorf("%s: message %q does not show %q", name, e.Message, shows)
	}
}

// TestErrorsNeverReflectMarkup sends markup in a JSON field name, a JSON
// value, a path segment, a query value and a header Go's server refuses:
// every error that quotes it has <, > and & escaped, and none is raw.
func TestErrorsNeverReflectMarkup(t *testing.T) {
	e := newExportServer(t)
	key := e.account("acc_m", 1000, exportScopes...)
	w := e.post(key, "", `{"<script>alert(1)":1}`)
	noMarkup(t, "a JSON field name", w.Header(), w.Body.Bytes(), w.Code, http.StatusBadRequest, `\u003cscript\u003ealert(1)`)
	w = e.post(key, "", `{"dataset":"<img src=x onerror=alert(1)>&","format":"csv"}`)
	noMarkup(t, "a JSON value", w.Header(), w.Body.Bytes(), w.Code, http.StatusUnprocessableEntity, `\u003cimg src=x onerror=alert(1)\u003e\u0026`)

	c := newConsole(t)
	send := func(method, target string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, nil)
		r.Header.Set("Authorization", "Bearer "+c.session.Value)
		return c.send(r)
	}
	w = send("DELETE", "/account/keys/%3Cb%3Ekey%26")
	noMarkup(t, "a path segment", w.Header(), w.Body.Bytes(), w.Code, http.StatusNotFound, `\u003cb\u003ekey\u0026`)
	w = send("POST", "/account/keys?name=%3Csvg%20onload%3Dalert(1)%3E%00")
	noMarkup(t, "a query value", w.Header(), w.Body.Bytes(), w.Code, http.StatusUnprocessableEntity, `\u003csvg onload=alert(1)\u003e`)

	resp := rawExchange(t, e.srv, "POST /india/exports HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: <script>\r\n\r\n")
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	noMarkup(t, "a transfer coding Go's server refuses", resp.Header, body, resp.StatusCode, http.StatusNotImplemented, "transfer encoding")
}
