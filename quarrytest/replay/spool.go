package replay

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/quarrydata/quarry/ports"
)

// Spool is a run's spool in a test's folder (ports.Spool), with a budget.
type Spool struct {
	dir    string
	budget int64
	taken  atomic.Int64
}

// NewSpool returns a spool in a folder of t's, that lets a run fetch
// budget bytes.
func NewSpool(t testing.TB, budget int64) *Spool { return &Spool{dir: t.TempDir(), budget: budget} }

// Dir is the spool's folder.
func (s *Spool) Dir() string { return s.dir }

// Take counts n bytes and fails once more than the budget are taken.
func (s *Spool) Take(n int64) error {
	if s.taken.Add(n) > s.budget {
		return fmt.Errorf("more than %d bytes: %w", s.budget, ports.ErrBudgetSpent)
	}
	return nil
}

// Left is how many bytes the budget has left.
func (s *Spool) Left() int64 { return max(s.budget-s.taken.Load(), 0) }

// Taken is how many bytes were counted.
func (s *Spool) Taken() int64 { return s.taken.Load() }

// Spooled is t's context carrying a spool of 1 TiB.
func Spooled(t testing.TB) context.Context {
	return ports.WithSpool(t.Context(), NewSpool(t, 1<<40))
}
