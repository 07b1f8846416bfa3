package memory

import (
	"context"
	"sync"
	"time"

	"github.com/quarrydata/quarry/domain/ratelimit"
	"github.com/quarrydata/quarry/ports"
)

// Limits holds rate-limit buckets and sign-in history for one process.
type Limits struct {
	mu      sync.Mutex
	tats    map[string]int64
	signins map[string]time.Time
}

var (
	_ ports.RateBuckets   = (*Limits)(nil)
	_ ports.SigninHistory = (*Limits)(nil)
)

// NewLimits returns empty buckets and history.
func NewLimits() *Limits {
	return &Limits{tats: map[string]int64{}, signins: map[string]time.Time{}}
}

// Take implements ports.RateBuckets.
func (l *Limits) Take(_ context.Context, key string, want int, r ratelimit.Rate, now time.Time) (ratelimit.Grant, error) {
	at := ratelimit.Micros(now)
	l.mu.Lock()
	defer l.mu.Unlock()
	g, tat := ratelimit.Take(l.tats[key], at, want, r)
	l.tats[key] = tat
	return g, nil
}

// Give implements ports.RateBuckets.
func (l *Limits) Give(_ context.Context, key string, n int, r ratelimit.Rate) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if tat, ok := l.tats[key]; ok {
		l.tats[key] = ratelimit.Give(tat, n, r)
	}
	return nil
}

// ForgetFull implements ports.RateBuckets.
func (l *Limits) ForgetFull(_ context.Context, now time.Time) (int64, error) {
	at := ratelimit.Micros(now)
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for k, tat := range l.tats {
		if ratelimit.Full(tat, at) {
			delete(l.tats, k)
			n++
		}
	}
	return n, nil
}

// LastSignin implements ports.SigninHistory.
func (l *Limits) LastSignin(_ context.Context, key string) (time.Time, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	at, ok := l.signins[key]
	if !ok {
		return time.Time{}, ports.ErrNotFound
	}
	return at, nil
}

// RecordSignin implements ports.SigninHistory.
func (l *Limits) RecordSignin(_ context.Context, key string, at time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.signins[key] = at
	return nil
}

// ForgetSignins implements ports.SigninHistory.
func (l *Limits) ForgetSignins(_ context.Context, cutoff time.Time) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for k, at := range l.signins {
		if at.Before(cutoff) {
			delete(l.signins, k)
			n++
		}
	}
	return n, nil
}
