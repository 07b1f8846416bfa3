package http

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/idempotency"
)

// Serve answers a validated, charged request with a Response, or an error,
// which is refunded.
type Serve = platform.Serve

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

// meteredRoute is a data route of the catalog with its handler.
type meteredRoute struct {
	id dataset.ID
	rt dataset.Route
	h  DataHandler
}

// metered serves a data route through the Meter (platform.Meter.Call),
// which runs the checks in the interface's order: 401, 403, 429, 503,
// 400/422, 402, then the handler, and refunds any failure after the
// debit. Here the request is read, the call built, and the outcome
// written: a credential header sent twice is 400 before them all.
func (s *Server) metered(mr meteredRoute) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		if err := oneCredential(r.Header); err != nil {
			writeError(w, r, err)
			return
		}
		o, body, err := s.call(w, r, p, mr, platform.Call{Credential: r.Header.Get("X-API-KEY")})
		if s.answer(w, r, o, body, err) {
			// The client gets what was written, then no proper end
			// (HTTP/1.1's last chunk, HTTP/2's END_STREAM): a truncated
			// body, never a complete-looking one.
			_ = http.NewResponseController(w).Flush()
			panic(http.ErrAbortHandler)
		}
	}
}

// call runs the request r of the route mr through the Meter, its body
// delivered to w; c holds the credential. It returns the body's writer
// once one was opened.
func (s *Server) call(w http.ResponseWriter, r *http.Request, p httprouter.Params, mr meteredRoute, c platform.Call) (platform.Outcome, *bodyWriter, error) {
	var body *bodyWriter
	c.Dataset, c.Route, c.RequestID = mr.id, mr.rt, recordOf(r).id
	c.Prepare = func(ctx context.Context) (platform.Prepared, error) {
		return mr.prepare(r.WithContext(ctx), p)
	}
	c.Deliver = func(o platform.Outcome, res Response) io.Writer {
		outcomeHeaders(w, o)
		body = &bodyWriter{w: w, resp: res}
		return body
	}
	if accept := c.Accept; accept != nil {
		// What is asked to accept a body is its whole answer, an empty
		// body's status and headers included.
		c.Accept = func() error {
			body.commit()
			return accept()
		}
	}
	o, err := s.meter.Call(r.Context(), c)
	if o.Key.ID != "" {
		recordOf(r).keyID = o.Key.ID
	}
	s.metrics.debited.Add(float64(o.Debited))
	s.metrics.refunded.Add(float64(o.Refunded))
	return o, body, err
}

// prepare validates r: on an idempotent route sent an Idempotency-Key it
// also says which keyed request this is.
func (mr meteredRoute) prepare(r *http.Request, p httprouter.Params) (platform.Prepared, error) {
	if !mr.h.Idempotent || len(r.Header.Values(idempotencyHeader)) == 0 {
		serve, err := mr.h.Prepare(r, p)
		return platform.Prepared{Serve: serve}, err
	}
	return prepareKeyed(r, p, mr.rt.Method+" "+mr.rt.Path, mr.h.Prepare)
}

// answer writes what a metered call came to: its error with the headers
// its outcome holds, or the status and headers of an empty body. A body
// that failed after its first byte is logged with the request id; answer
// reports it, for the caller to cut the answer short.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, o platform.Outcome, body *bodyWriter, err error) (truncated bool) {
	switch {
	case errors.Is(err, platform.ErrTruncated):
		recordOf(r).err = err
		if o.Replayed {
			s.log.Error("replayed body failed after its first byte; it is cut short", zap.String("request_id", recordOf(r).id), zap.Error(err))
			return true
		}
		s.metrics.truncated.Inc()
		s.log.Error("response body failed after its first byte; the request stays charged and the body is cut short",
			zap.String("request_id", recordOf(r).id), zap.Int64("bytes_written", o.Written), zap.Error(err))
		return true
	case err != nil:
		outcomeHeaders(w, o)
		writeError(w, r, err)
	default:
		body.commit() // an empty body is a complete answer
	}
	return false
}

// outcomeHeaders says in w's headers what a call's outcome holds: the rate
// limit once it was asked, what the call cost and the balance after it
// when they are told, and a replay.
func outcomeHeaders(w http.ResponseWriter, o platform.Outcome) {
	h := w.Header()
	if o.Quota != nil {
		quotaHeaders(h, keyPolicy, *o.Quota)
	}
	if o.Replayed {
		h.Set(idempotency.ReplayedHeader, "true")
	}
	if !o.Cost.Told {
		return
	}
	h.Set("X-Credits-Cost", strconv.FormatInt(o.Cost.Credits, 10))
	if o.Cost.BalanceKnown {
		h.Set("X-Credits-Remaining", strconv.FormatInt(o.Cost.Balance, 10))
	} else {
		h.Del("X-Credits-Remaining")
	}
}

// incident logs what a metered call could not do, for an operator.
func (s *Server) incident(i platform.Incident) {
	fields := []zap.Field{zap.String("request_id", i.RequestID)}
	var p *platform.PanicError
	switch {
	case errors.As(i.Err, &p):
		fields = append(fields, zap.Any("panic", p.Value), zap.ByteString("stack", p.Stack))
	case i.Err != nil:
		fields = append(fields, zap.Error(i.Err))
	}
	if i.KeyID != "" {
		fields = append(fields, zap.String("key_id", i.KeyID))
	}
	if i.Debit != "" {
		fields = append(fields, zap.String("debit", i.Debit))
	}
	if i.Warning {
		s.log.Warn(i.Message, fields...)
		return
	}
	s.log.Error(i.Message, fields...)
}
