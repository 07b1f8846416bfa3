package memory

import (
	"context"
	"fmt"
	"sync"

	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

// Vault keeps the token mapping in memory, for tests: a process on memory
// storage keeps tokenized documents and no mapping.
type Vault struct {
	mu      sync.RWMutex
	byToken map[string]pii.Entry
}

var _ ports.Vault = (*Vault)(nil)

// NewVault returns an empty Vault.
func NewVault() *Vault { return &Vault{byToken: map[string]pii.Entry{}} }

// Put records entries, all or none.
func (v *Vault) Put(_ context.Context, entries []pii.Entry) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, e := range entries {
		if held, ok := v.byToken[e.Token]; ok && held != e {
			return fmt.Errorf("vault: token %s is held for another original: %w", e.Token, ports.ErrConflict)
		}
	}
	for _, e := range entries {
		v.byToken[e.Token] = e
	}
	return nil
}

// Reveal returns the entry of token.
func (v *Vault) Reveal(_ context.Context, token string) (pii.Entry, error) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	e, ok := v.byToken[token]
	if !ok {
		return pii.Entry{}, fmt.Errorf("vault: token %s: %w", token, ports.ErrNotFound)
	}
	return e, nil
}
