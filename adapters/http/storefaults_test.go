package http_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
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

// faultyLedger injects the faults of a failover into a working ledger.
type faultyLedger struct {
	ports.Ledger
	// commitThenLose applies each debit, then answers ErrOutcomeUnknown,
	// as a COMMIT whose answer was lost does.
	commitThenLose bool
	// loseBeforeCommit answers each debit ErrOutcomeUnknown unapplied, as a
	// statement sent to a server that died before running it.
	loseBeforeCommit bool
	// downBefore answers each debit ErrUnavailable unapplied, as a pool
	// with no server to connect to.
	downBefore bool
	// settleDown and refundDown answer that many Settle and Refund calls
	// ErrUnavailable before passing them on.
	settleDown, refundDown atomic.Int64
}

func (f *faultyLedger) Debit(ctx context.Context, e ledger.Entry) (int64, error) {
	switch {
	case f.downBefore:
		return 0, fmt.Errorf("fault: debit %s: %w", e.ID, ports.ErrUnavailable)
	case f.loseBeforeCommit:
		return 0, fmt.Errorf("fault: debit %s: %w", e.ID, ports.ErrOutcomeUnknown)
	case f.commitThenLose:
		if _, err := f.Ledger.Debit(ctx, e); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("fault: debit %s: %w", e.ID, ports.ErrOutcomeUnknown)
	}
	return f.Ledger.Debit(ctx, e)
}

func (f *faultyLedger) Settle(ctx context.Context, e ledger.Entry) (bool, error) {
	if f.settleDown.Add(-1) >= 0 {
		return false, fmt.Errorf("fault: settle %s: %w", e.ID, ports.ErrUnavailable)
	}
	return f.Ledger.Settle(ctx, e)
}

func (f *faultyLedger) Refund(ctx context.Context, e ledger.Entry) (int64, error) {
	if f.refundDown.Add(-1) >= 0 {
		return 0, fmt.Errorf("fault: refund %s: %w", e.ID, ports.ErrOutcomeUnknown)
	}
	return f.Ledger.Refund(ctx, e)
}

// downKeys is a key store that does not answer in time.
type downKeys struct{ ports.KeyStore }

func (downKeys) KeyByHash(context.Context, string) (apikey.Key, error) {
	return apikey.Key{}, fmt.Errorf("postgres: key by hash: %w: context deadline exceeded", ports.ErrUnavailable)
}

// downSecurities is a document store whose lookups do not answer in time.
type downSecurities struct{ ports.SecurityStore }

func (downSecurities) Security(ctx context.Context, code string) (ashare.Security, error) {
	return ashare.Security{}, fmt.Errorf("mongo: security %s: %w: server selection timeout", code, ports.ErrUnavailable)
}

// faultRig is a server over a memory platform with one funded account, a
// ledger and a document store faults can be injected into.
type faultRig struct {
	srv      http.Handler
	platform *memory.Platform
	ledger   *faultyLedger
	key      string
}

const faultCredits = 100

// The stores a rig can have down from the start.
type downStores struct{ documents, keys bool }

func newFaultRig(t *testing.T, down downStores) *faultRig {
	t.Helper()
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC) }
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: now()}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_grant", AccountID: acc.ID, Kind: ledger.Grant, Amount: faultCredits, CreatedAt: now()}); err != nil {
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
	var securities ports.SecurityStore = memory.NewSecurities()
	if err := securities.UpsertSecurities(ctx, []ashare.Security{{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "Kweichow Moutai", ListingDate: "2001-08-27", Listed: true}}); err != nil {
		t.Fatal(err)
	}
	if down.documents {
		securities = downSecurities{securities}
	}
	var keys ports.KeyStore = p
	if down.keys {
		keys = downKeys{p}
	}
	china := chinasecurities.New(securities)
	faulty := &faultyLedger{Ledger: p}
	srv, err := httpadapter.NewServer(httpadapter.Deps{
		Metering:     platform.NewMetering(keys, faulty, now).WithStoreTimeout(50 * time.Millisecond),
		Limiter:      platform.NewRateLimiter(memory.NewLimits(), 1000, 1000, now),
		Availability: usecase.NewAvailability([]usecase.DatasetProbe{china.Probe()}),
		Handlers:     httpadapter.ChinaHandlers(china, now),
		Log:          zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &faultRig{srv: srv, platform: p, ledger: faulty, key: secret}
}

func (r *faultRig) get(t *testing.T) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", "/china/securities/SSE.600519", nil)
	req.Header.Set("X-API-KEY", r.key)
	w := httptest.NewRecorder()
	r.srv.ServeHTTP(w, req)
	return w
}

// kept is what the ledger holds against the account: the credits taken,
// and its entries by kind.
func (r *faultRig) kept(t *testing.T) (int64, map[ledger.Kind]int) {
	t.Helper()
	st, err := r.platform.Statement(context.Background(), "acc_1", 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ledger.Sum(st.Entries) != st.Balance {
		t.Fatalf("balance %d is not the sum of entries %d", st.Balance, ledger.Sum(st.Entries))
	}
	kinds := map[ledger.Kind]int{}
	for _, e := range st.Entries {
		kinds[e.Kind]++
	}
	return faultCredits - st.Balance, kinds
}

// wantStoreUnavailable checks a 503 store_unavailable: Retry-After, an
// ErrorResponse body with the request id, and X-Credits-Cost 0 without a
// balance.
func wantStoreUnavailable(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %s", w.Code, w.Body)
	}
	if ra, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || ra < 1 {
		t.Fatalf("Retry-After %q, want whole seconds", w.Header().Get("Retry-After"))
	}
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("body is not JSON: %s", w.Body)
	}
	if body["error"] != "store_unavailable" || body["message"] == "" || body["request_id"] == nil || body["dataset"] != nil {
		t.Fatalf("body %s, want an ErrorResponse store_unavailable", w.Body)
	}
	// A balance is told only when the ledger answered with it: the whole
	// grant, since nothing was kept.
	remaining := w.Header().Get("X-Credits-Remaining")
	if w.Header().Get("X-Credits-Cost") != "0" || (remaining != "" && remaining != strconv.Itoa(faultCredits)) {
		t.Fatalf("credit headers %v, want X-Credits-Cost 0 and no balance or %d", w.Header(), faultCredits)
	}
}

// eventuallyKept waits for the ledger to hold what the client was told:
// nothing taken.
func eventuallyKept(t *testing.T, r *faultRig, want map[ledger.Kind]int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		taken, kinds := r.kept(t)
		if taken == 0 && kinds[ledger.Debit] == want[ledger.Debit] && kinds[ledger.Refund] == want[ledger.Refund] {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("told 0 credits, the ledger kept %d (entries %v, want %v)", taken, kinds, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLostDebitsAreSettledAsTold: a debit whose outcome the ledger lost is
// answered 503 store_unavailable costing 0, and the ledger keeps 0 too: a
// debit it did commit is refunded by a refund naming it, one it did not is
// not there, and a ledger that answers the settling only later is settled
// in the background.
func TestLostDebitsAreSettledAsTold(t *testing.T) {
	cases := []struct {
		name   string
		inject func(*faultyLedger)
		want   map[ledger.Kind]int
	}{
		{"committed, answer lost", func(f *faultyLedger) { f.commitThenLose = true }, map[ledger.Kind]int{ledger.Debit: 1, ledger.Refund: 1}},
		{"lost before it committed", func(f *faultyLedger) { f.loseBeforeCommit = true }, map[ledger.Kind]int{}},
		{"ledger down before the debit", func(f *faultyLedger) { f.downBefore = true }, map[ledger.Kind]int{}},
		{"committed, settled after the store timeout", func(f *faultyLedger) {
			f.commitThenLose = true
			f.settleDown.Store(1 << 20) // unreachable for the whole request
		}, map[ledger.Kind]int{ledger.Debit: 1, ledger.Refund: 1}},
		{"committed, its refund lost once", func(f *faultyLedger) {
			f.commitThenLose = true
			f.refundDown.Store(1)
		}, map[ledger.Kind]int{ledger.Debit: 1, ledger.Refund: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newFaultRig(t, downStores{})
			tc.inject(r.ledger)
			w := r.get(t)
			r.ledger.settleDown.Store(0) // the store answers again
			wantStoreUnavailable(t, w)
			eventuallyKept(t, r, tc.want)
		})
	}
}

// TestDocumentStoreDownIsRefunded: a document store that does not answer
// after the charge gives 503 store_unavailable, not the not-activated body,
// and the request is refunded; a refund the ledger loses is written again
// until kept, and the client is told 0 either way.
func TestDocumentStoreDownIsRefunded(t *testing.T) {
	for _, lostRefunds := range []int64{0, 3} {
		t.Run(fmt.Sprintf("%d refunds lost", lostRefunds), func(t *testing.T) {
			r := newFaultRig(t, downStores{documents: true})
			r.ledger.refundDown.Store(lostRefunds)
			w := r.get(t)
			wantStoreUnavailable(t, w)
			eventuallyKept(t, r, map[ledger.Kind]int{ledger.Debit: 1, ledger.Refund: 1})
		})
	}
}

// TestKeyStoreDownIsStoreUnavailable: a key store that does not answer is
// 503 store_unavailable costing 0, not a 500, and nothing is written.
func TestKeyStoreDownIsStoreUnavailable(t *testing.T) {
	r := newFaultRig(t, downStores{keys: true})
	wantStoreUnavailable(t, r.get(t))
	eventuallyKept(t, r, map[ledger.Kind]int{})
}

// hangingSessions is a session store whose lookups, once hung, wait for
// their context, or for the store to be back, as a database that does not
// answer holds a query.
type hangingSessions struct {
	ports.SessionStore
	hung *atomic.Bool
	back chan struct{}
}

func (h hangingSessions) SessionByHash(ctx context.Context, tokenHash string) (account.Session, error) {
	if !h.hung.Load() {
		return h.SessionStore.SessionByHash(ctx, tokenHash)
	}
	select {
	case <-ctx.Done():
		return account.Session{}, fmt.Errorf("postgres: session: %w: %w", ports.ErrUnavailable, ctx.Err())
	case <-h.back:
		return h.SessionStore.SessionByHash(ctx, tokenHash)
	}
}

// TestAccountRoutesAreBoundedByTheStoreTimeout: an account route whose
// store does not answer is 503 store_unavailable with Retry-After once the
// store timeout has passed, not held for as long as the store is down.
func TestAccountRoutesAreBoundedByTheStoreTimeout(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC) }
	p := memory.NewPlatform()
	var hung atomic.Bool
	back := make(chan struct{})
	t.Cleanup(func() { close(back) })
	accounts := platform.NewAccounts(p, hangingSessions{p, &hung, back}, p, memory.NewLimits(), memory.NewLimits(),
		platform.AccountsConfig{InitialCredits: 100, SessionTTL: time.Hour}, now)
	srv, err := httpadapter.NewServer(httpadapter.Deps{
		Accounts: accounts, Keys: platform.NewKeys(p, now), Credits: platform.NewCredits(p, now),
		Metering: platform.NewMetering(p, p, now), Limiter: platform.NewRateLimiter(memory.NewLimits(), 1000, 1000, now),
		Availability: usecase.NewAvailability(nil), StoreTimeout: httpadapter.StoreTimeout(100 * time.Millisecond), Log: zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	session, err := accounts.Login(context.Background(), "hang@example.com", "correct horse battery staple", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	hung.Store(true)
	r := httptest.NewRequest("GET", "/account/credits", nil)
	r.Header.Set("Authorization", "Bearer "+session.Token)
	w := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.ServeHTTP(w, r)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // a watchdog, far past any bound: the store never comes back
		t.Fatal("the request is held for as long as the store does not answer")
	}
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Fatalf("status %d, Retry-After %q, want 503 with it: %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body["error"] != "store_unavailable" {
		t.Fatalf("body %s, want store_unavailable", w.Body)
	}
}
