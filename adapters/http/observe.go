package http

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/quarrydata/quarry/app"
	"go.uber.org/zap"
)

// maxBody bounds every request body.
const maxBody = 1 << 20

// record is what one request accumulates for its log line and metrics.
type record struct {
	id     string
	route  string
	keyID  string
	status int
	err    error
}

type recordKey struct{}

func recordOf(r *http.Request) *record {
	if rec, ok := r.Context().Value(recordKey{}).(*record); ok {
		return rec
	}
	return &record{}
}

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	rec *record
}

func (w *statusWriter) WriteHeader(code int) {
	if w.rec.status == 0 {
		w.rec.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.rec.status == 0 {
		w.rec.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// observe wraps every route: request id, body limit, panic recovery, one
// log line and the request metrics.
func (s *Server) observe(route string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &record{id: "req_" + ulid.Make().String(), route: route}
		w.Header().Set("X-Request-ID", rec.id)
		r = r.WithContext(context.WithValue(r.Context(), recordKey{}, rec))
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		sw := &statusWriter{ResponseWriter: w, rec: rec}
		defer s.finish(sw, r, rec, start)
		next(sw, r)
	}
}

func (s *Server) finish(w *statusWriter, r *http.Request, rec *record, start time.Time) {
	if p := recover(); p != nil {
		s.log.Error("panic", zap.String("request_id", rec.id), zap.Any("panic", p), zap.Stack("stack"))
		if rec.status == 0 {
			writeError(w, r, errPanic)
		}
	}
	latency := time.Since(start)
	s.metrics.observe(r.Method, rec.route, rec.status, latency)
	fields := []zap.Field{
		zap.String("request_id", rec.id), zap.String("method", r.Method), zap.String("route", rec.route),
		zap.Int("status", rec.status), zap.Duration("latency", latency),
	}
	if rec.keyID != "" {
		fields = append(fields, zap.String("key_id", rec.keyID))
	}
	if rec.status == http.StatusInternalServerError && rec.err != nil {
		s.log.Error("request", append(fields, zap.Error(rec.err))...)
		return
	}
	s.log.Info("request", fields...)
}

// writeJSON writes v with the status.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // bodies are JSON for programs, never HTML
	_ = enc.Encode(v)
}

// decodeJSON reads a strict JSON body: unknown fields and trailing data are
// refused, and a body over the limit is a 413.
func decodeJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bodyError(err)
	}
	if dec.More() {
		return invalid("request body must hold one JSON object")
	}
	return nil
}

func bodyError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errPayloadTooLarge
	}
	return invalid("request body is not valid JSON: " + strings.TrimPrefix(err.Error(), "json: "))
}

// invalid is a 400 with the given explanation.
func invalid(msg string) error { return fmt.Errorf("%w: %s", app.ErrInvalidRequest, msg) }

// unprocessable is a 422 with the given explanation.
func unprocessable(msg string) error { return fmt.Errorf("%w: %s", app.ErrValidation, msg) }

// errPanic stands for a recovered panic; its detail goes to the log only.
var errPanic = errors.New("panic while serving the request")
