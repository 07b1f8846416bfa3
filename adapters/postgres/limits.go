package postgres

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/ratelimit"
	"github.com/quarrydata/quarry/ports"
)

var (
	_ ports.RateBuckets   = (*Store)(nil)
	_ ports.SigninHistory = (*Store)(nil)
)

// Take implements ports.RateBuckets in one round trip (migration 0009's
// rate_take), which also answers what the bucket holds after the take.
func (s *Store) Take(ctx context.Context, key string, want int, r ratelimit.Rate, now time.Time) (ratelimit.Grant, error) {
	var g ratelimit.Grant
	var retry, full int64
	err := s.pool.QueryRow(ctx, `SELECT granted, retry_after, remaining, full_after FROM rate_take($1, $2, $3, $4, $5)`,
		key, ratelimit.Micros(now), want, r.Interval(), r.Tolerance()).Scan(&g.Tokens, &retry, &g.Remaining, &full)
	if err != nil {
		return ratelimit.Grant{}, translate("take rate tokens", err)
	}
	g.RetryAfter = time.Duration(retry) * time.Microsecond
	g.Full = time.Duration(full) * time.Microsecond
	return g, nil
}

// Give implements ports.RateBuckets.
func (s *Store) Give(ctx context.Context, key string, n int, r ratelimit.Rate) error {
	_, err := s.pool.Exec(ctx, `UPDATE rate_buckets SET tat = tat - $2 WHERE key = $1`, key, int64(n)*r.Interval())
	if err != nil {
		return translate("give rate tokens", err)
	}
	return nil
}

// ForgetFull implements ports.RateBuckets.
func (s *Store) ForgetFull(ctx context.Context, now time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM rate_buckets WHERE tat <= $1`, ratelimit.Micros(now))
	if err != nil {
		return 0, translate("forget full rate buckets", err)
	}
	return tag.RowsAffected(), nil
}

// LastSignin implements ports.SigninHistory.
func (s *Store) LastSignin(ctx context.Context, key string) (time.Time, error) {
	var at time.Time
	err := s.pool.QueryRow(ctx, `SELECT signed_in_at FROM signin_history WHERE key = $1`, key).Scan(&at)
	if err != nil {
		return time.Time{}, translate("read sign-in history", err)
	}
	return at.UTC(), nil
}

// RecordSignin implements ports.SigninHistory.
func (s *Store) RecordSignin(ctx context.Context, key string, at time.Time) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO signin_history (key, signed_in_at) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET signed_in_at = EXCLUDED.signed_in_at`, key, at)
	if err != nil {
		return translate("record sign-in", err)
	}
	return nil
}

// ForgetSignins implements ports.SigninHistory.
func (s *Store) ForgetSignins(ctx context.Context, cutoff time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM signin_history WHERE signed_in_at < $1`, cutoff)
	if err != nil {
		return 0, translate("forget sign-ins", err)
	}
	return tag.RowsAffected(), nil
}
