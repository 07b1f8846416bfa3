package platform

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"

	"github.com/maypok86/otter/v2"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// touchEvery bounds how often a key's last use is written: once a minute is
// precise enough for an audit column and keeps a write off most requests.
const touchEvery = time.Minute

// Metering authenticates API keys, checks their permissions, and charges
// and refunds requests on the ledger.
//
// Keys may come from a cache (KeyCache): the ledger checks in the debit
// itself that the key is not revoked, so a request is never charged or
// served with a key whose revocation has returned.
type Metering struct {
	keys   ports.KeyStore
	ledger ports.Ledger
	now    usecase.Clock
	// touched holds the keys whose last use this process recorded within
	// touchEvery: a cached key's LastUsedAt does not move when it is
	// written, so it alone would let every request write.
	touched *otter.Cache[string, struct{}]
	// storeTimeout bounds the settling of a debit of unknown outcome on
	// the request's time (settle.go).
	storeTimeout time.Duration
}

// NewMetering wires the metering use case.
func NewMetering(k ports.KeyStore, l ports.Ledger, now usecase.Clock) *Metering {
	touched := otter.Must(&otter.Options[string, struct{}]{
		MaximumSize:      keyCacheSize,
		ExpiryCalculator: otter.ExpiryCreating[string, struct{}](touchEvery),
		Clock:            readcache.OtterClock{Now: now},
	})
	return &Metering{keys: k, ledger: l, now: now, touched: touched, storeTimeout: DefaultStoreTimeout}
}

// Authenticate returns the live key behind a raw X-API-KEY value. A
// malformed key is refused before any lookup.
func (m *Metering) Authenticate(ctx context.Context, raw string) (apikey.Key, error) {
	if raw == "" {
		return apikey.Key{}, fmt.Errorf("%w: missing X-API-KEY header", ErrUnauthorized)
	}
	if err := apikey.Check(raw); err != nil {
		return apikey.Key{}, fmt.Errorf("%w: malformed API key", ErrUnauthorized)
	}
	k, err := m.keys.KeyByHash(ctx, apikey.Digest(raw))
	if errors.Is(err, ports.ErrNotFound) {
		return apikey.Key{}, fmt.Errorf("%w: unknown API key", ErrUnauthorized)
	}
	if err != nil {
		return apikey.Key{}, err
	}
	if k.RevokedAt != nil {
		return apikey.Key{}, fmt.Errorf("%w: %s was revoked", ErrUnauthorized, credentialName(k))
	}
	if k.Expired(m.now()) {
		return apikey.Key{}, fmt.Errorf("%w: %s expired; mint another", ErrUnauthorized, credentialName(k))
	}
	return k, nil
}

// touchDue reports whether the key's use is to be recorded now, at most
// once a minute per process, and marks it so. A key's last use is audit
// data: its failure is the caller's to log, never a reason to fail the
// request, and it is not tried again within the minute.
func (m *Metering) touchDue(k apikey.Key) bool {
	if k.LastUsedAt != nil && m.now().Sub(*k.LastUsedAt) < touchEvery {
		return false
	}
	_, fresh := m.touched.SetIfAbsent(k.ID, struct{}{})
	return fresh // false: recorded within the minute, or being recorded now
}

// recordUse writes that the key was used now.
func (m *Metering) recordUse(ctx context.Context, k apikey.Key) error {
	return m.keys.TouchKey(ctx, k.ID, m.now())
}

// Authorize checks that the key holds every permission required.
func (m *Metering) Authorize(k apikey.Key, required []scope.Permission) error {
	if missing := scope.Missing(scope.FromStrings(k.Scopes), required); len(missing) > 0 {
		return fmt.Errorf("%w: this operation requires %v", ErrForbidden, scope.Strings(missing))
	}
	return nil
}

// Charge is a debit that has been applied.
type Charge struct {
	Entry   ledger.Entry
	Balance int64
}

// Charge debits cost credits for one request, atomically refusing an
// overdraft with ports.ErrInsufficientCredits. A debit whose outcome the
// ledger lost is settled as not charged (settle.go) and answered with
// ports.ErrUnavailable; ports.ErrOutcomeUnknown never leaves Charge.
//
// The debit and its settling share one store timeout from the call, so a
// ledger that does not answer holds the request about that long, not a
// timeout for each step; a debit still queued at the deadline is
// withdrawn unapplied.
func (m *Metering) Charge(ctx context.Context, k apikey.Key, route, requestID string, cost int64) (Charge, error) {
	e := debitEntry(k, route, requestID, cost, m.now())
	ctx, cancel := m.bounded(ctx)
	defer cancel()
	bal, err := m.ledger.Debit(ctx, e)
	if errors.Is(err, ports.ErrOutcomeUnknown) {
		return Charge{}, m.notCharged(ctx, e, err)
	}
	if errors.Is(err, ports.ErrKeyRevoked) {
		// Revoked after it was authenticated, perhaps on another node, or
		// a browser credential that expired meanwhile.
		if k.Kind() == apikey.Browser {
			return Charge{}, fmt.Errorf("%w: %s was revoked or has expired", ErrUnauthorized, credentialName(k))
		}
		return Charge{}, fmt.Errorf("%w: %s was revoked", ErrUnauthorized, credentialName(k))
	}
	if err != nil {
		return Charge{}, err
	}
	return Charge{Entry: e, Balance: bal}, nil
}

// debitEntry is the debit of one request.
func debitEntry(k apikey.Key, route, requestID string, cost int64, at time.Time) ledger.Entry {
	return ledger.Entry{
		ID: NewID("led"), AccountID: k.AccountID, Kind: ledger.Debit, Amount: -cost,
		Route: route, KeyID: k.ID, RequestID: requestID, CreatedAt: at,
	}
}

// Refund reverses a charge whose request ended in an error and returns the
// balance after it. A refund the store does not confirm (unavailable, or of
// unknown outcome) is written again in the background until it is kept,
// and answered with ErrRefundPending: the request costs nothing, though the
// balance after it is not known yet.
func (m *Metering) Refund(ctx context.Context, c Charge) (int64, error) {
	r := ledger.NewRefund(c.Entry, NewID("led"), m.now())
	bal, err := m.ledger.Refund(ctx, r)
	if errors.Is(err, ports.ErrUnavailable) {
		m.refundLater(r)
		return 0, fmt.Errorf("%w: %w", ErrRefundPending, err)
	}
	return bal, err
}

// Balance returns the account's balance.
func (m *Metering) Balance(ctx context.Context, accountID string) (int64, error) {
	return m.ledger.Balance(ctx, accountID)
}

// credentialName names k in an error as its owner knows it: an API key by
// its prefix, as the key list shows it, a browser credential by its id
// (bcr_...), as the API, the console and the ledger name it (spec-gaps
// B196); a credential's prefix is only the qk_ every secret starts with.
func credentialName(k apikey.Key) string {
	if k.Kind() == apikey.Browser {
		return "browser credential " + k.ID
	}
	return "API key " + k.Prefix
}
