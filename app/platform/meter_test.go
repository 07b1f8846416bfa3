package platform_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/domain/ratelimit"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// steps records, in order, the steps of a metered call that reached a
// store or a handler.
type steps []string

func (s *steps) add(step string) { *s = append(*s, step) }

// stepKeys records the key lookups, or fails them with err.
type stepKeys struct {
	*memory.Platform
	steps *steps
	err   error
}

func (k *stepKeys) KeyByHash(ctx context.Context, hash string) (apikey.Key, error) {
	k.steps.add("authenticate")
	if k.err != nil {
		return apikey.Key{}, k.err
	}
	return k.Platform.KeyByHash(ctx, hash)
}

// stepLedger records the debits and refunds.
type stepLedger struct {
	*memory.Platform
	steps *steps
}

func (l *stepLedger) Debit(ctx context.Context, e ledger.Entry) (int64, error) {
	l.steps.add("debit")
	return l.Platform.Debit(ctx, e)
}

func (l *stepLedger) Refund(ctx context.Context, e ledger.Entry) (int64, error) {
	l.steps.add("refund")
	return l.Platform.Refund(ctx, e)
}

// stepBuckets records the rate limit's round trips.
type stepBuckets struct {
	*memory.Limits
	steps *steps
}

func (b *stepBuckets) Take(ctx context.Context, key string, want int, r ratelimit.Rate, now time.Time) (ratelimit.Grant, error) {
	b.steps.add("limit")
	return b.Limits.Take(ctx, key, want, r, now)
}

// meterRig is a Meter over the memory platform, with one key of an
// account, every step recorded.
type meterRig struct {
	meter    *platform.Meter
	p        *memory.Platform
	keys     *stepKeys
	limiter  *platform.RateLimiter
	steps    *steps
	secret   string
	route    dataset.Route
	held     bool
	incident []platform.Incident
	probe    usecase.DatasetProbe
	now      usecase.Clock
}

// indiaPrices is the catalog's GET /india/prices.
func indiaPrices(t *testing.T) dataset.Route {
	t.Helper()
	for _, ds := range dataset.Catalog() {
		for _, rt := range ds.Routes {
			if rt.Method+" "+rt.Path == "GET /india/prices" {
				return rt
			}
		}
	}
	t.Fatal("no GET /india/prices in the catalog")
	return dataset.Route{}
}

// newMeterRig holds credits for the account of a key with scopes, limited
// to burst calls at once.
func newMeterRig(t *testing.T, credits int64, burst int, scopes ...string) *meterRig {
	t.Helper()
	ctx := context.Background()
	clock := &fixedClock{t: time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: clock.t}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_1", AccountID: acc.ID, Kind: ledger.Grant, Amount: credits, CreatedAt: clock.t}); err != nil {
		t.Fatal(err)
	}
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k := apikey.Key{ID: "key_1", AccountID: acc.ID, Name: "k", Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret), Scopes: scopes, CreatedAt: clock.t}
	if err := p.CreateKey(ctx, k, 10); err != nil {
		t.Fatal(err)
	}
	rig := &meterRig{p: p, steps: &steps{}, secret: secret, route: indiaPrices(t), held: true}
	rig.keys = &stepKeys{Platform: p, steps: rig.steps}
	rig.limiter = platform.NewRateLimiter(&stepBuckets{Limits: memory.NewLimits(), steps: rig.steps}, 0.001, burst, clock.now)
	probe := usecase.DatasetProbe{Dataset: dataset.IndiaPrices, Probe: func(context.Context) (bool, error) {
		rig.steps.add("availability")
		return rig.held, nil
	}}
	rig.probe, rig.now = probe, clock.now
	rig.wire(p, time.Second)
	return rig
}

// wire builds the rig's meter, its Idempotency-Keys kept by store, its
// store calls bounded by timeout.
func (r *meterRig) wire(store ports.IdempotencyStore, timeout time.Duration) {
	now := r.now
	metering := platform.NewMetering(r.keys, &stepLedger{Platform: r.p, steps: r.steps}, now)
	r.meter = platform.NewMeter(platform.MeterDeps{
		Metering:     metering,
		Idempotency:  platform.NewIdempotency(store, metering, now),
		Limiter:      r.limiter,
		Availability: usecase.NewAvailability([]usecase.DatasetProbe{r.probe}),
		StoreTimeout: timeout,
		Report:       func(i platform.Incident) { r.incident = append(r.incident, i) },
	})
}

// handler is what a call's handler does: fail at prepare or serve, or
// write its body, failing after it if bodyErr is set.
type handler struct {
	prepareErr, serveErr error
	body                 string
	bodyErr              error
	panics               bool
	keyed                *platform.Keyed
	acceptErr            error
}

// call makes a call of the rig's route with the credential, its body
// delivered to out, the steps of the handler recorded.
func (r *meterRig) call(credential string, h handler, out *bytes.Buffer) (platform.Outcome, error) {
	c := platform.Call{Credential: credential, Dataset: dataset.IndiaPrices, Route: r.route, RequestID: "req_1"}
	c.Prepare = func(ctx context.Context) (platform.Prepared, error) {
		r.steps.add("prepare")
		if k, ok := platform.KeyFrom(ctx); !ok || k.ID != "key_1" {
			return platform.Prepared{}, errors.New("prepared without the key")
		}
		return platform.Prepared{Serve: h.serve(r.steps), Keyed: h.keyed}, h.prepareErr
	}
	c.Deliver = func(platform.Outcome, platform.Result) io.Writer {
		r.steps.add("deliver")
		return out
	}
	if h.acceptErr != nil {
		c.Accept = func() error { return h.acceptErr }
	}
	return r.meter.Call(context.Background(), c)
}

func (h handler) serve(s *steps) platform.Serve {
	return func(ctx context.Context) (platform.Result, error) {
		s.add("serve")
		if _, ok := platform.KeyFrom(ctx); !ok {
			return platform.Result{}, errors.New("served without the key")
		}
		if h.panics {
			panic("handler bug")
		}
		return platform.Result{MediaType: "application/json", Body: func(_ context.Context, w io.Writer) error {
			if _, err := io.WriteString(w, h.body); err != nil {
				return err
			}
			return h.bodyErr
		}}, h.serveErr
	}
}

func (r *meterRig) balance(t *testing.T) int64 {
	t.Helper()
	bal, err := r.p.Balance(context.Background(), "acc_1")
	if err != nil {
		t.Fatal(err)
	}
	return bal
}

// TestMeterChecksInOrder: each step of a metered call, failing, answers
// its own error and runs no later step: 401, 503 of the key store, 403,
// 429, 503 of the dataset, 400/422 of Prepare, 402 of the debit; a failure
// after the debit and before the body's first byte is refunded, one after
// it stays charged; a refusal before the debit tells it cost nothing.
func TestMeterChecksInOrder(t *testing.T) {
	const credits = 10
	checks := []string{"authenticate", "limit", "availability", "prepare"}
	cases := []struct {
		name      string
		setup     func(*meterRig)
		credit    string // "" for the rig's secret
		h         handler
		want      func(error) bool
		steps     []string
		cost      platform.Cost
		balance   int64
		body      string
		refunded  bool
		incidents int
	}{
		{name: "malformed key 401", credit: "qk_live_malformed", want: is(platform.ErrUnauthorized), steps: []string{}, balance: credits},
		{name: "unknown key 401", setup: unknownKey, want: is(platform.ErrUnauthorized), steps: checks[:1], balance: credits},
		{name: "key store down 503", setup: func(r *meterRig) { r.keys.err = ports.ErrUnavailable }, want: is(ports.ErrUnavailable),
			steps: checks[:1], cost: platform.Cost{Told: true}, balance: credits},
		{name: "missing permission 403", setup: func(r *meterRig) { r.route.Permissions = []scope.Permission{scope.USRead} },
			want: is(platform.ErrForbidden), steps: checks[:1], cost: platform.Cost{Told: true}, balance: credits},
		// The limiter refuses from the tokens it leased, with no round trip.
		{name: "rate limited 429", setup: exhaust, want: as[*platform.RateLimitError], steps: checks[:1], cost: platform.Cost{Told: true}, balance: credits},
		{name: "dataset unavailable 503", setup: func(r *meterRig) { r.held = false }, want: as[*usecase.UnavailableError],
			steps: checks[:3], cost: platform.Cost{Told: true}, balance: credits},
		{name: "invalid request 422", h: handler{prepareErr: usecase.ErrValidation}, want: is(usecase.ErrValidation),
			steps: checks, cost: platform.Cost{Told: true}, balance: credits},
		{name: "insufficient credits 402", setup: func(r *meterRig) { r.route.Cost = credits + 1 }, want: is(ports.ErrInsufficientCredits),
			steps: append(checks, "debit"), cost: platform.Cost{Told: true, Balance: credits, BalanceKnown: true}, balance: credits},
		{name: "serve fails, refunded", h: handler{serveErr: ports.ErrUnavailable}, want: is(ports.ErrUnavailable),
			steps: append(checks, "debit", "serve", "refund"), cost: platform.Cost{Told: true, Balance: credits, BalanceKnown: true}, balance: credits, refunded: true},
		{name: "serve panics, refunded", h: handler{panics: true}, want: as[*platform.PanicError],
			steps: append(checks, "debit", "serve", "refund"), cost: platform.Cost{Told: true, Balance: credits, BalanceKnown: true}, balance: credits, refunded: true, incidents: 1},
		{name: "body fails before its first byte, refunded", h: handler{bodyErr: ports.ErrUnavailable}, want: is(ports.ErrUnavailable),
			steps: append(checks, "debit", "serve", "deliver", "refund"), cost: platform.Cost{Told: true, Balance: credits, BalanceKnown: true}, balance: credits, refunded: true},
		{name: "body not carried, refunded", h: handler{body: "{}", acceptErr: errors.New("too large")}, want: func(err error) bool { return err != nil && err.Error() == "too large" },
			steps: append(checks, "debit", "serve", "deliver", "refund"), cost: platform.Cost{Told: true, Balance: credits, BalanceKnown: true}, balance: credits, body: "{}", refunded: true},
		{name: "body fails after its first byte, charged", h: handler{body: `{"rows":[`, bodyErr: ports.ErrUnavailable}, want: is(platform.ErrTruncated),
			steps: append(checks, "debit", "serve", "deliver"), cost: platform.Cost{Told: true, Credits: 1, Balance: credits - 1, BalanceKnown: true}, balance: credits - 1, body: `{"rows":[`},
		{name: "served", h: handler{body: `{"rows":[]}`}, want: func(err error) bool { return err == nil },
			steps: append(checks, "debit", "serve", "deliver"), cost: platform.Cost{Told: true, Credits: 1, Balance: credits - 1, BalanceKnown: true}, balance: credits - 1, body: `{"rows":[]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rig := newMeterRig(t, credits, 5, "india:read")
			if tc.setup != nil {
				tc.setup(rig)
			}
			*rig.steps = steps{}
			credential := rig.secret
			if tc.credit != "" {
				credential = tc.credit
			}
			var out bytes.Buffer
			o, err := rig.call(credential, tc.h, &out)
			if !tc.want(err) {
				t.Fatalf("error %v", err)
			}
			if !slices.Equal(*rig.steps, tc.steps) {
				t.Errorf("steps %v, want %v", *rig.steps, tc.steps)
			}
			if o.Cost != tc.cost || (o.Refunded != 0) != tc.refunded || rig.balance(t) != tc.balance || out.String() != tc.body {
				t.Errorf("cost %+v refunded %d balance %d body %q; want %+v, refunded %v, %d, %q", o.Cost, o.Refunded, rig.balance(t), out.String(), tc.cost, tc.refunded, tc.balance, tc.body)
			}
			// From the rate limit on, the outcome says what the limit holds.
			if limited := o.Quota != nil; limited != (tc.name == "rate limited 429" || slices.Contains(tc.steps, "limit")) {
				t.Errorf("quota %+v", o.Quota)
			}
			if len(rig.incident) != tc.incidents {
				t.Errorf("incidents %+v, want %d", rig.incident, tc.incidents)
			}
		})
	}
}

// exhaust spends the rig's rate limit.
func exhaust(r *meterRig) {
	for {
		if _, err := r.limiter.Allow(context.Background(), "key_1"); err != nil {
			return
		}
	}
}

// unknownKey makes the rig's credential a well-formed key no store holds.
func unknownKey(r *meterRig) {
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		panic(err)
	}
	r.secret = secret
}

func is(target error) func(error) bool { return func(err error) bool { return errors.Is(err, target) } }

func as[T error](err error) bool {
	var target T
	return errors.As(err, &target)
}

// keyed is a request under the Idempotency-Key key with the body body.
func keyed(t *testing.T, key, body string) *platform.Keyed {
	t.Helper()
	digest, err := idempotency.RequestDigest("GET /india/prices", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return &platform.Keyed{Key: key, Digest: digest}
}

// TestMeterIdempotencyKey: a keyed call is charged once and its body
// kept; the same request again replays the body at no cost, serving
// nothing; another request under the key is refused; a call that fails, or
// whose body is not carried, is refunded and releases its key, so that the
// retry is served and charged.
func TestMeterIdempotencyKey(t *testing.T) {
	rig := newMeterRig(t, 10, 100, "india:read")
	served := func(key, req, body string) handler { return handler{body: body, keyed: keyed(t, key, req)} }
	calls := []struct {
		name     string
		h        handler
		want     func(error) bool
		body     string
		replayed bool
		balance  int64
		serves   bool
	}{
		{name: "first", h: served("k1", "{}", `{"rows":[1]}`), want: is(nil), body: `{"rows":[1]}`, balance: 9, serves: true},
		{name: "replay", h: served("k1", "{}", `{"rows":[2]}`), want: is(nil), body: `{"rows":[1]}`, replayed: true, balance: 9},
		{name: "another request under the key", h: served("k1", `{"a":1}`, "{}"), want: is(idempotency.ErrKeyReused), balance: 9},
		{name: "failed, refunded", h: handler{serveErr: ports.ErrUnavailable, keyed: keyed(t, "k2", "{}")}, want: is(ports.ErrUnavailable), balance: 9, serves: true},
		{name: "its retry", h: served("k2", "{}", `{"rows":[3]}`), want: is(nil), body: `{"rows":[3]}`, balance: 8, serves: true},
		{name: "not carried, refunded", h: handler{body: "{}", keyed: keyed(t, "k3", "{}"), acceptErr: errors.New("too large")}, want: func(err error) bool { return err != nil },
			body: "{}", balance: 8, serves: true},
		{name: "its retry", h: served("k3", "{}", `{"rows":[4]}`), want: is(nil), body: `{"rows":[4]}`, balance: 7, serves: true},
	}
	for _, st := range calls {
		*rig.steps = steps{}
		var out bytes.Buffer
		o, err := rig.call(rig.secret, st.h, &out)
		if !st.want(err) {
			t.Fatalf("%s: error %v", st.name, err)
		}
		if out.String() != st.body || o.Replayed != st.replayed || rig.balance(t) != st.balance || slices.Contains(*rig.steps, "serve") != st.serves {
			t.Errorf("%s: body %q replayed %v balance %d steps %v; want %q, %v, %d, serving %v", st.name, out.String(), o.Replayed, rig.balance(t), *rig.steps, st.body, st.replayed, st.balance, st.serves)
		}
		if st.replayed && (o.Cost != platform.Cost{Told: true} || slices.Contains(*rig.steps, "debit")) {
			t.Errorf("%s: a replay cost %+v with steps %v; want nothing, no debit", st.name, o.Cost, *rig.steps)
		}
	}
}

// frozenKeeps is an Idempotency-Key store that claims, then stops
// answering, as a frozen primary does: keeping or releasing a key waits
// until its caller gives up.
type frozenKeeps struct{ ports.IdempotencyStore }

func (frozenKeeps) Complete(ctx context.Context, _ idempotency.Claim, _ idempotency.Response, _ io.Reader) error {
	<-ctx.Done()
	return fmt.Errorf("frozen: complete: %w", ports.ErrUnavailable)
}

func (frozenKeeps) Release(ctx context.Context, _ idempotency.Claim) error {
	<-ctx.Done()
	return fmt.Errorf("frozen: release: %w", ports.ErrUnavailable)
}

// A keyed call served while the store freezes is answered: keeping its
// response for replay, and releasing its key, wait at most their bounds.
func TestMeterKeyedCallOutlastsAFrozenStore(t *testing.T) {
	rig := newMeterRig(t, 10, 100, "india:read")
	rig.wire(frozenKeeps{rig.p}, 50*time.Millisecond)
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		_, err := rig.call(rig.secret, handler{body: `{"rows":[1]}`, keyed: keyed(t, "k1", "{}")}, &out)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || out.String() != `{"rows":[1]}` || rig.balance(t) != 9 {
			t.Fatalf("call = %v, body %q, balance %d; want served and charged once", err, out.String(), rig.balance(t))
		}
	case <-time.After(time.Minute):
		t.Fatal("a keyed call waited for a frozen store to keep its response")
	}
}
