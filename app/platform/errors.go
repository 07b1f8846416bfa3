package platform

import (
	"errors"
	"time"
)

// Errors of the platform: credentials and their permissions.
var (
	// ErrUnauthorized: missing, malformed, unknown, revoked or expired credential (401).
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden: the credential lacks a required permission (403).
	ErrForbidden = errors.New("forbidden")
)

// RateLimitError reports a refused request and when to retry (429).
type RateLimitError struct {
	RetryAfter time.Duration
	Limit      int
	Remaining  int
	// Reason, when set, tells the client which limit refused it and when
	// to retry; the API key's rate limit leaves it empty.
	Reason string
	// Quota is what the key's rate limit holds, set by RateLimiter only:
	// the sign-in and sign-up throttles meter no request.
	Quota *Quota
}

func (e *RateLimitError) Error() string {
	if e.Reason != "" {
		return e.Reason
	}
	return "rate limited"
}
