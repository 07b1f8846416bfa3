package http_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestEveryResponseSaysNosniff: JSON, CSV, the document, errors of the
// handlers, of the router (404, 405) and of Go's server itself all carry
// X-Content-Type-Options: nosniff.
func TestEveryResponseSaysNosniff(t *testing.T) {
	e := newExportServer(t)
	key := e.account("acc_n", 1000, exportScopes...)
	check := func(name string, h http.Header, code, want int) {
		t.Helper()
		if code != want || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d, X-Content-Type-Options %q; want %d with nosniff", name, code, h.Get("X-Content-Type-Options"), want)
		}
	}
	w := e.post(key, "", `{"dataset":"test.rows","format":"csv","filters":{"n":"x"}}`)
	check("a CSV export", w.Header(), w.Code, http.StatusOK)
	w = e.post("qk_wrong", "", `{}`)
	check("a 401", w.Header(), w.Code, http.StatusUnauthorized)
	w = e.post(key, "", `{"dataset":"test.rows","format":"csv","nope":1}`)
	check("a 400", w.Header(), w.Code, http.StatusBadRequest)
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/healthz", http.StatusOK},
		{"GET", "/openapi.json", http.StatusOK},
		{"GET", "/no/such/route", http.StatusNotFound},
		{"POST", "/healthz", http.StatusMethodNotAllowed},
		{"OPTIONS", "/healthz", http.StatusOK},
	} {
		w = httptest.NewRecorder()
		e.srv.ServeHTTP(w, httptest.NewRequest(tc.method, tc.path, nil))
		check(tc.method+" "+tc.path, w.Header(), w.Code, tc.status)
	}

	// Go's server answers a header holding a control character itself.
	resp := rawExchange(t, e.srv, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: a\x01b\r\n\r\n")
	check("a request Go's server refuses", resp.Header, resp.StatusCode, http.StatusBadRequest)
}

// rawExchange serves h on a loopback listener wrapped as the service wraps
// its own, writes request as given on a new connection and reads the
// response.
func rawExchange(t *testing.T, h http.Handler, request string) *http.Response {
	t.Helper()
	conn, r := rawConn(t, h)
	if _, err := conn.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}
