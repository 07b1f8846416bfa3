package porttest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// RunIdempotency is the contract of IdempotencyStore: a claim and its debit
// are one step, a complete response replays byte for byte at no cost, the
// same key with another request or while its request runs changes nothing,
// keys are the account's own, and of concurrent requests under one key
// exactly one is charged.
func RunIdempotency(t *testing.T, newPlatform NewPlatform) {
	stores := func(t *testing.T) Platform {
		t.Helper()
		p := newPlatform(t)
		if p.Idempotency == nil {
			t.Skip("the platform keeps no idempotency keys")
		}
		return p
	}
	t.Run("first request charged, the same request replayed free", func(t *testing.T) { testReplay(t, stores(t)) })
	t.Run("another request under the key, or one while it runs, changes nothing", func(t *testing.T) { testRefusals(t, stores(t)) })
	t.Run("keys are the account's own", func(t *testing.T) { testKeysPerAccount(t, stores(t)) })
	t.Run("concurrent requests under one key: one debit", func(t *testing.T) { testConcurrentClaims(t, stores(t)) })
	t.Run("a refused debit claims nothing; a released key is free", func(t *testing.T) { testRefusedAndReleased(t, stores(t)) })
	t.Run("leases and retention lapse; sweep forgets", func(t *testing.T) { testExpiry(t, stores(t)) })
	t.Run("Begin again with its own debit is already applied", func(t *testing.T) { testBeginRetried(t, stores(t)) })
	t.Run("a body too large to keep completes but is not replayed", func(t *testing.T) { testNotStored(t, stores(t)) })
}

// claimFor is a claim of the account's key with the request digest and
// a fresh debit of cost, at t.
func claimFor(accountID, key, digest string, cost int64, at time.Time) (idempotency.Claim, ledger.Entry) {
	d := debit(accountID, cost)
	d.Route, d.CreatedAt = "POST /india/exports", at
	return idempotency.Claim{AccountID: accountID, Key: key, RequestDigest: digest, DebitID: d.ID, At: at}, d
}

// testBody is larger than a PostgreSQL chunk, so that order is tested.
func testBody() []byte {
	b := make([]byte, 2*1024*1024+12345)
	for i := range b {
		b[i] = byte(i*7 + i/4096)
	}
	return b
}

func responseOf(body []byte) idempotency.Response {
	sum := sha256.Sum256(body)
	return idempotency.Response{
		Status: 200, MediaType: "application/vnd.apache.parquet",
		Header: map[string][]string{"Content-Disposition": {`attachment; filename="x.parquet"`}, "X-As-Of": {"2026-07-20T09:30:00Z"}},
		Size:   int64(len(body)), Digest: hex.EncodeToString(sum[:]), Stored: true,
	}
}

func begin(t *testing.T, p Platform, c idempotency.Claim, d ledger.Entry) ports.Begun {
	t.Helper()
	b, err := p.Idempotency.Begin(context.Background(), c, d)
	must(t, "Begin", err)
	return b
}

func debits(t *testing.T, p Platform, accountID string) int {
	t.Helper()
	st, err := p.Ledger.Statement(context.Background(), accountID, 1000, 0)
	must(t, "Statement", err)
	n := 0
	for _, e := range st.Entries {
		if e.Kind == ledger.Debit {
			n++
		}
	}
	return n
}

func testReplay(t *testing.T, p Platform) {
	ctx := context.Background()
	a := funded(t, p, 100)
	c, d := claimFor(a.ID, "order-1", "digest-a", 50, t0)
	b := begin(t, p, c, d)
	if !b.Started || b.Balance != 50 {
		t.Fatalf("first Begin = %+v, want started with balance 50", b)
	}
	body := testBody()
	resp := responseOf(body)
	must(t, "Complete", p.Idempotency.Complete(ctx, c, resp, bytes.NewReader(body)))

	again, d2 := claimFor(a.ID, "order-1", "digest-a", 50, t0.Add(time.Hour))
	b = begin(t, p, again, d2)
	if b.Started {
		t.Fatal("the same request under a complete key was started again")
	}
	r := b.Replay
	if r.State != idempotency.Complete || r.DebitID != d.ID || r.Response.Digest != resp.Digest || r.Response.Size != resp.Size ||
		r.Response.MediaType != resp.MediaType || r.Response.Status != 200 || !r.Response.Stored ||
		r.Response.Header["X-As-Of"][0] != "2026-07-20T09:30:00Z" || r.Response.Header["Content-Disposition"][0] != resp.Header["Content-Disposition"][0] {
		t.Fatalf("replayed record %+v, want the completed response %+v", r, resp)
	}
	if !r.ExpiresAt.Equal(t0.Add(idempotency.Retention)) {
		t.Errorf("a complete record expires at %v, want %v", r.ExpiresAt, t0.Add(idempotency.Retention))
	}
	var out bytes.Buffer
	must(t, "WriteBody", p.Idempotency.WriteBody(ctx, r, &out))
	sum := sha256.Sum256(out.Bytes())
	if hex.EncodeToString(sum[:]) != resp.Digest || !bytes.Equal(out.Bytes(), body) {
		t.Fatalf("replayed body of %d bytes differs from the %d stored", out.Len(), len(body))
	}
	if n := debits(t, p, a.ID); n != 1 {
		t.Fatalf("%d debits, want 1", n)
	}
	if bal, _ := p.Ledger.Balance(ctx, a.ID); bal != 50 {
		t.Fatalf("balance %d after a replay, want 50", bal)
	}
}

func testRefusals(t *testing.T, p Platform) {
	ctx := context.Background()
	a := funded(t, p, 1000)
	c, d := claimFor(a.ID, "k", "digest-a", 50, t0)
	begin(t, p, c, d)
	running, d2 := claimFor(a.ID, "k", "digest-a", 50, t0.Add(time.Second))
	_, err := p.Idempotency.Begin(ctx, running, d2)
	wantErr(t, "the same request while the first runs", err, idempotency.ErrInProgress)
	other, d3 := claimFor(a.ID, "k", "digest-b", 50, t0.Add(time.Second))
	_, err = p.Idempotency.Begin(ctx, other, d3)
	wantErr(t, "another request while the first runs", err, idempotency.ErrKeyReused)
	must(t, "Complete", p.Idempotency.Complete(ctx, c, responseOf([]byte("a,b\r\n")), bytes.NewReader([]byte("a,b\r\n"))))
	other, d4 := claimFor(a.ID, "k", "digest-b", 50, t0.Add(time.Minute))
	_, err = p.Idempotency.Begin(ctx, other, d4)
	wantErr(t, "another request after the first completed", err, idempotency.ErrKeyReused)
	// A complete claim is not completed twice, nor by another request.
	err = p.Idempotency.Complete(ctx, c, responseOf(nil), bytes.NewReader(nil))
	wantErr(t, "a second Complete", err, ports.ErrNotFound)
	if n := debits(t, p, a.ID); n != 1 {
		t.Fatalf("%d debits, want 1", n)
	}
}

func testKeysPerAccount(t *testing.T, p Platform) {
	a, b := funded(t, p, 100), funded(t, p, 100)
	ca, da := claimFor(a.ID, "shared-key", "digest-a", 50, t0)
	cb, db := claimFor(b.ID, "shared-key", "digest-a", 50, t0)
	if !begin(t, p, ca, da).Started || !begin(t, p, cb, db).Started {
		t.Fatal("one account's key held another's")
	}
	if debits(t, p, a.ID) != 1 || debits(t, p, b.ID) != 1 {
		t.Fatal("each account should have paid once")
	}
}

func testConcurrentClaims(t *testing.T, p Platform) {
	const n = 20
	a := funded(t, p, 10_000)
	var wg sync.WaitGroup
	var mu sync.Mutex
	started, inProgress := 0, 0
	for range n {
		wg.Go(func() {
			c, d := claimFor(a.ID, "burst", "digest-a", 50, t0)
			b, err := p.Idempotency.Begin(context.Background(), c, d)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && b.Started:
				started++
			case errors.Is(err, idempotency.ErrInProgress):
				inProgress++
			default:
				t.Errorf("Begin: %+v, %v", b, err)
			}
		})
	}
	wg.Wait()
	if started != 1 || inProgress != n-1 {
		t.Fatalf("%d started and %d in progress, want 1 and %d", started, inProgress, n-1)
	}
	if got := debits(t, p, a.ID); got != 1 {
		t.Fatalf("%d debits, want exactly 1", got)
	}
	if bal, _ := p.Ledger.Balance(context.Background(), a.ID); bal != 10_000-50 {
		t.Fatalf("balance %d, want %d", bal, 10_000-50)
	}
}

func testRefusedAndReleased(t *testing.T, p Platform) {
	ctx := context.Background()
	a := funded(t, p, 40)
	c, d := claimFor(a.ID, "k", "digest-a", 50, t0)
	_, err := p.Idempotency.Begin(ctx, c, d)
	wantErr(t, "Begin short of credits", err, ports.ErrInsufficientCredits)
	c, d = claimFor(a.ID, "k", "digest-a", 30, t0)
	b := begin(t, p, c, d) // the refused one held nothing
	if !b.Started || b.Balance != 10 {
		t.Fatalf("Begin after a refusal = %+v, want started, balance 10", b)
	}
	must(t, "Release", p.Idempotency.Release(ctx, c))
	c2, d2 := claimFor(a.ID, "k", "digest-b", 10, t0.Add(time.Second))
	if !begin(t, p, c2, d2).Started {
		t.Fatal("a released key was still held")
	}
	// Releasing a claim that is no longer held leaves the holder alone.
	must(t, "stale Release", p.Idempotency.Release(ctx, c))
	_, err = p.Idempotency.Begin(ctx, c, d)
	wantErr(t, "the key after a stale release", err, idempotency.ErrKeyReused)
	err = p.Idempotency.Complete(ctx, c, responseOf(nil), bytes.NewReader(nil))
	wantErr(t, "Complete of a released claim", err, ports.ErrNotFound)
	revoked, dr := claimFor(a.ID, "r", "digest-a", 1, t0)
	dr.KeyID = "key_not_of_the_account"
	_, err = p.Idempotency.Begin(ctx, revoked, dr)
	wantErr(t, "Begin with a key not of the account", err, ports.ErrKeyRevoked)
}

func testExpiry(t *testing.T, p Platform) {
	ctx := context.Background()
	a := funded(t, p, 1000)
	// An in-progress claim whose process died lapses after its lease.
	c, d := claimFor(a.ID, "crashed", "digest-a", 50, t0)
	begin(t, p, c, d)
	late, dl := claimFor(a.ID, "crashed", "digest-a", 50, t0.Add(idempotency.Lease))
	if !begin(t, p, late, dl).Started {
		t.Fatal("a lapsed lease still held its key")
	}
	// A complete one is replayed within the retention, and forgotten after.
	c, d = claimFor(a.ID, "done", "digest-a", 50, t0)
	begin(t, p, c, d)
	must(t, "Complete", p.Idempotency.Complete(ctx, c, responseOf([]byte("x")), bytes.NewReader([]byte("x"))))
	within, dw := claimFor(a.ID, "done", "digest-a", 50, t0.Add(idempotency.Retention-time.Millisecond))
	if begin(t, p, within, dw).Started {
		t.Fatal("a complete key was processed again within its retention")
	}
	after, da := claimFor(a.ID, "done", "digest-b", 50, t0.Add(idempotency.Retention))
	if !begin(t, p, after, da).Started {
		t.Fatal("a key past its retention was still held")
	}
	c, d = claimFor(a.ID, "swept", "digest-a", 50, t0)
	begin(t, p, c, d)
	n, err := p.Idempotency.Sweep(ctx, t0.Add(idempotency.Lease+time.Second))
	must(t, "Sweep", err)
	if n < 1 {
		t.Fatalf("Sweep forgot %d records, want at least the lapsed one", n)
	}
	// The fresh claim on "done" (taken at t0 + 24h) survives the sweep.
	_, err = p.Idempotency.Begin(ctx, after, da)
	must(t, "Begin of the surviving claim", err)
	again, dg := claimFor(a.ID, "done", "digest-b", 50, t0.Add(idempotency.Retention+time.Second))
	_, err = p.Idempotency.Begin(ctx, again, dg)
	wantErr(t, "the surviving claim after the sweep", err, idempotency.ErrInProgress)
}

func testBeginRetried(t *testing.T, p Platform) {
	a := funded(t, p, 100)
	c, d := claimFor(a.ID, "k", "digest-a", 50, t0)
	begin(t, p, c, d)
	b := begin(t, p, c, d)
	if !b.Started || b.Balance != 50 {
		t.Fatalf("Begin retried = %+v, want started with balance 50", b)
	}
	if n := debits(t, p, a.ID); n != 1 {
		t.Fatalf("%d debits after a retried Begin, want 1", n)
	}
}

func testNotStored(t *testing.T, p Platform) {
	ctx := context.Background()
	a := funded(t, p, 100)
	c, d := claimFor(a.ID, "big", "digest-a", 50, t0)
	begin(t, p, c, d)
	resp := responseOf(nil)
	resp.Size, resp.Stored = idempotency.MaxStoredBytes+1, false
	must(t, "Complete", p.Idempotency.Complete(ctx, c, resp, nil))
	again, d2 := claimFor(a.ID, "big", "digest-a", 50, t0.Add(time.Minute))
	b := begin(t, p, again, d2)
	if b.Started || b.Replay.Response.Stored {
		t.Fatalf("Begin = %+v, want a record without its body", b)
	}
	if err := b.Replay.Replayable(); !errors.Is(err, idempotency.ErrNotKept) {
		t.Fatalf("Replayable = %v", err)
	}
	err := p.Idempotency.WriteBody(ctx, b.Replay, &bytes.Buffer{})
	wantErr(t, "WriteBody of a body not kept", err, ports.ErrNotFound)
	if n := debits(t, p, a.ID); n != 1 {
		t.Fatalf("%d debits, want 1", n)
	}
}
