package app

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// signinThrottle limits failed sign-ins per email: a burst of failures, then
// one more attempt per interval. Successful sign-ins do not consume it.
type signinThrottle struct {
	mu       sync.Mutex
	limiters map[string]*rate.Limiter
	every    time.Duration
	burst    int
}

// maxThrottled bounds the memory held for emails under attack; past it, the
// limiters that have fully recovered are dropped.
const maxThrottled = 100_000

func newSigninThrottle(burst int, every time.Duration) *signinThrottle {
	return &signinThrottle{limiters: map[string]*rate.Limiter{}, every: every, burst: burst}
}

// check returns a RateLimitError when the email has no attempt left.
func (s *signinThrottle) check(email string, now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.limiters[email]
	if !ok || l.TokensAt(now) >= 1 {
		return nil
	}
	wait := time.Duration((1 - l.TokensAt(now)) * float64(s.every))
	return &RateLimitError{RetryAfter: wait, Limit: s.burst, Remaining: 0}
}

// fail records a failed attempt.
func (s *signinThrottle) fail(email string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.limiters[email]
	if !ok {
		if len(s.limiters) >= maxThrottled {
			s.prune(now)
		}
		l = rate.NewLimiter(rate.Every(s.every), s.burst)
		s.limiters[email] = l
	}
	l.AllowN(now, 1)
}

func (s *signinThrottle) prune(now time.Time) {
	for email, l := range s.limiters {
		if l.TokensAt(now) >= float64(s.burst) {
			delete(s.limiters, email)
		}
	}
}
