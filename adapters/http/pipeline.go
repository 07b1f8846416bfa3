package http

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// Serve answers a validated, charged request with a Response, or an error,
// which is refunded.
type Serve func(ctx context.Context) (Response, error)

// Prepare validates a request before it is charged and returns how to serve
// it. Its errors are 400 or 422, or 403 where what the body asks for needs a
// permission the key lacks (an export, a question for Ask), and cost
// nothing.
type Prepare func(r *http.Request, p httprouter.Params) (Serve, error)

// DataHandler serves one data route of the catalog. Datasets contribute
// handlers; the pipeline around them is the same for all.
type DataHandler struct {
	Method  string
	Path    string
	Prepare Prepare
	// Idempotent routes honour the Idempotency-Key header (idempotent.go).
	Idempotent bool
}

// notActivated never runs: a route without a handler has no probe, so the
// availability gate answers 503 before it.
func notActivated(*http.Request, httprouter.Params) (Serve, error) {
	return nil, &usecase.UnavailableError{Status: dataset.StatusFor(false)}
}

// metered runs the checks in the interface's order: 401, 403, 429, 503,
// 400/422, 402, then the handler; a credential header sent twice is 400
// before them all. Only the atomic debit writes to the
// ledger, and any error after it is refunded.
func (s *Server) metered(id dataset.ID, rt dataset.Route, h DataHandler) httprouter.Handle {
	route := rt.Method + " " + rt.Path
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		rec := recordOf(r)
		if err := oneCredential(r.Header); err != nil {
			writeError(w, r, err)
			return
		}
		// The checks before the charge wait for the platform's store at
		// most the store timeout; the dataset's availability and the
		// handler, which may stream, are not bound by it.
		checks, cancel := context.WithTimeout(r.Context(), s.storeTimeout())
		defer cancel()
		key, err := s.d.Metering.Authenticate(checks, r.Header.Get("X-API-KEY"))
		if err != nil {
			if errors.Is(err, ports.ErrUnavailable) {
				// No account is known, as on a 401, but a client counting
				// what it was charged is told that this cost nothing.
				w.Header().Set("X-Credits-Cost", "0")
			}
			writeError(w, r, err)
			return
		}
		rec.keyID = key.ID
		// Handlers whose answer depends on the credential (Ask reads only
		// the datasets the key may read) find it in the context.
		r = r.WithContext(context.WithValue(r.Context(), keyContext{}, key))
		s.touches.Go(func() { s.touch(r.Context(), rec.id, key) })
		serve, keyed, err := s.admit(checks, w, r, p, key, id, rt, h)
		if err != nil {
			// Refused before the charge: it cost nothing, which is known
			// without asking the ledger, and the balance is not read, so
			// that a refusal costs no database round trip (spec-gaps B12).
			w.Header().Set("X-Credits-Cost", "0")
			writeError(w, r, err)
			return
		}
		if keyed != nil {
			s.chargedOnce(w, r, key, route, rt.Cost, serve, *keyed)
			return
		}
		s.charged(w, r, key, route, rt.Cost, serve)
	}
}

// touch records the key's last use off the request's path: it is what the
// console shows, and a platform store that does not answer must not hold
// the request for it.
func (s *Server) touch(ctx context.Context, requestID string, key apikey.Key) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.storeTimeout())
	defer cancel()
	if err := s.d.Metering.Touch(ctx, key); err != nil {
		s.log.Warn("last use of key not recorded", zap.String("request_id", requestID), zap.String("key_id", key.ID), zap.Error(err))
	}
}

type keyContext struct{}

// KeyFrom returns the API key a metered request was authenticated with.
func KeyFrom(ctx context.Context) (apikey.Key, bool) {
	k, ok := ctx.Value(keyContext{}).(apikey.Key)
	return k, ok
}

// admit runs the checks that come before the debit, their store calls on
// ctx, and from the rate limit on says what it holds in w's headers. On an
// idempotent route sent an Idempotency-Key it also says which keyed request
// this is.
func (s *Server) admit(ctx context.Context, w http.ResponseWriter, r *http.Request, p httprouter.Params, key apikey.Key, id dataset.ID, rt dataset.Route, h DataHandler) (Serve, *platform.Keyed, error) {
	if err := s.d.Metering.Authorize(key, rt.Permissions); err != nil {
		return nil, nil, err
	}
	if err := s.limit(ctx, w, keyPolicy, key.ID); err != nil {
		return nil, nil, err
	}
	// Availability reads the dataset's store, whose own client bounds a
	// store that does not answer (QUARRY_MONGO_TIMEOUT); a store that
	// answers slowly, such as a large index read at a first request, is no
	// store that is down.
	if err := s.d.Availability.Require(r.Context(), id); err != nil {
		return nil, nil, err
	}
	if !h.Idempotent || len(r.Header.Values(idempotencyHeader)) == 0 {
		serve, err := h.Prepare(r, p)
		return serve, nil, err
	}
	return prepareKeyed(r, p, rt.Method+" "+rt.Path, h.Prepare)
}

// charged debits, serves, and refunds on error. Money moves on a context
// that survives a client hanging up, so a debit is never left half-done.
func (s *Server) charged(w http.ResponseWriter, r *http.Request, key apikey.Key, route string, cost int64, serve Serve) {
	ctx := context.WithoutCancel(r.Context())
	charge, err := s.d.Metering.Charge(ctx, key, route, recordOf(r).id, cost)
	if err != nil {
		// A key revoked since it was authenticated is a 401, which
		// carries no credit headers. A ledger that did not answer left the
		// request not charged (Metering.Charge settles it so), and its
		// balance is not read from a store that is not answering.
		switch {
		case errors.Is(err, ports.ErrUnavailable):
			w.Header().Set("X-Credits-Cost", "0")
		case !errors.Is(err, platform.ErrUnauthorized):
			s.creditHeaders(w, r, key.AccountID, 0)
		}
		writeError(w, r, err)
		return
	}
	s.metrics.debited.Add(float64(cost))
	tapCharge(r.Context(), charge, nil)
	if resp, ok := s.serveCharged(w, r, charge, cost, serve); ok {
		s.stream(w, r, charge, cost, resp)
	}
}

// serveCharged runs a charged request's handler, refunding it when it
// fails; it reports whether there is a response to stream.
func (s *Server) serveCharged(w http.ResponseWriter, r *http.Request, charge platform.Charge, cost int64, serve Serve) (Response, bool) {
	var resp Response
	err := s.recovered(r, func() (err error) {
		resp, err = serve(r.Context())
		return err
	})
	if err != nil {
		s.refund(context.WithoutCancel(r.Context()), w, r, charge, cost)
		writeError(w, r, err)
		return Response{}, false
	}
	return resp, true
}

// stream writes a charged request's response. The request stays charged
// once the first byte of its body is written; a body failing before that is
// refunded and answered with its error. One failing after it is logged with
// the request id, and the connection is aborted without the body's proper
// end (HTTP/1.1's last chunk, HTTP/2's END_STREAM), so that the client sees
// a truncated body, never a complete-looking one. It reports whether the
// whole body was written.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, charge platform.Charge, cost int64, resp Response) bool {
	setCredits(w, cost, charge.Balance)
	body := &bodyWriter{w: w, resp: resp}
	err := s.recovered(r, func() error { return resp.Body(r.Context(), body) })
	switch {
	case err == nil && !body.started():
		body.commit() // an empty body is a complete answer
		return true
	case err == nil:
		return true
	case !body.started():
		s.refund(context.WithoutCancel(r.Context()), w, r, charge, cost)
		writeError(w, r, err)
		return false
	}
	recordOf(r).err = err
	s.metrics.truncated.Inc()
	s.log.Error("response body failed after its first byte; the request stays charged and the body is cut short",
		zap.String("request_id", recordOf(r).id), zap.Int64("bytes_written", body.written), zap.Error(err))
	_ = http.NewResponseController(w).Flush() // the client gets what was written, then no proper end
	panic(http.ErrAbortHandler)
}

// refund reverses the charge of a failed request and reports what the
// request finally cost. A refund that fails leaves the request charged, said
// in X-Credits-Cost; one the store did not confirm is written again in the
// background until kept, so the request costs 0, and the balance after it is
// not known yet. Failures are logged for an operator.
func (s *Server) refund(ctx context.Context, w http.ResponseWriter, r *http.Request, charge platform.Charge, cost int64) {
	bal, err := s.d.Metering.Refund(ctx, charge)
	switch {
	case err == nil:
		s.metrics.refunded.Add(float64(cost))
		setCredits(w, 0, bal)
		return
	case errors.Is(err, platform.ErrRefundPending):
		s.metrics.refunded.Add(float64(cost))
		w.Header().Set("X-Credits-Cost", "0")
		w.Header().Del("X-Credits-Remaining")
	default:
		setCredits(w, cost, charge.Balance)
	}
	s.log.Error("refund failed", zap.String("request_id", recordOf(r).id), zap.String("debit", charge.Entry.ID), zap.Error(err))
}

// creditHeaders reports the balance on a request the ledger refused (402),
// reading it again: the refusal does not carry it.
func (s *Server) creditHeaders(w http.ResponseWriter, r *http.Request, accountID string, cost int64) {
	bal, err := s.d.Metering.Balance(context.WithoutCancel(r.Context()), accountID)
	if err != nil && !errors.Is(err, ports.ErrNotFound) {
		s.log.Warn("balance for headers", zap.String("request_id", recordOf(r).id), zap.Error(err))
		return
	}
	setCredits(w, cost, bal)
}

func setCredits(w http.ResponseWriter, cost, balance int64) {
	w.Header().Set("X-Credits-Cost", strconv.FormatInt(cost, 10))
	w.Header().Set("X-Credits-Remaining", strconv.FormatInt(balance, 10))
}

// recovered runs fn, turning a panic into an error, so that a charged
// request whose handler panics is refunded like any other failure. The
// deliberate abort of a truncated body is not a failure to recover from.
func (s *Server) recovered(r *http.Request, fn func() error) (err error) {
	defer func() {
		p := recover()
		switch {
		case p == nil:
		case p == http.ErrAbortHandler:
			panic(p)
		default:
			s.log.Error("panic", zap.String("request_id", recordOf(r).id), zap.Any("panic", p), zap.Stack("stack"))
			err = errPanic
		}
	}()
	return fn()
}
