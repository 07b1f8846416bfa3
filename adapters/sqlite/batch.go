package sqlite

// Group commit for debits. SQLite has one writer, and with synchronous=FULL
// every commit is an fsync of the WAL: one transaction per debit would cap
// a hot key at the disk's fsync rate. Instead every debit joins one queue,
// and one goroutine, the writer, commits them in batches of one
// transaction each: per debit, look its id up, check its key and the
// balance, insert it; then write each touched account's balance once and
// commit, one fsync for the batch. Accounts need no queue of their own:
// their writes are serialized by SQLite anyway.
//
// Batching is natural, not timed: the writer takes whatever is queued the
// moment it is free, so a lone debit never waits and a burst is absorbed by
// the next batch while the current one commits.

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quarrydata/quarry/domain/ledger"
)

// maxBatch caps the debits of one transaction, bounding how long it holds
// the write lock; what is left waits for the next batch.
const maxBatch = 256

// batchTimeout bounds a batch. A batch does not run on any caller's
// context, since one caller giving up must not fail the others, so it
// needs a bound of its own.
const batchTimeout = 10 * time.Second

// States of a debitRequest. Only the transition out of requestQueued is
// contended, between the caller giving up and a batch taking the debit, and
// a compare-and-swap settles it: exactly one of them wins.
const (
	requestQueued int32 = iota
	requestTaken
	requestWithdrawn
)

// debitRequest is one caller's debit waiting in the queue.
type debitRequest struct {
	entry ledger.Entry
	state atomic.Int32
	// done receives the outcome once; buffered so that the writer never
	// blocks on a caller.
	done chan debitResult
}

// debitResult is the outcome of one debit. alone means it was not run: the
// writer stopped while it was queued, and the caller runs it by itself.
type debitResult struct {
	balance int64
	err     error
	alone   bool
}

// batchQueue holds the debits waiting for the writer, in arrival order.
type batchQueue struct {
	mu     sync.Mutex
	queue  []*debitRequest
	closed bool
	wake   chan struct{} // holds one token when debits may be waiting
	exited chan struct{} // closed when the writer has returned
}

// start runs the writer for s.
func (q *batchQueue) start(s *Store) {
	q.wake, q.exited = make(chan struct{}, 1), make(chan struct{})
	go s.runWriter()
}

// enqueue queues the debit and wakes the writer. It returns false,
// queueing nothing, once the writer is stopped.
func (q *batchQueue) enqueue(r *debitRequest) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	q.queue = append(q.queue, r)
	q.signal()
	return true
}

// signal wakes the writer unless a wake-up is pending already.
func (q *batchQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// take removes up to maxBatch debits from the head of the queue, skipping
// the ones their callers withdrew. It returns false once the queue is
// stopped.
func (q *batchQueue) take() ([]*debitRequest, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) > 0 {
		n := min(len(q.queue), maxBatch)
		batch := make([]*debitRequest, 0, n)
		for _, r := range q.queue[:n] {
			if r.state.CompareAndSwap(requestQueued, requestTaken) {
				batch = append(batch, r)
			}
		}
		clear(q.queue[:n]) // the backing array outlives the slice: drop references
		q.queue = q.queue[n:]
		if len(batch) > 0 {
			return batch, true
		}
	}
	return nil, !q.closed
}

// stop stops the writer and waits for it. The batch in flight commits and
// answers its callers; debits still queued go back to their callers, who
// run them one transaction each, as does any later Debit. It is safe to
// call more than once.
func (q *batchQueue) stop() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		for _, r := range q.queue {
			if r.state.CompareAndSwap(requestQueued, requestTaken) {
				r.done <- debitResult{alone: true}
			}
		}
		q.queue = nil
		q.signal()
	}
	q.mu.Unlock()
	<-q.exited
}

// runWriter commits batches until the queue is stopped, sleeping while it
// is empty.
func (s *Store) runWriter() {
	defer close(s.batch.exited)
	for {
		batch, open := s.batch.take()
		switch {
		case !open:
			return
		case len(batch) == 0:
			<-s.batch.wake
		default:
			s.commitBatch(batch)
		}
	}
}

// commitBatch applies one batch and answers every caller. If the batch
// failed, every debit is written again by itself, so that one debit's
// failure is its own. When the batch's COMMIT failed, the retries settle
// it: writes are idempotent by id, so a debit the batch did commit is
// found "already applied", and one it did not is applied now or refused
// with its own error.
func (s *Store) commitBatch(batch []*debitRequest) {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	results, err := s.debitBatch(ctx, batch)
	if err != nil {
		settleCtx, cancelSettle := context.WithTimeout(context.Background(), settleTimeout)
		defer cancelSettle()
		for i, r := range batch {
			op, try := "debit "+r.entry.ID, s.debitTry(r.entry)
			if outcomeUnknown(err) {
				results[i].balance, results[i].err = s.settle(settleCtx, op, try)
			} else {
				results[i].balance, results[i].err = s.writeLedger(settleCtx, op, try)
			}
		}
	}
	for i, r := range batch {
		r.done <- results[i]
	}
}

// debitBatch runs the batch as one transaction, deciding the debits in
// arrival order: each accepted debit lowers the balance the next one of its
// account is checked against, and a refused one writes nothing. It returns
// one result per debit, or an error when the transaction failed.
func (s *Store) debitBatch(ctx context.Context, batch []*debitRequest) ([]debitResult, error) {
	results := make([]debitResult, len(batch))
	_, err := s.once(ctx, func(ctx context.Context, tx *sql.Tx) (int64, error) {
		l := s.newLedgerTx(ctx, tx)
		for i, r := range batch {
			bal, err := l.debit(ctx, r.entry)
			if err != nil && !isSentinel(err) {
				return 0, err
			}
			results[i] = debitResult{balance: bal, err: err}
		}
		return 0, l.flush(ctx)
	})
	return results, err
}
