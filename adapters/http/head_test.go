package http_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/domain/dataset"
)

// TestHeadIsGetWithoutTheBody: every free GET route answers HEAD with the
// status and headers of its GET and no body (spec-gaps B197).
func TestHeadIsGetWithoutTheBody(t *testing.T) {
	e := newExportServer(t)
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(method, path string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, ts.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
	for _, path := range []string{"/catalog", "/healthz", "/readyz", "/openapi.json", "/", "/docs",
		"/account/keys", "/account/credits", "/account/browser-credentials", "/console/signup", "/console/static/console.css", "/console/keys"} {
		get, getBody := send(http.MethodGet, path)
		head, headBody := send(http.MethodHead, path)
		if head.StatusCode != get.StatusCode || len(headBody) != 0 {
			t.Errorf("HEAD %s: %d with %d bytes, want GET's %d and no body", path, head.StatusCode, len(headBody), get.StatusCode)
		}
		for _, name := range []string{"Content-Type", "Cache-Control", "Location", "Etag", "X-Content-Type-Options"} {
			if head.Header.Get(name) != get.Header.Get(name) {
				t.Errorf("HEAD %s: %s %q, GET's %q", path, name, head.Header.Get(name), get.Header.Get(name))
			}
		}
		// A HEAD may leave Content-Length out (RFC 9110, section 8.6; Go's
		// redirect writes no body for it), but never gives another one.
		if head.ContentLength >= 0 && head.ContentLength != int64(len(getBody)) {
			t.Errorf("HEAD %s: Content-Length %d, GET's body is %d bytes", path, head.ContentLength, len(getBody))
		}
	}
}

// TestHeadOnAChargedRouteIsRefused: a data route's HEAD would be the head
// of a charged answer, so it is 405 with Allow naming GET, before the key
// is read: nothing is charged or limited (spec-gaps B197).
func TestHeadOnAChargedRouteIsRefused(t *testing.T) {
	e := newExportServer(t)
	key := e.account("acc_h", 1000, exportScopes...)
	for _, ds := range dataset.Catalog() {
		for _, rt := range ds.Routes {
			if rt.Method != http.MethodGet {
				continue
			}
			path := strings.NewReplacer("{code}", "SSE.600519", "{accession_number}", "0001045810-25-000023", "{judgment_id}", "inj_x").Replace(rt.Path)
			r := httptest.NewRequest(http.MethodHead, path, nil)
			r.Header.Set("X-API-KEY", key)
			w := httptest.NewRecorder()
			e.srv.ServeHTTP(w, r)
			if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, OPTIONS" || w.Header().Get("X-Credits-Cost") != "" {
				t.Errorf("HEAD %s: %d, Allow %q, X-Credits-Cost %q; want 405, Allow: GET, OPTIONS, and no charge",
					path, w.Code, w.Header().Get("Allow"), w.Header().Get("X-Credits-Cost"))
			}
		}
	}
	if b := e.balance("acc_h"); b != 1000 {
		t.Errorf("balance %d after HEADs, want 1000 untouched", b)
	}
}
