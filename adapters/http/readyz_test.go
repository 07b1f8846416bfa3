package http_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/ports"
)

// TestReadyzNamesTheMigrationToRun: a store that lacks its migrations makes
// /readyz a 503 whose check is not_migrated and whose message names
// `quarry migrate`; a store that fails otherwise is "failing", with no
// message carrying its driver's words.
func TestReadyzNamesTheMigrationToRun(t *testing.T) {
	unmigrated := fmt.Errorf("the database lacks 9 migration(s) of this release (0001_platform to 0009_rate_remaining): run `quarry migrate`: %w", ports.ErrNotMigrated)
	srv, err := httpadapter.NewServer(httpadapter.Deps{
		Availability: usecase.NewAvailability(nil),
		Log:          zap.NewNop(),
		Readiness: []httpadapter.Readiness{
			{Name: "postgres", Check: func(context.Context) error { return unmigrated }},
			{Name: "mongodb", Check: func(context.Context) error { return errors.New("dial tcp 10.0.0.7:27017: refused") }},
			{Name: "search", Check: func(context.Context) error { return nil }},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
	var body struct {
		Status   string            `json:"status"`
		Checks   map[string]string `json:"checks"`
		Messages map[string]string `json:"messages"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("readyz body %s: %v", w.Body, err)
	}
	want := map[string]string{"postgres": "not_migrated", "mongodb": "failing", "search": "ok"}
	if w.Code != http.StatusServiceUnavailable || body.Status != "unavailable" || fmt.Sprint(body.Checks) != fmt.Sprint(want) {
		t.Fatalf("readyz: %d %s, want 503 unavailable with checks %v", w.Code, w.Body, want)
	}
	if msg := body.Messages["postgres"]; !strings.Contains(msg, "quarry migrate") || len(body.Messages) != 1 {
		t.Fatalf("readyz messages %v, want one for postgres naming quarry migrate", body.Messages)
	}
}
