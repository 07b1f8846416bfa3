package http_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/ledger"
)

// TestRateLimitHeadersOnEveryMeteredResponse: from the rate limit on, every
// response to a data request says the key's policy and what it has left
// (RateLimit-Policy and RateLimit, draft-ietf-httpapi-ratelimit-headers-10),
// a success, an error after the charge and the 429 alike; the 429 keeps
// Retry-After. A request refused before the rate limit (401) carries
// neither.
func TestRateLimitHeadersOnEveryMeteredResponse(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)
	now := func() time.Time { return at }
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: now()}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_1", AccountID: acc.ID, Kind: ledger.Grant, Amount: 100, CreatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k := apikey.Key{ID: "key_1", AccountID: acc.ID, Name: "k", Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret), Scopes: []string{"china:read"}, CreatedAt: now()}
	if err := p.CreateKey(ctx, k, 10); err != nil {
		t.Fatal(err)
	}
	securities := memory.NewSecurities()
	if err := securities.UpsertSecurities(ctx, []ashare.Security{{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "Kweichow Moutai", ListingDate: "2001-08-27", Listed: true}}); err != nil {
		t.Fatal(err)
	}
	china := chinasecurities.New(securities)
	// A burst of 3 refilling one a second; the clock stands still.
	srv, err := httpadapter.NewServer(httpadapter.Deps{
		Metering:     platform.NewMetering(p, p, now),
		Limiter:      platform.NewRateLimiter(memory.NewLimits(), 1, 3, now),
		Availability: usecase.NewAvailability([]usecase.DatasetProbe{china.Probe()}),
		Handlers:     httpadapter.ChinaHandlers(china, now),
		Log:          zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, key string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("X-API-KEY", key)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	const policy = `"default";q=3;w=3`
	steps := []struct {
		path  string
		code  int
		quota string
	}{
		{"/china/securities/SSE.600519", http.StatusOK, `"default";r=2;t=1`},
		{"/china/securities/SSE.600000", http.StatusNotFound, `"default";r=1;t=2`},
		{"/china/securities/SSE.600519", http.StatusOK, `"default";r=0;t=3`},
		{"/china/securities/SSE.600519", http.StatusTooManyRequests, `"default";r=0;t=3`},
	}
	for i, s := range steps {
		w := get(s.path, secret)
		h := w.Header()
		if w.Code != s.code || h.Get("RateLimit-Policy") != policy || h.Get("RateLimit") != s.quota {
			t.Fatalf("request %d (%s): %d, RateLimit-Policy %q, RateLimit %q; want %d, %q, %q",
				i+1, s.path, w.Code, h.Get("RateLimit-Policy"), h.Get("RateLimit"), s.code, policy, s.quota)
		}
		if s.code == http.StatusTooManyRequests && h.Get("Retry-After") != "1" {
			t.Fatalf("the 429 carries Retry-After %q, want 1", h.Get("Retry-After"))
		}
	}
	unknown, err := apikey.Generate(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if w := get("/china/securities/SSE.600519", unknown); w.Code != http.StatusUnauthorized ||
		w.Header().Get("RateLimit") != "" || w.Header().Get("RateLimit-Policy") != "" {
		t.Fatalf("a 401: %d with RateLimit %q, RateLimit-Policy %q; want neither", w.Code, w.Header().Get("RateLimit"), w.Header().Get("RateLimit-Policy"))
	}
}
