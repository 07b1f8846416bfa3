package http

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/oklog/ulid/v2"
	"github.com/quarrydata/quarry/app/usecase"
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

// Unwrap lets http.ResponseController reach the connection's writer, to
// flush a streamed body.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

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
		// No browser may guess a type other than the one declared: a CSV,
		// a PDF or an error quoting client input is never run as script.
		w.Header().Set("X-Content-Type-Options", "nosniff")
		r = r.WithContext(context.WithValue(r.Context(), recordKey{}, rec))
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		sw := &statusWriter{ResponseWriter: w, rec: rec}
		defer s.finish(sw, r, rec, start)
		next(sw, r)
	}
}

func (s *Server) finish(w *statusWriter, r *http.Request, rec *record, start time.Time) {
	if p := recover(); p != nil {
		if p == http.ErrAbortHandler {
			// A deliberate abort: log the request, then let the server
			// cut the connection.
			defer panic(p)
		} else {
			s.log.Error("panic", zap.String("request_id", rec.id), zap.Any("panic", p), zap.Stack("stack"))
		}
		if rec.status == 0 {
			writeError(w, r, errPanic)
		}
	}
	latency := time.Since(start)
	s.metrics.observe(r.Method, rec.route, rec.status, latency)
	fields := []zap.Field{
		zap.String("request_id", rec.id), zap.String("method", methodLabel(r.Method)), zap.String("route", rec.route),
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
	_ = encodeJSON(w, v)
}

// encodeJSON writes v as one line of JSON. The whole value is marshalled
// before the first byte is written, so a value that cannot be encoded fails
// with nothing written.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // bodies are JSON for programs, never HTML
	return enc.Encode(v)
}

// decodeJSON reads a strict JSON body into v. Every byte counts toward the
// 1 MiB limit (413), trailing whitespace included. Malformed JSON, invalid
// UTF-8, a duplicate member, trailing data and an unknown field are 400;
// field names match exactly. A value of the wrong type for its field is the
// request failing its schema: 422, naming the field.
func decodeJSON(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return bodyError(err)
	}
	if !utf8.Valid(body) {
		return invalid("request body is not valid UTF-8")
	}
	err = jsonv2.Unmarshal(body, v, jsonv2.RejectUnknownMembers(true))
	var semantic *jsonv2.SemanticError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, jsonv2.ErrUnknownName):
		return invalid(fmt.Sprintf("unknown field %q", fieldOf(err)))
	case errors.As(err, &semantic):
		return unprocessable(fmt.Sprintf("field %q: want a JSON %s, got %s", fieldOf(err), jsonKind(semantic), semantic.JSONKind))
	}
	return invalid("request body is not valid JSON: " + strings.TrimPrefix(err.Error(), "jsontext: "))
}

// fieldOf names the member an unmarshal error is about, as a JSON Pointer
// without its leading slash.
func fieldOf(err error) string {
	var semantic *jsonv2.SemanticError
	if errors.As(err, &semantic) {
		return strings.TrimPrefix(string(semantic.JSONPointer), "/")
	}
	return ""
}

// jsonKind names the JSON type a Go field takes.
func jsonKind(e *jsonv2.SemanticError) string {
	if e.GoType == nil {
		return "value of another type"
	}
	switch k := e.GoType.Kind(); {
	case k == reflect.Pointer && e.GoType.Elem().Kind() == reflect.Int, k == reflect.Int:
		return "integer"
	case k == reflect.String:
		return "string"
	}
	return e.GoType.String()
}

func bodyError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errPayloadTooLarge
	}
	return invalid("request body could not be read")
}

// invalid is a 400 with the given explanation.
func invalid(msg string) error { return fmt.Errorf("%w: %s", usecase.ErrInvalidRequest, msg) }

// unprocessable is a 422 with the given explanation.
func unprocessable(msg string) error { return fmt.Errorf("%w: %s", usecase.ErrValidation, msg) }

// errPanic stands for a recovered panic; its detail goes to the log only.
var errPanic = errors.New("panic while serving the request")
