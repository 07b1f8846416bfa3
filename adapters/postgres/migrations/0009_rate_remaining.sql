-- rate_take also answers what the bucket holds after the take (remaining,
-- whole tokens) and how long until it is full again (full_after,
-- microseconds), for the RateLimit header of every metered response, from
-- the same statement that takes the token. The arithmetic is
-- ratelimit.Take's. A node still selecting only granted and retry_after
-- reads the new function as it read the old one.
DROP FUNCTION rate_take(text, bigint, integer, bigint, bigint);

CREATE FUNCTION rate_take(p_key text, p_now bigint, p_want integer, p_interval bigint, p_tolerance bigint,
                          OUT granted integer, OUT retry_after bigint,
                          OUT remaining integer, OUT full_after bigint)
LANGUAGE plpgsql AS $$
DECLARE
    start bigint;
    v_tat bigint;
BEGIN
    INSERT INTO rate_buckets (key, tat) VALUES (p_key, 0) ON CONFLICT (key) DO NOTHING;
    SELECT tat INTO v_tat FROM rate_buckets WHERE key = p_key FOR UPDATE;
    start := greatest(v_tat, p_now);
    granted := greatest(0, least(p_want::bigint, (p_now + p_tolerance - start) / p_interval));
    retry_after := 0;
    IF granted = 0 THEN
        retry_after := greatest(1, start + p_interval - p_tolerance - p_now);
    ELSE
        v_tat := start + granted::bigint * p_interval;
        UPDATE rate_buckets SET tat = v_tat WHERE key = p_key;
    END IF;
    remaining := greatest(0, (p_now + p_tolerance - greatest(v_tat, p_now)) / p_interval);
    full_after := greatest(0, v_tat - p_now);
END;
$$;
