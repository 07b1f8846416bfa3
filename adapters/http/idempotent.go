package http

// Requests sent with an Idempotency-Key (domain/idempotency). The route's
// Prepare validates the body as for any request; the key and the request's
// digest are checked next, all before any debit. The claim is taken in the
// debit's own transaction; the response is streamed to the client and, at
// the same time, to a spool file with its digest; once the body is complete
// it is kept for replay. A request that fails is refunded and releases its
// key.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"

	"github.com/julienschmidt/httprouter"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/ports"
)

// idempotencyHeader is the request header, as the IETF draft names it.
const idempotencyHeader = "Idempotency-Key"

// prepareKeyed validates a keyed request: the body as Prepare does, then
// the key's syntax, then the request's digest over the body Prepare read.
func prepareKeyed(r *http.Request, p httprouter.Params, route string, prepare Prepare) (Serve, *platform.Keyed, error) {
	body, readErr := io.ReadAll(r.Body)
	// Prepare reads the same bytes, and the same read error, so a body too
	// large is still its 413.
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{readErr}))
	serve, err := prepare(r, p)
	if err != nil {
		return nil, nil, err
	}
	values := r.Header.Values(idempotencyHeader)
	if len(values) > 1 {
		return nil, nil, invalid("Idempotency-Key is given more than once")
	}
	key, err := idempotency.ParseKey(values[0])
	if err != nil {
		return nil, nil, invalid(err.Error())
	}
	digest, err := idempotency.RequestDigest(route, body)
	if err != nil {
		return nil, nil, invalid(err.Error())
	}
	return serve, &platform.Keyed{Key: key, Digest: digest}, nil
}

// errReader answers its error, or EOF.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// chargedOnce is charged for a keyed request: it replays the key's kept
// response, or answers the key's refusal, or charges, serves and keeps the
// response.
func (s *Server) chargedOnce(w http.ResponseWriter, r *http.Request, key apikey.Key, route string, cost int64, serve Serve, keyed platform.Keyed) {
	ctx := context.WithoutCancel(r.Context())
	once, err := s.d.Idempotency.Begin(ctx, key, route, recordOf(r).id, cost, keyed)
	switch {
	case errors.Is(err, ports.ErrInsufficientCredits):
		s.creditHeaders(w, r, key.AccountID, 0)
		writeError(w, r, err)
		return
	case err != nil:
		// A claim whose outcome the ledger lost was settled as not
		// charged (platform.Idempotency.Begin); a 401 tells no figure.
		if !errors.Is(err, platform.ErrUnauthorized) {
			w.Header().Set("X-Credits-Cost", "0")
		}
		writeError(w, r, err)
		return
	case once.Replay != nil:
		s.replay(w, r, *once.Replay)
		return
	}
	s.metrics.debited.Add(float64(cost))
	tapCharge(r.Context(), once.Charge, &once.Claim)
	resp, ok := s.serveCharged(w, r, once.Charge, cost, serve)
	if !ok {
		s.release(ctx, r, once.Claim)
		return
	}
	spool := newSpool(s.log)
	defer spool.remove()
	complete := false
	defer func() {
		// Also on the abort of a body cut short, which panics through.
		if !complete {
			s.release(ctx, r, once.Claim)
		}
	}()
	inner := resp.Body
	resp.Body = func(ctx context.Context, w io.Writer) error { return inner(ctx, io.MultiWriter(w, spool)) }
	if !s.stream(w, r, once.Charge, cost, resp) {
		return
	}
	complete = true
	s.keep(ctx, r, once.Claim, resp, spool)
}

// keep records a complete response for replay; failing, it frees the key
// rather than leave it in progress until its lease lapses.
func (s *Server) keep(ctx context.Context, r *http.Request, c idempotency.Claim, resp Response, spool *spool) {
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	kept := idempotency.Response{
		Status: status, MediaType: resp.MediaType, Header: resp.Header, Size: spool.size,
		Digest: hex.EncodeToString(spool.hash.Sum(nil)), Stored: spool.kept(),
	}
	body, err := spool.reader()
	if err == nil {
		err = s.d.Idempotency.Complete(ctx, c, kept, body)
	}
	if err != nil {
		s.log.Error("response under an Idempotency-Key not kept; the key is released", zap.String("request_id", recordOf(r).id), zap.Error(err))
		s.release(ctx, r, c)
	}
}

// release frees the key of a request that did not complete.
func (s *Server) release(ctx context.Context, r *http.Request, c idempotency.Claim) {
	if err := s.d.Idempotency.Release(ctx, c); err != nil {
		s.log.Error("Idempotency-Key not released; it is held until its lease lapses", zap.String("request_id", recordOf(r).id), zap.Error(err))
	}
}

// replay answers a key's kept response byte for byte, with
// Idempotent-Replayed: true, at no cost. The body is checked against its
// digest as it is written: one that differs (a store that lost or changed
// it) is cut short, as any body failing after its first byte.
func (s *Server) replay(w http.ResponseWriter, r *http.Request, rec idempotency.Record) {
	w.Header().Set("X-Credits-Cost", "0")
	w.Header().Set(idempotency.ReplayedHeader, "true")
	resp := Response{Status: rec.Response.Status, MediaType: rec.Response.MediaType, Header: rec.Response.Header}
	body := &bodyWriter{w: w, resp: resp}
	sum := sha256.New()
	err := s.d.Idempotency.WriteBody(r.Context(), rec, io.MultiWriter(body, sum))
	if err == nil && hex.EncodeToString(sum.Sum(nil)) != rec.Response.Digest {
		err = fmt.Errorf("replayed body of key %q does not match its digest", rec.Key)
	}
	switch {
	case err == nil && !body.started():
		body.commit()
		return
	case err == nil:
		return
	case !body.started():
		writeError(w, r, err)
		return
	}
	s.log.Error("replayed body failed after its first byte; it is cut short", zap.String("request_id", recordOf(r).id), zap.Error(err))
	_ = http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler)
}

// spool keeps a copy of a response body in a temporary file, up to
// idempotency.MaxStoredBytes, with its size and SHA-256 over all of it. It
// never fails the write it is given: a body it cannot keep is merely not
// replayable.
type spool struct {
	log  *zap.Logger
	file *os.File
	size int64
	hash hash.Hash
	// dropped says the copy was given up: too large, or the disk failed.
	dropped bool
}

func newSpool(log *zap.Logger) *spool { return &spool{log: log, hash: sha256.New()} }

// Write hashes p and copies it while the copy is kept.
func (s *spool) Write(p []byte) (int, error) {
	s.hash.Write(p)
	s.size += int64(len(p))
	if s.dropped {
		return len(p), nil
	}
	if s.size > idempotency.MaxStoredBytes {
		s.drop(nil)
		return len(p), nil
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "quarry-replay-*")
		if err != nil {
			s.drop(err)
			return len(p), nil
		}
		s.file = f
	}
	if _, err := s.file.Write(p); err != nil {
		s.drop(err)
	}
	return len(p), nil
}

// drop gives the copy up and deletes what it held.
func (s *spool) drop(err error) {
	if err != nil {
		s.log.Warn("response copy for replay failed; the key will not replay it", zap.Error(err))
	}
	s.dropped = true
	s.remove()
}

// kept reports whether the whole body is held.
func (s *spool) kept() bool { return !s.dropped }

// reader reads the copy from its start; an empty body has no file.
func (s *spool) reader() (io.Reader, error) {
	if s.dropped || s.file == nil {
		return bytes.NewReader(nil), nil
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return s.file, nil
}

// remove deletes the file, if any.
func (s *spool) remove() {
	if s.file != nil {
		_ = s.file.Close()
		_ = os.Remove(s.file.Name())
		s.file = nil
	}
}
