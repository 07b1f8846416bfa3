package memory

import (
	"context"
	"sync"
	"time"

	"github.com/quarrydata/quarry/ports"
)

// SourceLeases holds the sources' leases for the life of the process: on
// memory storage or a data directory the process is the only runner, and
// the lease only keeps its own schedule and commands apart.
type SourceLeases struct {
	mu     sync.Mutex
	leases map[string]lease
}

// lease is who holds a source's lease, and until when.
type lease struct {
	holder  string
	expires time.Time
}

var _ ports.SourceLeases = (*SourceLeases)(nil)

// NewSourceLeases returns leases none of which is held.
func NewSourceLeases() *SourceLeases { return &SourceLeases{leases: map[string]lease{}} }

// Acquire takes or renews source's lease for holder unless another holder's
// has not run out.
func (s *SourceLeases) Acquire(_ context.Context, source, holder string, ttl time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if l, ok := s.leases[source]; ok && l.holder != holder && now.Before(l.expires) {
		return false, nil
	}
	s.leases[source] = lease{holder: holder, expires: now.Add(ttl)}
	return true, nil
}

// Release frees source's lease if holder holds it.
func (s *SourceLeases) Release(_ context.Context, source, holder string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leases[source].holder == holder {
		delete(s.leases, source)
	}
	return nil
}
