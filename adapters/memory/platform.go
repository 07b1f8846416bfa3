// Package memory implements every port in process memory. It is the embedded
// default: safe under concurrency, lost at exit, and held to the same
// contract suites as the PostgreSQL and MongoDB adapters.
package memory

import (
	"context"
	"errors"
	"github.com/quarrydata/quarry/domain/idempotency"
	"slices"
	"sync"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// Platform holds accounts, sessions, keys and the ledger behind one lock, so
// that provisioning and debits are atomic exactly as in a database
// transaction.
type Platform struct {
	mu       sync.RWMutex
	accounts map[string]account.Account // by id
	byEmail  map[string]string          // email -> account id
	sessions map[string]account.Session
	keys     map[string]apikey.Key // by id
	byHash   map[string]string     // digest -> key id
	balances map[string]int64
	entries  map[string][]ledger.Entry // by account, oldest first
	byID     map[string]entryRef       // every entry's place by id, unique like a primary key
	refunded map[string]bool           // debit id -> refunded
	claims   map[claimID]idempotency.Record
	bodies   map[claimID][]byte

	// watchMu guards watchers, apart from mu, so that watchers are told
	// of a change after mu is released.
	watchMu  sync.Mutex
	watchers map[*ports.KeyWatcher]ports.KeyWatcher
}

var (
	_ ports.AccountStore     = (*Platform)(nil)
	_ ports.SessionStore     = (*Platform)(nil)
	_ ports.KeyStore         = (*Platform)(nil)
	_ ports.Ledger           = (*Platform)(nil)
	_ ports.KeyWatch         = (*Platform)(nil)
	_ ports.IdempotencyStore = (*Platform)(nil)
)

// NewPlatform returns empty account-side stores.
func NewPlatform() *Platform {
	return &Platform{
		accounts: map[string]account.Account{},
		byEmail:  map[string]string{},
		sessions: map[string]account.Session{},
		keys:     map[string]apikey.Key{},
		byHash:   map[string]string{},
		balances: map[string]int64{},
		entries:  map[string][]ledger.Entry{},
		byID:     map[string]entryRef{},
		refunded: map[string]bool{},
		claims:   map[claimID]idempotency.Record{},
		bodies:   map[claimID][]byte{},
		watchers: map[*ports.KeyWatcher]ports.KeyWatcher{},
	}
}

// Provision creates the account and its grant atomically.
func (p *Platform) Provision(_ context.Context, a account.Account, grant ledger.Entry) error {
	if err := grant.Validate(); err != nil || grant.Kind != ledger.Grant || grant.AccountID != a.ID {
		return errors.Join(ledger.ErrInvalidEntry, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, taken := p.byEmail[a.Email]; taken {
		return ports.ErrConflict
	}
	if _, taken := p.accounts[a.ID]; taken {
		return ports.ErrConflict
	}
	p.accounts[a.ID] = a
	p.byEmail[a.Email] = a.ID
	p.appendEntry(grant)
	return nil
}

// AccountByEmail returns the account with that email.
func (p *Platform) AccountByEmail(_ context.Context, email string) (account.Account, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	id, ok := p.byEmail[email]
	if !ok {
		return account.Account{}, ports.ErrNotFound
	}
	return p.accounts[id], nil
}

// AccountByID returns the account with that id.
func (p *Platform) AccountByID(_ context.Context, id string) (account.Account, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	a, ok := p.accounts[id]
	if !ok {
		return account.Account{}, ports.ErrNotFound
	}
	return a, nil
}

// CreateSession stores a session.
func (p *Platform) CreateSession(_ context.Context, s account.Session) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, taken := p.sessions[s.TokenHash]; taken {
		return ports.ErrConflict
	}
	if _, known := p.accounts[s.AccountID]; !known {
		return ports.ErrNotFound
	}
	p.sessions[s.TokenHash] = s
	return nil
}

// SessionByHash returns the session with that token digest.
func (p *Platform) SessionByHash(_ context.Context, tokenHash string) (account.Session, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	s, ok := p.sessions[tokenHash]
	if !ok {
		return account.Session{}, ports.ErrNotFound
	}
	return s, nil
}

// CreateKey stores a key within the account's limit of live keys.
func (p *Platform) CreateKey(_ context.Context, k apikey.Key, maxActive int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, idTaken := p.keys[k.ID]
	_, hashTaken := p.byHash[k.Hash]
	if idTaken || hashTaken {
		return ports.ErrConflict
	}
	if _, known := p.accounts[k.AccountID]; !known {
		return ports.ErrNotFound
	}
	if p.liveKeys(k) >= maxActive {
		return ports.ErrLimitReached
	}
	k.Scopes = slices.Clone(k.Scopes)
	p.keys[k.ID] = k
	p.byHash[k.Hash] = k.ID
	return nil
}

// KeysByAccount lists the account's keys the filter selects, oldest first.
func (p *Platform) KeysByAccount(_ context.Context, accountID string, f ports.KeyFilter) ([]apikey.Key, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := []apikey.Key{}
	for _, k := range p.keys {
		if k.AccountID == accountID && k.Kind() == f.Kind && (f.LiveAt.IsZero() || !k.Expired(f.LiveAt)) {
			out = append(out, copyKey(k))
		}
	}
	slices.SortFunc(out, func(a, b apikey.Key) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return compareStrings(a.ID, b.ID)
	})
	return out, nil
}

// KeyByHash returns the key with that digest.
func (p *Platform) KeyByHash(_ context.Context, hash string) (apikey.Key, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	id, ok := p.byHash[hash]
	if !ok {
		return apikey.Key{}, ports.ErrNotFound
	}
	return copyKey(p.keys[id]), nil
}

// RevokeKey marks the account's key of that kind revoked, keeping the first
// revocation time, and tells the watchers before it returns.
func (p *Platform) RevokeKey(_ context.Context, accountID, keyID string, kind apikey.Kind, at time.Time) (apikey.Key, error) {
	k, changed, err := p.revokeKey(accountID, keyID, kind, at)
	if changed {
		p.changed(k.Hash)
	}
	return k, err
}

func (p *Platform) revokeKey(accountID, keyID string, kind apikey.Kind, at time.Time) (apikey.Key, bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.keys[keyID]
	if !ok || k.AccountID != accountID || k.Kind() != kind {
		return apikey.Key{}, false, ports.ErrNotFound
	}
	changed := k.RevokedAt == nil
	if changed {
		k.RevokedAt = &at
		p.keys[keyID] = k
	}
	return copyKey(k), changed, nil
}

// TouchKey records the key's last use.
func (p *Platform) TouchKey(_ context.Context, keyID string, at time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.keys[keyID]
	if !ok {
		return ports.ErrNotFound
	}
	k.LastUsedAt = &at
	p.keys[keyID] = k
	return nil
}

// SetKeyScope adds or removes one permission of the key, and tells the
// watchers before it returns.
func (p *Platform) SetKeyScope(_ context.Context, keyID, permission string, held bool) (apikey.Key, error) {
	k, err := p.setKeyScope(keyID, permission, held)
	if err == nil {
		p.changed(k.Hash)
	}
	return k, err
}

func (p *Platform) setKeyScope(keyID, permission string, held bool) (apikey.Key, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.keys[keyID]
	if !ok {
		return apikey.Key{}, ports.ErrNotFound
	}
	k.Scopes = slices.DeleteFunc(slices.Clone(k.Scopes), func(s string) bool { return s == permission })
	if held {
		k.Scopes = append(k.Scopes, permission)
	}
	p.keys[keyID] = k
	return copyKey(k), nil
}

// WatchKeys tells w of every revocation and scope change until ctx ends.
// In one process nothing can be missed: w is watching from the start, and
// is told of a change before the call that made it returns.
func (p *Platform) WatchKeys(ctx context.Context, w ports.KeyWatcher) {
	id := &w
	p.watchMu.Lock()
	p.watchers[id] = w
	p.watchMu.Unlock()
	w.Watching(true)
	<-ctx.Done()
	p.watchMu.Lock()
	delete(p.watchers, id)
	p.watchMu.Unlock()
	w.Watching(false)
}

// changed tells every watcher that the key with this digest changed.
func (p *Platform) changed(hash string) {
	p.watchMu.Lock()
	defer p.watchMu.Unlock()
	for _, w := range p.watchers {
		w.KeyChanged(hash)
	}
}

// DeleteExpiredSessions removes the sessions expired at now.
func (p *Platform) DeleteExpiredSessions(_ context.Context, now time.Time) (int64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n int64
	for hash, s := range p.sessions {
		if !s.ExpiresAt.After(now) {
			delete(p.sessions, hash)
			n++
		}
	}
	return n, nil
}

// liveKeys counts the keys of k's account and kind that are live when k is
// created.
func (p *Platform) liveKeys(k apikey.Key) int {
	n := 0
	for _, o := range p.keys {
		if o.AccountID == k.AccountID && o.Kind() == k.Kind() && o.Live(k.CreatedAt) {
			n++
		}
	}
	return n
}

// DeleteSession removes the session with that digest, if any.
func (p *Platform) DeleteSession(_ context.Context, tokenHash string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.sessions, tokenHash)
	return nil
}

func copyKey(k apikey.Key) apikey.Key {
	k.Scopes = slices.Clone(k.Scopes)
	return k
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
