package bootstrap

import (
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/adapters/tusharesource"
	"github.com/quarrydata/quarry/app/sourcesync"
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
	// SECUserAgent is the User-Agent the edgar source declares to the
	// SEC; empty leaves the source off.
	SECUserAgent string
	// SECBaseURL and SECDataBaseURL stand for the SEC's hosts of the
	// Archives and of the XBRL API.
	SECBaseURL, SECDataBaseURL string
	// JudgmentsInbox is the folder licensed India judgment deliveries are
	// dropped into; empty leaves the judgments inbox off.
	JudgmentsInbox string
	// InboxSettle is how long a delivery must lie unmodified before a run
	// takes it; zero is the inbox's default. No variable sets it: tests
	// shorten it.
	InboxSettle time.Duration
	// TushareToken is the Tushare Pro token; empty leaves the tushare
	// source off. Never logged.
	TushareToken string
	// TushareBaseURL stands for the Tushare Pro API's host.
	TushareBaseURL string
	// TusharePerMinute bounds the requests a minute the tushare source sends.
	TusharePerMinute int
	// TushareWindow is the span TusharePerMinute counts; zero is a minute.
	// No variable sets it: tests shorten it.
	TushareWindow time.Duration
	// MaxRunBytes bounds the bytes one run of a source fetches.
	MaxRunBytes int64
	// SpoolDir, when set, holds the runs' spools instead of the data
	// directory or the temporary directory. No variable sets it: tests do.
	SpoolDir string
	// RetryBackoff is the first wait before a source retries a request;
	// zero is one second. No variable sets it: tests shorten it.
	RetryBackoff time.Duration
}

const (
	defaultNSEBaseURL     = "https://nsearchives.nseindia.com/"
	defaultSECBaseURL     = "https://www.sec.gov/"
	defaultSECDataBaseURL = "https://data.sec.gov/"
)

// syncConfig reads the sources' settings.
func (r *reader) syncConfig() SyncConfig {
	c := SyncConfig{
		Every:            r.duration(EnvSyncEvery, time.Hour),
		NSEBaseURL:       r.str(EnvNSEBaseURL, defaultNSEBaseURL),
		SECUserAgent:     strings.TrimSpace(r.getenv(EnvSECUserAgent)),
		SECBaseURL:       r.str(EnvSECBaseURL, defaultSECBaseURL),
		SECDataBaseURL:   r.str(EnvSECDataBaseURL, defaultSECDataBaseURL),
		TushareToken:     strings.TrimSpace(r.getenv(EnvTushareToken)),
		TushareBaseURL:   r.str(EnvTushareBaseURL, tusharesource.DefaultBaseURL),
		TusharePerMinute: int(r.int64(EnvTusharePerMinute, tusharesource.DefaultPerMinute, 1)),
		JudgmentsInbox:   r.path(EnvJudgmentsInbox),
		MaxRunBytes:      r.bytes(EnvSyncMaxRunBytes, sourcesync.DefaultRunBytes),
	}
	if c.MaxRunBytes == 0 {
		r.fail(EnvSyncMaxRunBytes, "0", "want a number of bytes a run may fetch, such as 8GiB")
	}
	if c.SECUserAgent != "" && !strings.Contains(c.SECUserAgent, "@") {
		r.fail(EnvSECUserAgent, c.SECUserAgent, "want who fetches and a contact e-mail address, as the SEC asks (Example Corp ops@example.com)")
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
