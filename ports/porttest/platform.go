// Package porttest holds one contract suite per port. Every adapter of a port
// runs the same suite: memory and SQLite in unit tests, PostgreSQL and
// MongoDB in e2e. A behaviour that differs between adapters fails here.
// RunAll runs every suite an adapter's Stores provides, in one call; see
// docs/adapters.md.
package porttest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// Platform is the set of account-side stores an adapter provides together,
// because provisioning an account writes to the ledger in one transaction.
type Platform struct {
	Accounts ports.AccountStore
	Sessions ports.SessionStore
	Keys     ports.KeyStore
	Ledger   ports.Ledger
	// Watch, when set, reports changes to keys; RunKeyWatch tests it.
	Watch ports.KeyWatch
	// Buckets and Signins, when set, hold the rate limits shared by every
	// process; RunRateBuckets tests them.
	Buckets ports.RateBuckets
	Signins ports.SigninHistory
	// Idempotency, when set, holds Idempotency-Key claims in the ledger's
	// store; RunIdempotency tests it.
	Idempotency ports.IdempotencyStore
	// Disrupt, when set, breaks the store's sessions the way a failing
	// server does (PostgreSQL: terminate its backends) and returns how many
	// it broke. The fault cases run with it between concurrent writes.
	Disrupt func(t *testing.T) int
	// Close, when set, stops what the store runs in the background while
	// writes are queued; the stores must keep answering afterwards.
	Close func()
}

// NewPlatform returns empty stores for one test.
type NewPlatform func(t *testing.T) Platform

var seq atomic.Int64

// id returns a unique id with the given prefix, so suites never collide even
// when an adapter shares a database between tests.
func id(prefix string) string {
	return fmt.Sprintf("%s_%d_%d", prefix, time.Now().UnixNano(), seq.Add(1))
}

// t0 is a fixed instant at microsecond precision, the precision every
// adapter keeps.
var t0 = time.Date(2026, 7, 20, 9, 30, 0, 123456000, time.UTC)

func provision(t *testing.T, p Platform, credits int64) account.Account {
	t.Helper()
	a := account.Account{ID: id("acc"), Email: id("user") + "@example.com", PasswordHash: "$argon2id$test", CreatedAt: t0}
	grant := ledger.Entry{ID: id("led"), AccountID: a.ID, Kind: ledger.Grant, Amount: credits, CreatedAt: t0}
	if err := p.Accounts.Provision(context.Background(), a, grant); err != nil {
		t.Fatalf("Provision: %v", err)
	}
	return a
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: got %v, want %v", what, err, want)
	}
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// concurrently runs fn n times at once and counts the outcomes: nil for a
// success, or the first of the expected sentinels the error wraps. Any
// other error fails the test.
func concurrently(t *testing.T, n int, fn func() error, expected ...error) map[error]int {
	t.Helper()
	counts := map[error]int{}
	var firstUnexpected error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := fn()
			outcome := classify(err, expected)
			mu.Lock()
			defer mu.Unlock()
			counts[outcome]++
			if outcome == errUnexpected && firstUnexpected == nil {
				firstUnexpected = err
			}
		}()
	}
	wg.Wait()
	if other := counts[errUnexpected]; other > 0 {
		t.Fatalf("%d of %d calls failed with an unexpected error; the first: %v", other, n, firstUnexpected)
	}
	return counts
}

var errUnexpected = errors.New("unexpected error")

func classify(err error, expected []error) error {
	if err == nil {
		return nil
	}
	for _, want := range expected {
		if errors.Is(err, want) {
			return want
		}
	}
	return errUnexpected
}
