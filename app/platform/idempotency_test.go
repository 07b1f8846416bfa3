package platform_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// lostBegin claims and debits, then answers ErrOutcomeUnknown, as a COMMIT
// whose answer a failover lost does.
type lostBegin struct{ ports.IdempotencyStore }

func (l lostBegin) Begin(ctx context.Context, c idempotency.Claim, debit ledger.Entry) (ports.Begun, error) {
	if _, err := l.IdempotencyStore.Begin(ctx, c, debit); err != nil {
		return ports.Begun{}, err
	}
	return ports.Begun{}, fmt.Errorf("fault: claim %s: %w", c.Key, ports.ErrOutcomeUnknown)
}

// A keyed request whose claim the store lost is told it was not charged,
// which the ledger then holds, and its key is free for the client's retry.
func TestIdempotencyBeginLostIsNotChargedNorClaimed(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: clock.t}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_grant", AccountID: acc.ID, Kind: ledger.Grant, Amount: 100, CreatedAt: clock.t}); err != nil {
		t.Fatal(err)
	}
	k := apikey.Key{ID: "key_1", AccountID: acc.ID, Name: "k", Prefix: "qk_test", Hash: "h", Scopes: []string{"india:read"}, CreatedAt: clock.t}
	if err := p.CreateKey(ctx, k, 10); err != nil {
		t.Fatal(err)
	}
	metering := platform.NewMetering(p, p, clock.now)
	keyed := platform.Keyed{Key: "retry-me", Digest: "d1"}

	_, err := platform.NewIdempotency(lostBegin{p}, metering, clock.now).Begin(ctx, k, "POST /india/exports", "req_1", 25, keyed)
	if !errors.Is(err, ports.ErrUnavailable) || errors.Is(err, ports.ErrOutcomeUnknown) {
		t.Fatalf("a lost claim answered %v, want ErrUnavailable and not ErrOutcomeUnknown", err)
	}
	if bal, err := p.Balance(ctx, acc.ID); err != nil || bal != 100 {
		t.Fatalf("balance after the lost claim = %d, %v; want 100 (not charged)", bal, err)
	}
	once, err := platform.NewIdempotency(p, metering, clock.now).Begin(ctx, k, "POST /india/exports", "req_2", 25, keyed)
	if err != nil || once.Replay != nil || once.Charge.Balance != 75 {
		t.Fatalf("the retry with the same key = %+v, %v; want a fresh charge to 75", once, err)
	}
}
