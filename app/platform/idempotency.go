package platform

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/ports"
)

// Keyed is a request sent with an Idempotency-Key: the key and the
// request's digest (idempotency.RequestDigest).
type Keyed struct {
	Key    string
	Digest string
}

// Once is what Idempotency.Begin answers: a charge and the claim it holds,
// or a complete response to replay (Replay set), which costs nothing.
type Once struct {
	Charge Charge
	Claim  idempotency.Claim
	Replay *idempotency.Record
}

// Idempotency charges requests sent with an Idempotency-Key at most once
// per key, and keeps their responses for replay.
type Idempotency struct {
	store    ports.IdempotencyStore
	metering *Metering
	now      usecase.Clock
}

// NewIdempotency wires the use case; metering settles a claim whose
// outcome the store lost, as it settles a debit.
func NewIdempotency(store ports.IdempotencyStore, metering *Metering, now usecase.Clock) *Idempotency {
	return &Idempotency{store: store, metering: metering, now: now}
}

// Begin charges the request and claims its key in one step, or answers
// the replay of the key's complete response, or the key's refusal:
// idempotency.ErrKeyReused (422), ErrInProgress or ErrNotKept (409). A
// claim whose outcome the store lost is settled as not charged and not
// claimed, and answered with ports.ErrUnavailable, as Metering.Charge
// answers a debit's: ports.ErrOutcomeUnknown never leaves Begin.
func (i *Idempotency) Begin(ctx context.Context, k apikey.Key, route, requestID string, cost int64, keyed Keyed) (Once, error) {
	e := debitEntry(k, route, requestID, cost, i.now())
	c := idempotency.Claim{AccountID: k.AccountID, Key: keyed.Key, RequestDigest: keyed.Digest, DebitID: e.ID, At: e.CreatedAt}
	ctx, cancel := i.metering.bounded(ctx)
	defer cancel()
	b, err := i.store.Begin(ctx, c, e)
	if errors.Is(err, ports.ErrOutcomeUnknown) {
		return Once{}, i.metering.notCharged(ctx, e, err, func(ctx context.Context) error { return i.store.Release(ctx, c) })
	}
	if errors.Is(err, ports.ErrKeyRevoked) {
		return Once{}, fmt.Errorf("%w: API key %s was revoked", ErrUnauthorized, k.Prefix)
	}
	if err != nil {
		return Once{}, err
	}
	if b.Started {
		return Once{Charge: Charge{Entry: e, Balance: b.Balance}, Claim: c}, nil
	}
	if err := b.Replay.Replayable(); err != nil {
		return Once{}, err
	}
	return Once{Replay: &b.Replay}, nil
}

// Complete keeps the response of a claim's request for replay.
func (i *Idempotency) Complete(ctx context.Context, c idempotency.Claim, resp idempotency.Response, body io.Reader) error {
	return i.store.Complete(ctx, c, resp, body)
}

// Release frees the key of a request that failed and was refunded.
func (i *Idempotency) Release(ctx context.Context, c idempotency.Claim) error {
	return i.store.Release(ctx, c)
}

// WriteBody writes a complete record's kept body.
func (i *Idempotency) WriteBody(ctx context.Context, r idempotency.Record, w io.Writer) error {
	return i.store.WriteBody(ctx, r, w)
}

// Sweep forgets the records that have expired, bodies included.
func (i *Idempotency) Sweep(ctx context.Context) (int64, error) {
	n, err := i.store.Sweep(ctx, i.now())
	return int64(n), err
}
