package usecase

import (
	"time"
)

// Clock returns the current time. Stores keep microseconds, so every
// instant the use cases write is truncated to that precision in UTC.
type Clock func() time.Time

// SystemClock is the wall clock at the precision every store keeps.
func SystemClock() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
