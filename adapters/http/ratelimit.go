package http

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/quarrydata/quarry/app/platform"
)

// The names of the quota policies in RateLimit-Policy and RateLimit: a key's
// data requests, and the messages to POST /mcp other than tool calls, which
// have a bucket of their own at the same rate.
const (
	keyPolicy = "default"
	mcpPolicy = "mcp"
)

// limit takes a token of bucket for an MCP message and says what the
// limit holds, admitted or refused, in the RateLimit-Policy and RateLimit
// headers of draft-ietf-httpapi-ratelimit-headers-10 (spec-gaps "Rate-limit
// headers"). A refusal is returned as the RateLimitError writeError turns
// into a 429 with Retry-After.
func (s *Server) limit(ctx context.Context, w http.ResponseWriter, policy, bucket string) error {
	q, err := s.d.Limiter.Allow(ctx, bucket)
	var rl *platform.RateLimitError
	switch {
	case errors.As(err, &rl) && rl.Quota != nil:
		q = *rl.Quota
	case err != nil:
		return err
	}
	quotaHeaders(w.Header(), policy, q)
	return err
}

// quotaHeaders says in h what the quota q of policy holds.
func quotaHeaders(h http.Header, policy string, q platform.Quota) {
	name := strconv.Quote(policy)
	h.Set("RateLimit-Policy", name+";q="+strconv.Itoa(q.Limit)+";w="+strconv.FormatInt(max(1, ceilSeconds(q.Window)), 10))
	h.Set("RateLimit", name+";r="+strconv.Itoa(q.Remaining)+";t="+strconv.FormatInt(ceilSeconds(q.Reset), 10))
}

// ceilSeconds is d in whole seconds, rounded up.
func ceilSeconds(d time.Duration) int64 { return int64((d + time.Second - 1) / time.Second) }
