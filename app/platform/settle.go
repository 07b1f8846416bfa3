package platform

// Settling a debit whose outcome was lost. The ledger answers
// ports.ErrOutcomeUnknown when a debit was sent but the store stopped
// answering before it said whether the debit was kept (a failover, a
// connection cut after COMMIT). Guessing either way tells some client a
// figure the ledger does not hold. Instead the request is answered as not
// charged, and made so: the node asks the ledger whether the debit's id is
// held (ports.Ledger.Settle) and, if it is, refunds it with a refund entry
// naming it. Only this path reads anything more than the debit itself, so
// the common path costs what it did.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// DefaultStoreTimeout is how long a request waits for a store that does
// not answer before it is refused as unavailable (QUARRY_STORE_TIMEOUT).
const DefaultStoreTimeout = 2 * time.Second

// ErrRefundPending: a refund the store did not confirm in time is being
// written again in the background until it is kept. The request is told it
// cost nothing, which the ledger then holds.
var ErrRefundPending = errors.New("refund pending")

// settlePause is the first pause between attempts to reach the ledger; it
// doubles up to settleMaxPause.
const (
	settlePause    = 20 * time.Millisecond
	settleMaxPause = time.Second
)

// WithStoreTimeout sets how long a debit of unknown outcome is settled on
// the request's time before the settling goes on in the background.
func (m *Metering) WithStoreTimeout(d time.Duration) *Metering {
	m.storeTimeout = d
	return m
}

// bounded gives a ledger write and its settling, on the request's time,
// one store timeout that no caller can cancel: money moves to the end or
// not at all.
func (m *Metering) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), m.storeTimeout)
}

// notCharged settles the debit e, whose outcome the ledger lost, and returns
// the request's error: the store is unavailable and the request is not
// charged. The settling runs on what is left of ctx (the request's store
// timeout); one that cannot finish within it goes on in the background, so
// that the answer becomes the ledger's truth as soon as the store answers
// again. Each of then (an Idempotency-Key's release) runs once the debit
// is void.
func (m *Metering) notCharged(ctx context.Context, e ledger.Entry, cause error, then ...func(ctx context.Context) error) error {
	refund := ledger.NewRefund(e, NewID("led"), m.now())
	settle := func(ctx context.Context) error {
		if err := m.void(ctx, e, refund); err != nil {
			return err
		}
		for _, fn := range then {
			if _, err := retried(ctx, func() (struct{}, error) { return struct{}{}, fn(ctx) }); err != nil {
				return err
			}
		}
		return nil
	}
	if err := settle(ctx); err != nil {
		go m.eventually(settle)
	}
	return fmt.Errorf("%w: the ledger did not confirm debit %s; it is not kept (%v)", ports.ErrUnavailable, e.ID, cause)
}

// void makes sure the debit e is not kept: not held, or reversed by refund.
func (m *Metering) void(ctx context.Context, e, refund ledger.Entry) error {
	held, err := retried(ctx, func() (bool, error) { return m.ledger.Settle(ctx, e) })
	if err != nil || !held {
		return err
	}
	_, err = retried(ctx, func() (int64, error) { return m.ledger.Refund(ctx, refund) })
	return err
}

// refundLater writes refund again in the background until it is kept.
func (m *Metering) refundLater(refund ledger.Entry) {
	go m.eventually(func(ctx context.Context) error {
		_, err := retried(ctx, func() (int64, error) { return m.ledger.Refund(ctx, refund) })
		return err
	})
}

// withinTimeout runs fn on a context bounded by the store timeout.
func (m *Metering) withinTimeout(fn func(ctx context.Context) error) error {
	ctx, cancel := m.bounded(context.Background())
	defer cancel()
	return fn(ctx)
}

// eventually runs fn, each time bounded by the store timeout, until it
// succeeds or fails with an answer other than the store being unavailable.
func (m *Metering) eventually(fn func(ctx context.Context) error) {
	for errors.Is(m.withinTimeout(fn), ports.ErrUnavailable) {
		time.Sleep(settleMaxPause)
	}
}

// retried calls fn until it answers with anything but ports.ErrUnavailable
// (ports.ErrOutcomeUnknown among them: ledger writes are idempotent by id)
// or ctx ends, pausing between attempts.
func retried[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	pause := settlePause
	for {
		v, err := fn()
		if !errors.Is(err, ports.ErrUnavailable) {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(pause):
		}
		pause = min(2*pause, settleMaxPause)
	}
}
