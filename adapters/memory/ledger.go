package memory

import (
	"context"
	"slices"
	"time"

	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// Debit appends the debit if the balance covers it and its key is live.
func (p *Platform) Debit(_ context.Context, e ledger.Entry) (int64, error) {
	if err := checkKind(e, ledger.Debit); err != nil {
		return 0, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.debit(e)
}

// debit applies a debit under p.mu.
func (p *Platform) debit(e ledger.Entry) (int64, error) {
	bal, ok := p.balances[e.AccountID]
	if !ok {
		return 0, ports.ErrNotFound
	}
	if held, taken := p.entry(e.ID); taken {
		return p.replay(held, e)
	}
	// Under the lock RevokeKey takes: no debit follows a revocation.
	if k, ok := p.keys[e.KeyID]; !ok || k.AccountID != e.AccountID || !k.Live(e.CreatedAt) {
		return bal, ports.ErrKeyRevoked
	}
	if bal+e.Amount < 0 {
		return bal, ports.ErrInsufficientCredits
	}
	p.appendEntry(e)
	return p.balances[e.AccountID], nil
}

// Refund appends a refund of the debit it names, once.
func (p *Platform) Refund(_ context.Context, e ledger.Entry) (int64, error) {
	if err := checkKind(e, ledger.Refund); err != nil {
		return 0, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	d, ok := p.entry(e.RefundOf)
	if !ok || d.Kind != ledger.Debit || d.AccountID != e.AccountID || d.Amount != -e.Amount {
		return 0, ports.ErrNotFound
	}
	if held, taken := p.entry(e.ID); taken {
		return p.replay(held, e)
	}
	if p.refunded[d.ID] {
		return p.balances[e.AccountID], ports.ErrConflict
	}
	p.refunded[d.ID] = true
	p.appendEntry(e)
	return p.balances[e.AccountID], nil
}

// Grant appends an operator's grant to an existing account.
func (p *Platform) Grant(_ context.Context, e ledger.Entry) (int64, error) {
	if err := checkKind(e, ledger.Grant); err != nil {
		return 0, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.balances[e.AccountID]; !ok {
		return 0, ports.ErrNotFound
	}
	if held, taken := p.entry(e.ID); taken {
		return p.replay(held, e)
	}
	p.appendEntry(e)
	return p.balances[e.AccountID], nil
}

// replay answers a write whose id is taken: already applied when it is the
// same entry, a conflict otherwise.
func (p *Platform) replay(held, e ledger.Entry) (int64, error) {
	if !held.SameAs(e) {
		return 0, ports.ErrConflict
	}
	return p.balances[e.AccountID], nil
}

// checkKind applies the entry rules every adapter enforces before storing.
func checkKind(e ledger.Entry, kind ledger.Kind) error {
	if e.Kind != kind {
		return ledger.ErrInvalidEntry
	}
	return e.Validate()
}

func (p *Platform) appendEntry(e ledger.Entry) {
	p.byID[e.ID] = entryRef{account: e.AccountID, index: len(p.entries[e.AccountID])}
	p.entries[e.AccountID] = append(p.entries[e.AccountID], e)
	p.balances[e.AccountID] += e.Amount
}

// entryRef is where an entry is held: its account's entries, at index.
// The index keeps a debit's place without a second copy of it: entries are
// only ever appended.
type entryRef struct {
	account string
	index   int
}

// entry returns the entry held under id.
func (p *Platform) entry(id string) (ledger.Entry, bool) {
	ref, ok := p.byID[id]
	if !ok {
		return ledger.Entry{}, false
	}
	return p.entries[ref.account][ref.index], true
}

// Balance returns the account's balance.
func (p *Platform) Balance(_ context.Context, accountID string) (int64, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	bal, ok := p.balances[accountID]
	if !ok {
		return 0, ports.ErrNotFound
	}
	return bal, nil
}

// Statement returns the balance and a page of entries, newest first, under
// one lock.
func (p *Platform) Statement(_ context.Context, accountID string, limit, offset int) (ledger.Statement, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	bal, ok := p.balances[accountID]
	if !ok {
		return ledger.Statement{}, ports.ErrNotFound
	}
	all := p.entries[accountID]
	newest := slices.Clone(all)
	slices.SortStableFunc(newest, func(a, b ledger.Entry) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return compareStrings(b.ID, a.ID)
	})
	start := min(max(offset, 0), len(newest))
	end := min(start+max(limit, 0), len(newest))
	return ledger.Statement{Balance: bal, Entries: newest[start:end], Total: len(all)}, nil
}

// Usage sums the account's debits and refunds per UTC day and route from
// since on.
func (p *Platform) Usage(_ context.Context, accountID string, since time.Time) ([]ledger.Usage, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	type cell struct {
		day   time.Time
		route string
	}
	sums := map[cell]int64{}
	for _, e := range p.entries[accountID] {
		if e.Kind != ledger.Grant && !e.CreatedAt.Before(since) {
			sums[cell{ledger.Day(e.CreatedAt), e.Route}] -= e.Amount
		}
	}
	out := []ledger.Usage{}
	for c, n := range sums {
		if n != 0 {
			out = append(out, ledger.Usage{Day: c.day, Route: c.route, Credits: n})
		}
	}
	slices.SortFunc(out, func(a, b ledger.Usage) int {
		if c := a.Day.Compare(b.Day); c != 0 {
			return c
		}
		return compareStrings(a.Route, b.Route)
	})
	return out, nil
}

// Verify compares each balance with the sum of its entries.
func (p *Platform) Verify(_ context.Context) ([]ledger.Mismatch, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	var out []ledger.Mismatch
	for id, bal := range p.balances {
		if sum := ledger.Sum(p.entries[id]); sum != bal {
			out = append(out, ledger.Mismatch{AccountID: id, Balance: bal, Sum: sum})
		}
	}
	return out, nil
}

// Settle reports whether e is held. Writes hold p.mu, so none is in flight
// while it reads.
func (p *Platform) Settle(_ context.Context, e ledger.Entry) (bool, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	held, ok := p.entry(e.ID)
	if ok && !held.SameAs(e) {
		return false, ports.ErrConflict
	}
	return ok, nil
}
