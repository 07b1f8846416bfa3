package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/quarrydata/quarry/domain/ratelimit"
	"github.com/quarrydata/quarry/ports"
)

var (
	_ ports.RateBuckets   = (*Store)(nil)
	_ ports.SigninHistory = (*Store)(nil)
)

// Take implements ports.RateBuckets: ratelimit.Take's arithmetic on the
// bucket's row, read and written in one write transaction, so concurrent
// takers never share a token.
func (s *Store) Take(ctx context.Context, key string, want int, r ratelimit.Rate, now time.Time) (ratelimit.Grant, error) {
	var g ratelimit.Grant
	err := s.write(ctx, "take rate tokens", func(tx *sql.Tx) error {
		var tat int64
		err := tx.QueryRowContext(ctx, `SELECT tat FROM rate_buckets WHERE key = ?`, key).Scan(&tat)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var next int64
		g, next = ratelimit.Take(tat, ratelimit.Micros(now), want, r)
		if g.Tokens == 0 {
			return nil
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO rate_buckets (key, tat) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET tat = excluded.tat`, key, next)
		return err
	})
	if err != nil {
		return ratelimit.Grant{}, err
	}
	return g, nil
}

// Give implements ports.RateBuckets.
func (s *Store) Give(ctx context.Context, key string, n int, r ratelimit.Rate) error {
	_, err := s.exec(ctx, "give rate tokens", `UPDATE rate_buckets SET tat = tat - ? WHERE key = ?`, int64(n)*r.Interval(), key)
	return err
}

// ForgetFull implements ports.RateBuckets.
func (s *Store) ForgetFull(ctx context.Context, now time.Time) (int64, error) {
	return s.exec(ctx, "forget full rate buckets", `DELETE FROM rate_buckets WHERE tat <= ?`, ratelimit.Micros(now))
}

// LastSignin implements ports.SigninHistory.
func (s *Store) LastSignin(ctx context.Context, key string) (time.Time, error) {
	var at int64
	err := s.reader.QueryRowContext(ctx, `SELECT signed_in_at FROM signin_history WHERE key = ?`, key).Scan(&at)
	if err != nil {
		return time.Time{}, translate("read sign-in history", err)
	}
	return instant(at), nil
}

// RecordSignin implements ports.SigninHistory.
func (s *Store) RecordSignin(ctx context.Context, key string, at time.Time) error {
	_, err := s.exec(ctx, "record sign-in", `INSERT INTO signin_history (key, signed_in_at) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET signed_in_at = excluded.signed_in_at`, key, micros(at))
	return err
}

// ForgetSignins implements ports.SigninHistory.
func (s *Store) ForgetSignins(ctx context.Context, cutoff time.Time) (int64, error) {
	return s.exec(ctx, "forget sign-ins", `DELETE FROM signin_history WHERE signed_in_at < ?`, micros(cutoff))
}
