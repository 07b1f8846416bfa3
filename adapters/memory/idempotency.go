package memory

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// claimID is where a claim is held: keys are the account's own.
type claimID struct{ account, key string }

func claimOf(c idempotency.Claim) claimID { return claimID{c.AccountID, c.Key} }

// Begin claims the key and debits under the ledger's lock, so the two are
// one step.
func (p *Platform) Begin(_ context.Context, c idempotency.Claim, debit ledger.Entry) (ports.Begun, error) {
	if err := checkClaim(c, debit); err != nil {
		return ports.Begun{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	id := claimOf(c)
	if r, held := p.claims[id]; held && r.Live(c.At) {
		if err := idempotency.Decide(r, c); err != nil {
			return ports.Begun{}, err
		}
		if r.DebitID == c.DebitID {
			return ports.Begun{Started: true, Balance: p.balances[c.AccountID]}, nil
		}
		return ports.Begun{Replay: r}, nil
	}
	bal, err := p.debit(debit)
	if err != nil {
		return ports.Begun{}, err
	}
	delete(p.bodies, id)
	p.claims[id] = idempotency.NewRecord(c)
	return ports.Begun{Started: true, Balance: bal}, nil
}

// checkClaim refuses a debit that is not the claim's.
func checkClaim(c idempotency.Claim, debit ledger.Entry) error {
	if err := checkKind(debit, ledger.Debit); err != nil {
		return err
	}
	if debit.ID != c.DebitID || debit.AccountID != c.AccountID {
		return fmt.Errorf("claim of %s names debit %s, not %s of %s: %w", c.AccountID, c.DebitID, debit.ID, debit.AccountID, ledger.ErrInvalidEntry)
	}
	return nil
}

// Complete keeps the response, reading the body before taking the lock.
func (p *Platform) Complete(_ context.Context, c idempotency.Claim, resp idempotency.Response, body io.Reader) error {
	var kept []byte
	if resp.Stored {
		var err error
		if kept, err = io.ReadAll(body); err != nil {
			return err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	id := claimOf(c)
	r, held := p.claims[id]
	if !held || r.DebitID != c.DebitID || r.State != idempotency.InProgress {
		return fmt.Errorf("claim of %q by debit %s: %w", c.Key, c.DebitID, ports.ErrNotFound)
	}
	p.claims[id] = r.Completed(resp)
	if resp.Stored {
		p.bodies[id] = kept
	}
	return nil
}

// Release drops the claim if it is still c's.
func (p *Platform) Release(_ context.Context, c idempotency.Claim) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	id := claimOf(c)
	if r, held := p.claims[id]; held && r.DebitID == c.DebitID {
		delete(p.claims, id)
		delete(p.bodies, id)
	}
	return nil
}

// WriteBody writes the kept body, copied out under the lock.
func (p *Platform) WriteBody(_ context.Context, r idempotency.Record, w io.Writer) error {
	p.mu.RLock()
	held, ok := p.claims[claimOf(r.Claim)]
	body, kept := p.bodies[claimOf(r.Claim)]
	p.mu.RUnlock()
	if !ok || !kept || held.DebitID != r.DebitID {
		return fmt.Errorf("body of %q: %w", r.Key, ports.ErrNotFound)
	}
	_, err := io.Copy(w, bytes.NewReader(body))
	return err
}

// Sweep forgets the expired records.
func (p *Platform) Sweep(_ context.Context, now time.Time) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for id, r := range p.claims {
		if !r.Live(now) {
			delete(p.claims, id)
			delete(p.bodies, id)
			n++
		}
	}
	return n, nil
}
