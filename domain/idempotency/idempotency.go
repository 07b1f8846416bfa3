// Package idempotency holds the rules of the Idempotency-Key request header
// (the IETF httpapi draft "The Idempotency-Key HTTP Header Field", as Stripe
// practises it): what a key may be, how a request is fingerprinted, how long
// a key is kept, and what a second request under a key is answered. It does
// no I/O.
package idempotency

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Retention is how long a completed request's response is kept for replay,
// counted from the first request, as Stripe keeps keys for 24 hours.
const Retention = 24 * time.Hour

// Lease is how long a key whose request is still running is held. A request
// that ends, however it ends, settles its key long before; a lease only
// lapses when the process serving the request died, and a request under
// the key is then processed (and charged) afresh.
const Lease = 10 * time.Minute

// MaxKeyLength is the longest key accepted, in bytes.
const MaxKeyLength = 255

// ErrInvalidKey: the header is not a key.
var ErrInvalidKey = errors.New("invalid Idempotency-Key")

// ParseKey reads the Idempotency-Key header's value: the draft's
// Structured Field string ("...", with \" and \\ escapes), or the bare token
// clients such as Stripe's send. The key is 1 to 255 printable ASCII
// characters (space to tilde).
func ParseKey(header string) (string, error) {
	key := header
	if len(header) >= 2 && header[0] == '"' {
		var err error
		if key, err = unquote(header); err != nil {
			return "", err
		}
	}
	if len(key) == 0 || len(key) > MaxKeyLength {
		return "", fmt.Errorf("%w: want 1 to %d characters, got %d", ErrInvalidKey, MaxKeyLength, len(key))
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return "", fmt.Errorf("%w: character %d is not printable ASCII", ErrInvalidKey, i+1)
		}
	}
	return key, nil
}

// unquote reads a Structured Field string (RFC 8941 §3.3.3).
func unquote(s string) (string, error) {
	if s[len(s)-1] != '"' {
		return "", fmt.Errorf("%w: a quoted key must end with a quote", ErrInvalidKey)
	}
	var b []byte
	body := s[1 : len(s)-1]
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\':
			if i+1 == len(body) || body[i+1] != '"' && body[i+1] != '\\' {
				return "", fmt.Errorf("%w: a backslash may only escape a quote or a backslash", ErrInvalidKey)
			}
			i++
			b = append(b, body[i])
		case c == '"':
			return "", fmt.Errorf("%w: an unescaped quote inside a quoted key", ErrInvalidKey)
		default:
			b = append(b, c)
		}
	}
	return string(b), nil
}

// RequestDigest fingerprints a request: the hex SHA-256 of its route, a
// zero byte and its canonical JSON body (Canonical). The same key with
// another digest is another request.
func RequestDigest(route string, body []byte) (string, error) {
	canon, err := Canonical(body)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(route))
	h.Write([]byte{0})
	h.Write(canon)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Canonical re-encodes a JSON value without insignificant white space and
// with object members sorted by name, so that two bodies differing only in
// spacing or member order have one form. Numbers keep their text.
func Canonical(body []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("idempotency: body is not JSON: %w", err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // maps encode sorted by key
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// State is where a keyed request stands.
type State string

// The states of a keyed request.
const (
	// InProgress: the first request is running; others under the key get
	// 409.
	InProgress State = "in_progress"
	// Complete: the first request answered 200 and its response is kept;
	// the same request again is replayed.
	Complete State = "complete"
)

// Claim is a request's hold on a key: the account (keys are the
// account's), the key, the request's digest, and the debit it was charged
// with, whose id tells this request's claim from another's.
type Claim struct {
	AccountID     string
	Key           string
	RequestDigest string
	DebitID       string
	At            time.Time
}

// MaxStoredBytes is the largest body kept for replay. A larger one is not
// kept: its key still completes, and still protects against a second
// debit, but a replay is refused (ErrNotKept) rather than answered with a
// file that was never stored.
const MaxStoredBytes = 256 << 20

// Response is what is kept of a completed request to replay it byte for
// byte: status, media type, headers of its own, the body's size and hex
// SHA-256, and whether the body itself is kept.
type Response struct {
	Status    int
	MediaType string
	Header    map[string][]string
	Size      int64
	Digest    string
	Stored    bool
}

// Record is a key as held.
type Record struct {
	Claim
	State State
	// ExpiresAt is when the key is forgotten: At + Lease while in
	// progress, At + Retention once complete.
	ExpiresAt time.Time
	Response  Response
}

// NewRecord is a claim just taken.
func NewRecord(c Claim) Record {
	return Record{Claim: c, State: InProgress, ExpiresAt: c.At.Add(Lease)}
}

// Completed is the record once its request answered resp.
func (r Record) Completed(resp Response) Record {
	r.State, r.Response, r.ExpiresAt = Complete, resp, r.At.Add(Retention)
	return r
}

// Live reports whether the record still holds its key at now.
func (r Record) Live(now time.Time) bool { return now.Before(r.ExpiresAt) }

// Errors a second request under a key is answered with.
var (
	// ErrKeyReused: the key was used for another request (422).
	ErrKeyReused = errors.New("Idempotency-Key was used with another request")
	// ErrInProgress: the key's first request is still running (409).
	ErrInProgress = errors.New("the first request with this Idempotency-Key is still running")
	// ErrNotKept: the key's first request completed, and was charged,
	// but its body was too large to keep for replay (409).
	ErrNotKept = errors.New("the first request with this Idempotency-Key completed, but its file was not kept for replay")
)

// Decide says what a request with claim c gets from a live record r under
// its key: nil when r is c's own claim (a retried Begin whose answer was
// lost), ErrKeyReused for another request, ErrInProgress while r's request
// runs, and nil for a complete record of the same request, which is
// replayed.
func Decide(r Record, c Claim) error {
	switch {
	case r.DebitID == c.DebitID:
		return nil
	case r.RequestDigest != c.RequestDigest:
		return fmt.Errorf("%w: send another key for another request", ErrKeyReused)
	case r.State == InProgress:
		return fmt.Errorf("%w; retry once it has answered (at most %s)", ErrInProgress, Lease)
	}
	return nil
}

// ReplayedHeader is the header a replayed response carries, set to
// "true".
const ReplayedHeader = "Idempotent-Replayed"

// Replayable returns nil when a complete record's response can be
// replayed, and ErrNotKept when its body was not kept.
func (r Record) Replayable() error {
	if r.Response.Stored {
		return nil
	}
	return fmt.Errorf("%w (%s, over the %s kept); it was charged once: download it again without the key",
		ErrNotKept, mib(r.Response.Size), mib(MaxStoredBytes))
}

func mib(n int64) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB" }
