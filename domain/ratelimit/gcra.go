// Package ratelimit holds the arithmetic of a token bucket kept as one
// number, so that any store can hold a bucket shared by many processes.
//
// A bucket is the generic cell rate algorithm's theoretical arrival time
// (TAT), in microseconds since the Unix epoch: the moment the bucket would be
// full again if nothing more were taken. At time now it holds
// (now + Burst×Interval − max(TAT, now)) / Interval whole tokens, never more
// than Burst. Taking n tokens moves TAT n intervals later; giving them back
// moves it n intervals earlier. Every figure is an integer, so every store
// computes exactly the same grants.
package ratelimit

import (
	"math"
	"time"
)

// Rate is a bucket's refill rate and its size.
type Rate struct {
	PerSecond float64
	Burst     int
}

// Every returns a Rate of one token per period with the given burst.
func Every(period time.Duration, burst int) Rate {
	return Rate{PerSecond: float64(time.Second) / float64(period), Burst: burst}
}

// Interval is the time one token takes to refill, in whole microseconds
// (at least 1). PerSecond must be positive.
func (r Rate) Interval() int64 { return max(1, int64(math.Round(1e6/r.PerSecond))) }

// Tolerance is how far TAT may run ahead of now: Burst intervals.
func (r Rate) Tolerance() int64 { return int64(r.Burst) * r.Interval() }

// Micros is t in microseconds since the Unix epoch.
func Micros(t time.Time) int64 { return t.UnixMicro() }

// Grant is the outcome of taking tokens from a bucket.
type Grant struct {
	// Tokens is how many were taken: up to the number asked for.
	Tokens int
	// RetryAfter, when no token was taken, is how long until one is free.
	RetryAfter time.Duration
	// Remaining is how many whole tokens the bucket holds after the take.
	Remaining int
	// Full is how long after now the bucket is full again if nothing more
	// is taken: 0 when it is full.
	Full time.Duration
}

// Take takes up to want tokens from the bucket whose TAT is tat at now, and
// returns what was granted, with what the bucket holds after it, and the new
// TAT.
func Take(tat, now int64, want int, r Rate) (Grant, int64) {
	start := max(tat, now)
	free := (now + r.Tolerance() - start) / r.Interval()
	n := int64(max(0, min(int64(want), free)))
	if n == 0 {
		wait := start + r.Interval() - r.Tolerance() - now
		g := Grant{RetryAfter: time.Duration(max(wait, 1)) * time.Microsecond}
		return g.after(tat, now, r), tat
	}
	next := start + n*r.Interval()
	return Grant{Tokens: int(n)}.after(next, now, r), next
}

// after fills in what the bucket whose TAT is tat holds at now.
func (g Grant) after(tat, now int64, r Rate) Grant {
	g.Remaining = int(max(0, (now+r.Tolerance()-max(tat, now))/r.Interval()))
	g.Full = time.Duration(max(0, tat-now)) * time.Microsecond
	return g
}

// Give returns n tokens taken earlier to the bucket whose TAT is tat.
func Give(tat int64, n int, r Rate) int64 { return tat - int64(n)*r.Interval() }

// Full reports whether the bucket holds Burst tokens at now, so that
// forgetting it changes nothing.
func Full(tat, now int64) bool { return tat <= now }
