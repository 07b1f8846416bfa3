package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/ports"
)

// SourceLeases keeps the sources' leases in the source_leases table, so
// that of the nodes sharing the database one runs each source. Expiry is
// judged by the database's clock alone.
type SourceLeases struct{ pool *pgxpool.Pool }

var _ ports.SourceLeases = (*SourceLeases)(nil)

// NewSourceLeases returns the leases on pool, whose database Migrate has
// brought up to date.
func NewSourceLeases(pool *pgxpool.Pool) *SourceLeases { return &SourceLeases{pool: pool} }

// acquireLease takes a free lease, or one run out, or renews the holder's
// own, in one statement: of racing nodes the row lock lets one win, and the
// others' conflicting insert then finds the lease held and updates nothing.
const acquireLease = `
INSERT INTO source_leases (source, holder, expires_at)
VALUES ($1, $2, now() + make_interval(secs => $3))
ON CONFLICT (source) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
WHERE source_leases.expires_at < now() OR source_leases.holder = excluded.holder
RETURNING holder`

// Acquire takes or renews source's lease for holder unless another holder's
// has not run out.
func (s *SourceLeases) Acquire(ctx context.Context, source, holder string, ttl time.Duration) (bool, error) {
	var got string
	err := s.pool.QueryRow(ctx, acquireLease, source, holder, ttl.Seconds()).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, translate("acquire source lease", err)
	}
	return true, nil
}

// Release frees source's lease if holder holds it.
func (s *SourceLeases) Release(ctx context.Context, source, holder string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM source_leases WHERE source = $1 AND holder = $2`, source, holder)
	if err != nil {
		return translate("release source lease", err)
	}
	return nil
}
