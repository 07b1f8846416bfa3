package bootstrap

import (
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
)

// SyncConfig configures the sources.
type SyncConfig struct {
	// Sources names the sources `quarry serve` keeps current (QUARRY_SYNC);
	// none runs no schedule.
	Sources []string
	// Every is how often the schedule runs each source.
	Every time.Duration
	// From, when set (QUARRY_SYNC_FROM), is the first day the schedule
	// backfills: each run fetches the days from it that are not held.
	// Unset, a source on an empty store starts at the latest day due.
	From time.Time
	// NSEBaseURL stands for NSE's archive host: a mirror, or a test's
	// replay server.
	NSEBaseURL string
	// RetryBackoff is the first wait before a source retries a request;
	// zero is one second. No variable sets it: tests shorten it.
	RetryBackoff time.Duration
}

const (
	defaultNSEBaseURL = "https://nsearchives.nseindia.com/"
)

// syncConfig reads the sources' settings.
func (r *reader) syncConfig() SyncConfig {
	c := SyncConfig{
		Every:      r.duration(EnvSyncEvery, time.Hour),
		NSEBaseURL: r.str(EnvNSEBaseURL, defaultNSEBaseURL),
	}
	if raw := r.getenv(EnvSyncFrom); raw != "" {
		d, err := feed.Day(raw)
		if err != nil {
			r.fail(EnvSyncFrom, raw, "want a date YYYY-MM-DD")
		}
		c.From = d
	}
	for s := range strings.SplitSeq(r.getenv(EnvSync), ",") {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(c.Sources, s) {
			c.Sources = append(c.Sources, s)
		}
	}
	return c
}
