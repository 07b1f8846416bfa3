-- Rate-limit buckets (domain/ratelimit): one row per bucket holding its
-- theoretical arrival time in microseconds since the epoch. The arithmetic
-- is ratelimit.Take's, run in Go inside the write transaction.
CREATE TABLE rate_buckets (
    key TEXT PRIMARY KEY,
    tat INTEGER NOT NULL
) STRICT;

-- Where each email has recently signed in (the sign-in throttle's known
-- addresses), keyed by a digest of the email and the client address.
CREATE TABLE signin_history (
    key          TEXT PRIMARY KEY,
    signed_in_at INTEGER NOT NULL
) STRICT;

CREATE INDEX signin_history_signed_in_at_idx ON signin_history (signed_in_at);
