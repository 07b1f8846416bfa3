-- Rate-limit buckets shared by every node (domain/ratelimit): one row per
-- bucket holding its theoretical arrival time in microseconds since the
-- epoch. rate_take takes up to p_want tokens under the row's lock, so
-- concurrent nodes never share a token; the arithmetic is ratelimit.Take's,
-- in integers, so memory and PostgreSQL grant exactly the same.
CREATE TABLE rate_buckets (
    key text PRIMARY KEY,
    tat bigint NOT NULL
);

CREATE FUNCTION rate_take(p_key text, p_now bigint, p_want integer, p_interval bigint, p_tolerance bigint,
                          OUT granted integer, OUT retry_after bigint)
LANGUAGE plpgsql AS $$
DECLARE
    start bigint;
BEGIN
    INSERT INTO rate_buckets (key, tat) VALUES (p_key, 0) ON CONFLICT (key) DO NOTHING;
    SELECT greatest(tat, p_now) INTO start FROM rate_buckets WHERE key = p_key FOR UPDATE;
    granted := greatest(0, least(p_want::bigint, (p_now + p_tolerance - start) / p_interval));
    retry_after := 0;
    IF granted = 0 THEN
        retry_after := greatest(1, start + p_interval - p_tolerance - p_now);
        RETURN;
    END IF;
    UPDATE rate_buckets SET tat = start + granted::bigint * p_interval WHERE key = p_key;
END;
$$;

-- Where each email has recently signed in (the sign-in throttle's known
-- addresses), keyed by a digest of the email and the client address.
CREATE TABLE signin_history (
    key text PRIMARY KEY,
    signed_in_at timestamptz NOT NULL
);
