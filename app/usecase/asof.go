package usecase

import (
	"fmt"
	"time"
)

// ParseAsOf reads a point in time: an RFC 3339 date-time, or a calendar date
// meaning the end of that day in UTC (everything filed that day is known).
// Empty means now. A moment in the future is clamped to now: nothing is
// known beyond it.
func ParseAsOf(raw string, now time.Time) (time.Time, error) {
	if raw == "" {
		return now, nil
	}
	t, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil {
		d, derr := time.Parse(time.DateOnly, raw)
		if derr != nil {
			return time.Time{}, fmt.Errorf("%w: as_of %q is neither a date (2024-06-30) nor an RFC 3339 date-time", ErrValidation, raw)
		}
		t = d.Add(24*time.Hour - time.Microsecond)
	}
	t = t.UTC()
	if t.After(now) {
		return now, nil
	}
	return t, nil
}

// ParseDate reads an optional calendar date parameter.
func ParseDate(name, raw string) (time.Time, bool, error) {
	if raw == "" {
		return time.Time{}, false, nil
	}
	d, err := time.Parse(time.DateOnly, raw)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("%w: %s %q is not a date (YYYY-MM-DD)", ErrValidation, name, raw)
	}
	return d, true, nil
}
