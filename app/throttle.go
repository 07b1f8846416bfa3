package app

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// The sign-in throttle. Guesses are bounded per email, and an attacker
// cannot use that bound to keep the owner out:
//   - every attempt takes a token from the bucket of its email and client
//     address (perClientBurst at once, then one per perClientEvery) before
//     the password is verified, so no concurrency verifies more guesses;
//   - an attempt from an address that has not signed in to the email within
//     knownFor also takes a token from the email's own bucket
//     (perEmailBurst, then one per perEmailEvery), which bounds guesses
//     spread over many addresses;
//   - a correct password hands its tokens back, and marks its address known
//     for the email, so the owner's usual addresses are never held up by
//     guesses made elsewhere.
const (
	perClientBurst = 5
	perClientEvery = time.Minute
	perEmailBurst  = 20
	perEmailEvery  = 5 * time.Minute
	knownFor       = 30 * 24 * time.Hour
)

// signinThrottle applies the rule above; its buckets and known addresses are
// dropped when idle, so memory follows recent sign-ins.
type signinThrottle struct {
	perClient *buckets
	perEmail  *buckets

	mu        sync.Mutex
	known     map[string]time.Time // email and address -> last successful sign-in
	nextSweep time.Time
}

func newSigninThrottle() *signinThrottle {
	return &signinThrottle{
		perClient: newBuckets(rate.Every(perClientEvery), perClientBurst),
		perEmail:  newBuckets(rate.Every(perEmailEvery), perEmailBurst),
		known:     map[string]time.Time{},
	}
}

// signinAttempt is an admitted attempt holding its tokens until the outcome
// is known.
type signinAttempt struct {
	throttle *signinThrottle
	key      string
	tokens   []token
}

// admit takes the attempt's tokens, or returns a RateLimitError taking none.
func (s *signinThrottle) admit(email, client string, now time.Time) (*signinAttempt, error) {
	key := email + "\x00" + client
	a := &signinAttempt{throttle: s, key: key}
	r, wait := s.perClient.take(key, now)
	if wait > 0 {
		return nil, &RateLimitError{RetryAfter: wait, Limit: perClientBurst}
	}
	a.tokens = append(a.tokens, r)
	if s.isKnown(key, now) {
		return a, nil
	}
	r, wait = s.perEmail.take(email, now)
	if wait > 0 {
		a.release()
		return nil, &RateLimitError{RetryAfter: wait, Limit: perEmailBurst}
	}
	a.tokens = append(a.tokens, r)
	return a, nil
}

// succeeded hands the tokens back and remembers the address.
func (a *signinAttempt) succeeded(now time.Time) {
	a.release()
	a.throttle.remember(a.key, now)
}

// release hands the tokens back, for an attempt that was not a guess.
func (a *signinAttempt) release() {
	for _, t := range a.tokens {
		t.give()
	}
}

func (s *signinThrottle) isKnown(key string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.known[key]
	return ok && now.Sub(at) < knownFor
}

// remember marks the address known for the email, dropping the ones not seen
// within knownFor once a minute.
func (s *signinThrottle) remember(key string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !now.Before(s.nextSweep) {
		for k, at := range s.known {
			if now.Sub(at) >= knownFor {
				delete(s.known, k)
			}
		}
		s.nextSweep = now.Add(sweepEvery)
	}
	s.known[key] = now
}
