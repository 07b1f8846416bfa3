package platform

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/quarrydata/quarry/domain/ratelimit"
	"github.com/quarrydata/quarry/ports"
)

// The sign-in throttle. Guesses are bounded per email, and an attacker
// cannot use that bound to keep the owner out:
//   - every attempt takes a token from the bucket of its email and client
//     address (perClient: 5 at once, then one a minute) before the password
//     is verified, so no concurrency verifies more guesses;
//   - an attempt from an address that has not signed in to the email within
//     knownFor also takes a token from the email's own bucket (perEmail: 20,
//     then one per 5 minutes), which bounds guesses spread over many
//     addresses;
//   - a correct password hands its tokens back, and marks its address known
//     for the email, so the owner's usual addresses are never held up by
//     guesses made elsewhere.
//
// Buckets and known addresses live in the shared stores, so the bounds hold
// across every node; they are keyed by digests, so the stores hold no email
// or address. A bucket found empty is remembered by the node until it
// refills, so repeated guesses are refused without a round trip.
var (
	perClient = ratelimit.Every(time.Minute, 5)
	perEmail  = ratelimit.Every(5*time.Minute, 20)
)

const knownFor = 30 * 24 * time.Hour

// signinThrottle applies the rule above.
type signinThrottle struct {
	buckets ports.RateBuckets
	history ports.SigninHistory
	refused *refusals
}

func newSigninThrottle(b ports.RateBuckets, h ports.SigninHistory) *signinThrottle {
	return &signinThrottle{buckets: b, history: h, refused: newRefusals()}
}

// signinAttempt is an admitted attempt holding its tokens until the outcome
// is known.
type signinAttempt struct {
	throttle *signinThrottle
	client   string
	taken    []takenToken
}

// takenToken is one token an attempt took from a bucket.
type takenToken struct {
	bucket string
	rate   ratelimit.Rate
}

// bucketKey is the digest a bucket or history entry is stored under.
func bucketKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// admit takes the attempt's tokens, or returns a RateLimitError taking none.
func (s *signinThrottle) admit(ctx context.Context, email, client string, now time.Time) (*signinAttempt, error) {
	a := &signinAttempt{throttle: s, client: bucketKey("signin-client", email, client)}
	if err := a.take(ctx, a.client, perClient, now); err != nil {
		return nil, err
	}
	known, err := s.known(ctx, a.client, now)
	if err != nil || known {
		return a.keepOnlyIf(ctx, err)
	}
	if err := a.take(ctx, bucketKey("signin-email", email), perEmail, now); err != nil {
		a.release(ctx)
		return nil, err
	}
	return a, nil
}

// keepOnlyIf returns the attempt, or hands its tokens back when err is set.
func (a *signinAttempt) keepOnlyIf(ctx context.Context, err error) (*signinAttempt, error) {
	if err != nil {
		a.release(ctx)
		return nil, err
	}
	return a, nil
}

// take takes one token of bucket for the attempt.
func (a *signinAttempt) take(ctx context.Context, bucket string, r ratelimit.Rate, now time.Time) error {
	s := a.throttle
	if wait := s.refused.refused(bucket, now); wait > 0 {
		return &RateLimitError{RetryAfter: wait, Limit: r.Burst}
	}
	g, err := s.buckets.Take(ctx, bucket, 1, r, now)
	if err != nil {
		return err
	}
	if g.Tokens == 0 {
		s.refused.refuse(bucket, now.Add(g.RetryAfter), now)
		return &RateLimitError{RetryAfter: g.RetryAfter, Limit: r.Burst}
	}
	a.taken = append(a.taken, takenToken{bucket, r})
	return nil
}

func (s *signinThrottle) known(ctx context.Context, client string, now time.Time) (bool, error) {
	at, err := s.history.LastSignin(ctx, client)
	if errors.Is(err, ports.ErrNotFound) {
		return false, nil
	}
	return err == nil && now.Sub(at) < knownFor, err
}

// succeeded hands the tokens back and remembers the address.
func (a *signinAttempt) succeeded(ctx context.Context, now time.Time) error {
	a.release(ctx)
	return a.throttle.history.RecordSignin(ctx, a.client, now)
}

// release hands the tokens back, for an attempt that was not a guess. A
// token that cannot be handed back stays spent: the bound errs on the safe
// side.
func (a *signinAttempt) release(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	for _, t := range a.taken {
		_ = a.throttle.buckets.Give(ctx, t.bucket, 1, t.rate)
	}
}

// forget drops sign-in history older than knownFor.
func (s *signinThrottle) forget(ctx context.Context, now time.Time) (int64, error) {
	return s.history.ForgetSignins(ctx, now.Add(-knownFor))
}
