package bootstrap_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

// memoryServer wires the service on memory storage with the sample loaded,
// and with any further options, and returns its handler with a signed-in
// session and an API key.
func memoryServer(t testing.TB, opts ...fx.Option) (srv *httpadapter.Server, session, key string) {
	t.Helper()
	cfg, err := bootstrap.LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var store ports.SecurityStore
	app := fx.New(bootstrap.Options(cfg, zap.NewNop()), fx.Options(opts...), fx.Populate(&srv, &store), fx.NopLogger)
	if err := app.Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.LoadChinaSecuritiesSample(context.Background(), store); err != nil {
		t.Fatal(err)
	}
	session, key = signIn(t, srv)
	return srv, session, key
}

// FuzzRequests sends arbitrary methods, paths, queries, bodies and
// credentials to every route: no input may cause a 5xx or a panic, and every
// error is an ErrorResponse with a request id.
func FuzzRequests(f *testing.F) {
	srv, session, key := memoryServer(f)
	f.Fuzz(func(t *testing.T, method, target, body string, credential uint8) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		req, err := http.NewRequest(method, "http://quarry"+target, strings.NewReader(body))
		if err != nil {
			return // not an HTTP request a client could send
		}
		switch credential % 4 {
		case 1:
			req.Header.Set("X-API-KEY", key)
		case 2:
			req.Header.Set("Authorization", "Bearer "+session)
		case 3:
			req.Header.Set("X-API-KEY", body)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("%s %s -> %d %s", method, target, rec.Code, rec.Body)
		}
		if rec.Code >= 400 && rec.Header().Get("Content-Type") == "application/json" {
			var e struct {
				Error     string `json:"error"`
				Message   string `json:"message"`
				RequestID string `json:"request_id"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" || e.Message == "" || !strings.HasPrefix(e.RequestID, "req_") {
				t.Fatalf("%s %s -> %d with a malformed error body %s", method, target, rec.Code, rec.Body)
			}
		}
	})
}
