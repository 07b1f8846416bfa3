package memory

import (
	"context"
	"slices"
	"sync"

	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// SyncStates holds each source's checkpoint for the life of the process.
type SyncStates struct {
	mu     sync.Mutex
	states map[string]feed.State
}

var _ ports.SyncStates = (*SyncStates)(nil)

// NewSyncStates returns a store holding no checkpoint.
func NewSyncStates() *SyncStates { return &SyncStates{states: map[string]feed.State{}} }

// State returns the source's checkpoint, empty when it has none.
func (s *SyncStates) State(_ context.Context, source string) (feed.State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.states[source]
	if !ok {
		return feed.State{Source: source}, nil
	}
	return detached(st), nil
}

// detached is st with slices of its own, so that neither the caller nor
// the store changes the other's.
func detached(st feed.State) feed.State {
	st.Gaps, st.Missing = slices.Clone(st.Gaps), slices.Clone(st.Missing)
	return st
}

// SaveState replaces the source's checkpoint.
func (s *SyncStates) SaveState(_ context.Context, st feed.State) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.states[st.Source] = detached(st)
	return nil
}
