package platform

// Calls sent with an Idempotency-Key (domain/idempotency). Prepare
// validates the request as for any call and reads the key and the
// request's digest, all before any debit. The claim is taken in the
// debit's own transaction; the body is delivered and, at the same time,
// copied to a spool file with its digest; once the body is complete it is
// kept for replay. A call that fails is refunded and releases its key.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"time"

	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/ports"
)

// chargedOnce is charged for a keyed call: it replays the key's kept
// response, or answers the key's refusal, or charges, serves, delivers and
// keeps the response.
func (m *Meter) chargedOnce(ctx context.Context, c Call, p Prepared, o Outcome) (Outcome, error) {
	money := context.WithoutCancel(ctx)
	once, err := m.d.Idempotency.Begin(money, o.Key, routeName(c.Route), c.RequestID, c.Route.Cost, *p.Keyed)
	switch {
	case errors.Is(err, ports.ErrInsufficientCredits):
		o.Cost = m.balance(money, c, o.Key.AccountID)
		return o, err
	case err != nil:
		// A claim whose outcome the ledger lost was settled as not charged
		// (Idempotency.Begin); a 401 tells no figure.
		o.Cost.Told = !errors.Is(err, ErrUnauthorized)
		return o, err
	case once.Replay != nil:
		return m.replay(ctx, c, *once.Replay, o)
	}
	sp := &spool{report: m.report, requestID: c.RequestID, hash: sha256.New()}
	defer sp.remove()
	o, res, err := m.served(ctx, c, once.Charge, p.Serve, o, sp)
	if err != nil {
		// Also for a body cut short: the key replays nothing incomplete.
		m.release(money, c, once.Claim)
		return o, err
	}
	m.keep(money, c, once.Claim, res, sp)
	return o, nil
}

// keep records a complete response for replay; failing, it frees the key
// rather than leave it in progress until its lease lapses.
func (m *Meter) keep(ctx context.Context, c Call, claim idempotency.Claim, res Result, sp *spool) {
	status := res.Status
	if status == 0 {
		status = 200 // a zero status is 200
	}
	kept := idempotency.Response{
		Status: status, MediaType: res.MediaType, Header: res.Header, Size: sp.size,
		Digest: hex.EncodeToString(sp.hash.Sum(nil)), Stored: sp.kept(),
	}
	body, err := sp.reader()
	if err == nil {
		bounded, cancel := context.WithTimeout(ctx, m.keepTimeout(sp.size))
		err = m.d.Idempotency.Complete(bounded, claim, kept, body)
		cancel()
	}
	if err != nil {
		m.report(Incident{RequestID: c.RequestID, Message: "response under an Idempotency-Key not kept; the key is released", Err: err})
		m.release(ctx, c, claim)
	}
}

// keepTimeout bounds the keeping of a response of size bytes: the store
// timeout, and a second for each keepRate bytes it writes, so that a
// store that stops answering (a frozen primary) does not hold the call.
func (m *Meter) keepTimeout(size int64) time.Duration {
	return m.d.StoreTimeout + time.Duration(size/keepRate)*time.Second
}

// keepRate is the slowest write of a kept body allowed for, in bytes a
// second.
const keepRate = 4 << 20

// release frees the key of a call that did not complete, within the store
// timeout; a store that does not answer in time has it released in the
// background once it answers, so the key is not held for its lease.
func (m *Meter) release(ctx context.Context, c Call, claim idempotency.Claim) {
	bounded, cancel := context.WithTimeout(ctx, m.d.StoreTimeout)
	defer cancel()
	err := m.d.Idempotency.Release(bounded, claim)
	if errors.Is(err, ports.ErrUnavailable) {
		m.report(Incident{RequestID: c.RequestID, Message: "Idempotency-Key not released yet; it is released once the store answers", Err: err, Warning: true})
		go m.d.Metering.eventually(func(ctx context.Context) error { return m.d.Idempotency.Release(ctx, claim) })
		return
	}
	if err != nil {
		m.report(Incident{RequestID: c.RequestID, Message: "Idempotency-Key not released; it is held until its lease lapses", Err: err})
	}
}

// replay delivers a key's kept response byte for byte, at no cost. The
// body is checked against its digest as it is written: one that differs
// (a store that lost or changed it) is cut short, as any body failing
// after its first byte.
func (m *Meter) replay(ctx context.Context, c Call, rec idempotency.Record, o Outcome) (Outcome, error) {
	o.Replayed, o.Cost = true, Cost{Told: true}
	res := Result{Status: rec.Response.Status, MediaType: rec.Response.MediaType, Header: rec.Response.Header}
	w := &counter{w: c.Deliver(o, res)}
	sum := sha256.New()
	err := m.d.Idempotency.WriteBody(ctx, rec, io.MultiWriter(w, sum))
	if err == nil && hex.EncodeToString(sum.Sum(nil)) != rec.Response.Digest {
		err = fmt.Errorf("replayed body of key %q does not match its digest", rec.Key)
	}
	o.Written = w.n
	switch {
	case err != nil && w.n > 0:
		return o, fmt.Errorf("%w: %w", ErrTruncated, err)
	case err == nil && c.Accept != nil:
		err = c.Accept()
	}
	return o, err
}

// spool keeps a copy of a response body in a temporary file, up to
// idempotency.MaxStoredBytes, with its size and SHA-256 over all of it. It
// never fails the write it is given: a body it cannot keep is merely not
// replayable.
type spool struct {
	report    func(Incident)
	requestID string
	file      *os.File
	size      int64
	hash      hash.Hash
	// dropped says the copy was given up: too large, or the disk failed.
	dropped bool
}

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
		s.report(Incident{RequestID: s.requestID, Message: "response copy for replay failed; the key will not replay it", Err: err, Warning: true})
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
