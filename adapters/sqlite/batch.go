package sqlite

// Group commit for debits. SQLite has one writer, and with synchronous=FULL
// every commit is an fsync of the WAL: one transaction per debit would cap
// a hot key at the disk's fsync rate. Instead every debit joins one queue
// (package groupcommit, under a single key), and one goroutine, the
// writer, commits them in batches of one transaction each: per debit, look
// its id up, check its key and the balance, insert it; then write each
// touched account's balance once and commit, one fsync for the batch.
// Accounts need no queue of their own: their writes are serialized by
// SQLite anyway. The writer runs while debits are queued or in flight.
//
// Batching is natural, not timed: the writer takes whatever is queued the
// moment it is free, so a lone debit never waits and a burst is absorbed by
// the next batch while the current one commits.

import (
	"context"
	"database/sql"
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

// debitResult is the outcome of one debit of a batch.
type debitResult struct {
	balance int64
	err     error
}

// oneQueue is the key every debit is queued under: one queue, one writer.
type oneQueue struct{}

// commitBatch applies one batch and returns the outcome of each debit. If
// the batch failed, every debit is written again by itself, so that one
// debit's failure is its own. When the batch's COMMIT failed, the retries
// settle it: writes are idempotent by id, so a debit the batch did commit
// is found "already applied", and one it did not is applied now or refused
// with its own error.
func (s *Store) commitBatch(_ oneQueue, batch []ledger.Entry) []debitResult {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	results, err := s.debitBatch(ctx, batch)
	if err != nil {
		settleCtx, cancelSettle := context.WithTimeout(context.Background(), settleTimeout)
		defer cancelSettle()
		for i, e := range batch {
			op, try := "debit "+e.ID, s.debitTry(e)
			if outcomeUnknown(err) {
				results[i].balance, results[i].err = s.settle(settleCtx, op, try)
			} else {
				results[i].balance, results[i].err = s.writeLedger(settleCtx, op, try)
			}
		}
	}
	return results
}

// debitBatch runs the batch as one transaction, deciding the debits in
// arrival order: each accepted debit lowers the balance the next one of its
// account is checked against, and a refused one writes nothing. It returns
// one result per debit, or an error when the transaction failed.
func (s *Store) debitBatch(ctx context.Context, batch []ledger.Entry) ([]debitResult, error) {
	results := make([]debitResult, len(batch))
	_, err := s.once(ctx, func(ctx context.Context, tx *sql.Tx) (int64, error) {
		l := s.newLedgerTx(ctx, tx)
		for i, e := range batch {
			bal, err := l.debit(ctx, e)
			if err != nil && !isSentinel(err) {
				return 0, err
			}
			results[i] = debitResult{balance: bal, err: err}
		}
		return 0, l.flush(ctx)
	})
	return results, err
}
