package platform

// Metering as a use case: Meter.Call runs one metered request of the
// catalog from its credential to its delivered body, the same for every
// adapter that serves the catalog (the HTTP routes, the MCP tools). The
// checks come in the interface's order, each refusal a typed error that
// the adapter's one error mapping turns into its status: 401
// (ErrUnauthorized), 403 (ErrForbidden), 429 (*RateLimitError), 503
// (*usecase.UnavailableError), then the request's own 400 or 422 from
// Prepare, then 402 (ports.ErrInsufficientCredits) from the atomic debit.
// Only the debit writes to the ledger, and any failure after it, before the
// body's first byte, is refunded.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// Result is what a charged call's handler answers: a status, a media
// type, headers of its own, and a body written as a stream.
type Result struct {
	// Status is a 2xx status; zero means 200.
	Status int
	// MediaType is the Content-Type, parameters included
	// ("text/csv; charset=utf-8").
	MediaType string
	// Header holds headers of the result's own, such as
	// Content-Disposition; the adapter adds the credit and request headers.
	Header map[string][]string
	// Body writes the body. Its first byte commits the answer: an error
	// before it is refunded and answered as any error, an error after it
	// leaves the call charged and the body visibly truncated.
	Body func(ctx context.Context, w io.Writer) error
}

// Serve answers a validated, charged call with a Result, or an error,
// which is refunded.
type Serve func(ctx context.Context) (Result, error)

// Prepared is a validated call: how to serve it and, for one sent with an
// Idempotency-Key on a route that honours it, which keyed request it is.
type Prepared struct {
	Serve Serve
	Keyed *Keyed
}

// Call is one metered request of a catalog operation.
type Call struct {
	// Credential is the raw API key the request carries.
	Credential string
	// Key, when set, is the key the adapter already authenticated for this
	// very request (an MCP tool call, whose POST was): Credential is not
	// read and the key is not looked up again.
	Key *apikey.Key
	// Dataset and Route are the catalog operation called.
	Dataset dataset.ID
	Route   dataset.Route
	// RequestID names the request in the ledger.
	RequestID string
	// Prepare validates the request for the admitted key, which ctx
	// carries (KeyFrom), and says how to serve it. Its errors (400, 422,
	// or 403 where what the request asks for needs a permission the key
	// lacks) cost nothing.
	Prepare func(ctx context.Context) (Prepared, error)
	// Deliver opens the writer of the body of r, a call whose cost and
	// quota o says. Its first byte commits the answer.
	Deliver func(o Outcome, r Result) io.Writer
	// Accept, when set, is asked once a body is delivered whether the
	// adapter can carry it; its error is refunded as a failed call (and the
	// Idempotency-Key released) and returned.
	Accept func() error
}

// Outcome is what a call came to. It is set with an error too: it says
// what the call was told it cost and what the rate limit holds, for the
// answer's headers.
type Outcome struct {
	// Key is the authenticated key; zero before authentication.
	Key apikey.Key
	// Quota is what the key's rate limit holds, once it was asked.
	Quota *Quota
	// Cost is what the call is told it cost.
	Cost Cost
	// Replayed says the body is a kept response replayed for an
	// Idempotency-Key, at no cost.
	Replayed bool
	// Written is the number of body bytes delivered.
	Written int64
	// Debited and Refunded are the credits the call moved on the ledger.
	Debited, Refunded int64
}

// Cost is what a call is told it cost and the balance after it.
type Cost struct {
	// Told says whether any figure is told. None is for a call refused as
	// unauthorized, nor for a keyed debit whose outcome the ledger lost.
	Told    bool
	Credits int64
	// Balance is the balance after the call, when BalanceKnown: a refusal
	// before the debit does not read it (spec-gaps B12), and a refund still
	// being written leaves it unknown.
	Balance      int64
	BalanceKnown bool
}

// ErrTruncated: the body failed after its first byte. The call stays
// charged; the adapter cuts the answer short, so that the client sees a
// truncated body, never a complete-looking one.
var ErrTruncated = errors.New("the body failed after its first byte")

// PanicError is a panic of a handler, recovered so that its call is
// refunded like any other failure. Its detail is for the log only.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return "panic while serving the request" }

// Incident is something a call could not do that does not change its
// answer but that an operator should know of: a refund that failed, a key
// left claimed, a last use not recorded, a recovered panic.
type Incident struct {
	RequestID string
	Message   string
	Err       error
	// KeyID and Debit name the key or the debit concerned, if any.
	KeyID, Debit string
	// Warning marks an incident that needs no operator's action.
	Warning bool
}

// MeterDeps are the use cases a Meter runs a call through.
type MeterDeps struct {
	Metering     *Metering
	Idempotency  *Idempotency
	Limiter      *RateLimiter
	Availability *usecase.Availability
	// StoreTimeout bounds the checks before the debit; zero is
	// DefaultStoreTimeout.
	StoreTimeout time.Duration
	// Report receives the incidents.
	Report func(Incident)
}

// Meter runs metered calls.
type Meter struct {
	d MeterDeps
	// touches are the key last-use writes in flight, which Drain waits for.
	touches sync.WaitGroup
}

// NewMeter wires the use case.
func NewMeter(d MeterDeps) *Meter {
	if d.StoreTimeout == 0 {
		d.StoreTimeout = DefaultStoreTimeout
	}
	return &Meter{d: d}
}

// Call runs c: authenticate, authorize, rate limit, availability, prepare,
// charge (or claim an Idempotency-Key, or replay its kept response), serve,
// deliver, refunding a failure before the body's first byte.
func (m *Meter) Call(ctx context.Context, c Call) (Outcome, error) {
	var o Outcome
	p, err := m.admit(ctx, c, &o)
	switch {
	case err != nil:
		return o, err
	case p.Keyed != nil:
		return m.chargedOnce(WithKey(ctx, o.Key), c, p, o)
	}
	return m.charged(WithKey(ctx, o.Key), c, p.Serve, o)
}

type keyContext struct{}

// WithKey is ctx carrying the key a call was authenticated with: from the
// checks after authentication on, a call's context carries it, so that a
// handler whose answer depends on the credential (Ask reads only the
// datasets the key may read) finds it.
func WithKey(ctx context.Context, k apikey.Key) context.Context {
	return context.WithValue(ctx, keyContext{}, k)
}

// KeyFrom returns the key ctx carries (WithKey).
func KeyFrom(ctx context.Context) (apikey.Key, bool) {
	k, ok := ctx.Value(keyContext{}).(apikey.Key)
	return k, ok
}

// admit runs the checks before the debit. Those reading the platform's
// store wait for it at most the store timeout; the dataset's availability
// and Prepare are not bound by it.
func (m *Meter) admit(ctx context.Context, c Call, o *Outcome) (Prepared, error) {
	checks, cancel := context.WithTimeout(ctx, m.d.StoreTimeout)
	defer cancel()
	key, err := m.authenticate(checks, c)
	if err != nil {
		// No account is known, as on a 401, but a client counting what
		// it was charged is told that a store not answering cost nothing.
		o.Cost.Told = errors.Is(err, ports.ErrUnavailable)
		return Prepared{}, err
	}
	o.Key = key
	m.touch(ctx, c.RequestID, key)
	p, err := m.check(WithKey(ctx, key), checks, c, o)
	if err != nil {
		// Refused before the charge: it cost nothing, which is known
		// without asking the ledger (spec-gaps B12).
		o.Cost.Told = true
	}
	return p, err
}

// touch records the key's last use, when it is due, beside the call
// rather than before it: it is what the console shows, and a store that
// does not answer must not hold the call for it.
func (m *Meter) touch(ctx context.Context, requestID string, key apikey.Key) {
	if !m.d.Metering.touchDue(key) {
		return
	}
	m.touches.Go(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.d.StoreTimeout)
		defer cancel()
		if err := m.d.Metering.recordUse(ctx, key); err != nil {
			m.report(Incident{RequestID: requestID, Message: "last use of key not recorded", Err: err, KeyID: key.ID, Warning: true})
		}
	})
}

// Drain waits for the key last-use writes in flight; the server's stop
// calls it once no request runs, before the stores close.
func (m *Meter) Drain() { m.touches.Wait() }

// authenticate returns the call's key: the one the adapter authenticated,
// or the live key behind its credential.
func (m *Meter) authenticate(ctx context.Context, c Call) (apikey.Key, error) {
	if c.Key != nil {
		return *c.Key, nil
	}
	return m.d.Metering.Authenticate(ctx, c.Credential)
}

// check runs the checks after authentication, in order, and prepares the
// call; from the rate limit on, o says what the limit holds.
func (m *Meter) check(ctx, checks context.Context, c Call, o *Outcome) (Prepared, error) {
	if err := m.d.Metering.Authorize(o.Key, c.Route.Permissions); err != nil {
		return Prepared{}, err
	}
	q, err := m.d.Limiter.Allow(checks, o.Key.ID)
	var rl *RateLimitError
	switch {
	case errors.As(err, &rl):
		o.Quota = rl.Quota
	case err == nil:
		o.Quota = &q
	}
	if err != nil {
		return Prepared{}, err
	}
	// Availability reads the dataset's store, whose own client bounds a
	// store that does not answer; one answering slowly is no store down.
	if err := m.d.Availability.Require(ctx, c.Dataset); err != nil {
		return Prepared{}, err
	}
	return c.Prepare(ctx)
}

// charged debits, serves and delivers, refunding a failure. Money moves
// on a context that survives a client hanging up, so that a debit is never
// left half-done.
func (m *Meter) charged(ctx context.Context, c Call, serve Serve, o Outcome) (Outcome, error) {
	money := context.WithoutCancel(ctx)
	charge, err := m.d.Metering.Charge(money, o.Key, routeName(c.Route), c.RequestID, c.Route.Cost)
	if err != nil {
		// A key revoked since it was authenticated is a 401, which tells
		// no figure. A ledger that did not answer left the call not
		// charged (Charge settles it so), and its balance is not read
		// from a store that is not answering.
		switch {
		case errors.Is(err, ports.ErrUnavailable):
			o.Cost = Cost{Told: true}
		case !errors.Is(err, ErrUnauthorized):
			o.Cost = m.balance(money, c, o.Key.AccountID)
		}
		return o, err
	}
	o, _, err = m.served(ctx, c, charge, serve, o, nil)
	return o, err
}

// served serves a charged call and delivers its body, a copy of it to
// spool if one is given, refunding a failure before the body's first byte.
func (m *Meter) served(ctx context.Context, c Call, charge Charge, serve Serve, o Outcome, spool io.Writer) (Outcome, Result, error) {
	o.Debited = c.Route.Cost
	o.Cost = Cost{Told: true, Credits: c.Route.Cost, Balance: charge.Balance, BalanceKnown: true}
	var res Result
	err := m.recovered(c, func() (err error) {
		res, err = serve(ctx)
		return err
	})
	if err != nil {
		return m.refunded(ctx, c, charge, o), res, err
	}
	w := &counter{w: c.Deliver(o, res)}
	var sink io.Writer = w
	if spool != nil {
		sink = io.MultiWriter(w, spool)
	}
	err = m.recovered(c, func() error { return res.Body(ctx, sink) })
	o.Written = w.n
	switch {
	case err != nil && w.n > 0:
		return o, res, fmt.Errorf("%w: %w", ErrTruncated, err)
	case err == nil && c.Accept != nil:
		err = c.Accept()
	}
	if err != nil {
		return m.refunded(ctx, c, charge, o), res, err
	}
	return o, res, nil
}

// refunded reverses the charge of a call that failed and says what it
// finally cost. A refund that fails leaves the call charged; one the store
// did not confirm is written again in the background until kept, so the
// call costs nothing, and the balance after it is not known yet.
func (m *Meter) refunded(ctx context.Context, c Call, charge Charge, o Outcome) Outcome {
	bal, err := m.d.Metering.Refund(context.WithoutCancel(ctx), charge)
	switch {
	case err == nil:
		o.Refunded = c.Route.Cost
		o.Cost = Cost{Told: true, Balance: bal, BalanceKnown: true}
		return o
	case errors.Is(err, ErrRefundPending):
		o.Refunded = c.Route.Cost
		o.Cost = Cost{Told: true}
	}
	m.report(Incident{RequestID: c.RequestID, Message: "refund failed", Err: err, Debit: charge.Entry.ID})
	return o
}

// balance is what a call the ledger refused (402) is told: it cost
// nothing, and the balance read again, the refusal not carrying it. A
// balance that cannot be read tells no figure.
func (m *Meter) balance(ctx context.Context, c Call, accountID string) Cost {
	bal, err := m.d.Metering.Balance(ctx, accountID)
	if err != nil && !errors.Is(err, ports.ErrNotFound) {
		m.report(Incident{RequestID: c.RequestID, Message: "balance for headers", Err: err, Warning: true})
		return Cost{}
	}
	return Cost{Told: true, Balance: bal, BalanceKnown: true}
}

// recovered runs fn, turning a panic into a *PanicError, so that a charged
// call whose handler panics is refunded like any other failure.
func (m *Meter) recovered(c Call, fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Value: p, Stack: debug.Stack()}
			m.report(Incident{RequestID: c.RequestID, Message: "panic", Err: err})
		}
	}()
	return fn()
}

// report hands i to the adapter, if it listens.
func (m *Meter) report(i Incident) {
	if m.d.Report != nil {
		m.d.Report(i)
	}
}

// routeName is a route as the ledger names it: "GET /india/prices".
func routeName(rt dataset.Route) string { return rt.Method + " " + rt.Path }

// counter passes writes on and counts the bytes written.
type counter struct {
	w io.Writer
	n int64
}

// Write implements io.Writer.
func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
