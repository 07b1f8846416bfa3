package http_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
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
	"github.com/quarrydata/quarry/ports"
)

// countingKeys and countingLedger count the calls that reach the stores on
// a request's path, as a database would count round trips. A key's last
// use is written beside the request, once a minute (Meter's touch), and
// no request waits for it, so it is not counted.
type countingKeys struct {
	ports.KeyStore
	calls *atomic.Int64
}

func (c countingKeys) KeyByHash(ctx context.Context, hash string) (apikey.Key, error) {
	c.calls.Add(1)
	return c.KeyStore.KeyByHash(ctx, hash)
}

type countingLedger struct {
	ports.Ledger
	calls *atomic.Int64
}

func (c countingLedger) Debit(ctx context.Context, e ledger.Entry) (int64, error) {
	c.calls.Add(1)
	return c.Ledger.Debit(ctx, e)
}

func (c countingLedger) Refund(ctx context.Context, e ledger.Entry) (int64, error) {
	c.calls.Add(1)
	return c.Ledger.Refund(ctx, e)
}

func (c countingLedger) Balance(ctx context.Context, accountID string) (int64, error) {
	c.calls.Add(1)
	return c.Ledger.Balance(ctx, accountID)
}

// TestRefusalsBeforeTheChargeReachNoStore: once a key has been seen, a
// request refused before the charge (401, 403, 429, 503, 422) is answered
// without a call to the key store or the ledger, with X-Credits-Cost 0 and
// no X-Credits-Remaining.
func TestRefusalsBeforeTheChargeReachNoStore(t *testing.T) {
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC) }
	p := memory.NewPlatform()
	var calls atomic.Int64
	cache, err := platform.NewKeyCache(countingKeys{p, &calls}, now)
	if err != nil {
		t.Fatal(err)
	}
	cache.Watching(true)
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: now()}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_1", AccountID: acc.ID, Kind: ledger.Grant, Amount: 100, CreatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	mint := func(id string, scopes ...string) string {
		secret, err := apikey.Generate(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		k := apikey.Key{ID: id, AccountID: acc.ID, Name: id, Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret), Scopes: scopes, CreatedAt: now()}
		if err := p.CreateKey(ctx, k, 10); err != nil {
			t.Fatal(err)
		}
		return secret
	}
	full, narrow := mint("key_full", "china:read"), mint("key_narrow", "us:read")
	inactive, invalid := mint("key_inactive", "china:read"), mint("key_invalid", "china:read")
	revoked := mint("key_revoked", "china:read")
	if _, err := p.RevokeKey(ctx, acc.ID, "key_revoked", apikey.Standing, now()); err != nil {
		t.Fatal(err)
	}
	unknown, err := apikey.Generate(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}

	securities := memory.NewSecurities()
	if err := securities.UpsertSecurities(ctx, []ashare.Security{{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "Kweichow Moutai", ListingDate: "2001-08-27", Listed: true}}); err != nil {
		t.Fatal(err)
	}
	china := chinasecurities.New(securities)
	// Every key has one request in its bucket, and the clock stands still.
	limiter := platform.NewRateLimiter(memory.NewLimits(), 0.001, 1, now)
	metering := platform.NewMetering(cache, countingLedger{p, &calls}, now)
	srv, err := httpadapter.NewServer(httpadapter.Deps{
		Metering:     metering,
		Limiter:      limiter,
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
	// Warm up: every key is looked up once, as its first request would,
	// without spending its one request.
	for _, secret := range []string{full, narrow, inactive, invalid, revoked, unknown} {
		_, _ = metering.Authenticate(ctx, secret)
	}
	// A charged request reaches the ledger and reports the balance.
	if w := get("/china/securities/SSE.600519", full); w.Code != http.StatusOK || w.Header().Get("X-Credits-Remaining") != "99" {
		t.Fatalf("charged request: %d, headers %v", w.Code, w.Header())
	}

	refusals := []struct {
		name, path, key string
		status          int
	}{
		{"revoked key", "/china/securities/SSE.600519", revoked, http.StatusUnauthorized},
		{"unknown key", "/china/securities/SSE.600519", unknown, http.StatusUnauthorized},
		{"malformed key", "/china/securities/SSE.600519", "qk_nope", http.StatusUnauthorized},
		{"missing permission", "/china/securities/SSE.600519", narrow, http.StatusForbidden},
		{"rate limited", "/china/securities/SSE.600519", full, http.StatusTooManyRequests},
		{"dataset not activated", "/china/prices?code=SSE.600519", inactive, http.StatusServiceUnavailable},
		{"invalid code", "/china/securities/600519", invalid, http.StatusUnprocessableEntity},
	}
	before := calls.Load()
	for _, tc := range refusals {
		w := get(tc.path, tc.key)
		if w.Code != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, w.Code, tc.status, w.Body)
		}
		if w.Header().Get("X-Credits-Remaining") != "" {
			t.Errorf("%s: X-Credits-Remaining %q on a refusal", tc.name, w.Header().Get("X-Credits-Remaining"))
		}
		if cost := w.Header().Get("X-Credits-Cost"); tc.status != http.StatusUnauthorized && cost != "0" {
			t.Errorf("%s: X-Credits-Cost %q, want 0", tc.name, cost)
		}
	}
	if n := calls.Load() - before; n != 0 {
		t.Fatalf("%d store calls answering %d refusals, want 0", n, len(refusals))
	}
}
