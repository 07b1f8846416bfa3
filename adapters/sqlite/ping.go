package sqlite

import (
	"context"
	"fmt"

	"github.com/quarrydata/quarry/ports"
)

// Ping reads the database file, for a readiness check: it fails when the
// file can no longer be read.
func (s *Store) Ping(ctx context.Context) error {
	var n int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
		return fmt.Errorf("sqlite: ping: %w: %v", ports.ErrUnavailable, err)
	}
	return nil
}
