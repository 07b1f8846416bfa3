package postgres

// Group commit for debits. Every request of an API key debits the same
// account row, so one-statement-per-debit serializes all of them on that
// row's lock and pays a commit each: throughput falls as concurrency rises.
// Instead, the debits of one account queue up and a single goroutine per busy
// account commits them in batches (package groupcommit, keyed by account),
// one transaction each: lock the row, decide in Go which debits fit, insert
// the accepted ones in one statement, write the new balance, commit. The row
// lock is still taken, so several instances sharing the database stay
// correct; they merely batch independently.
//
// Batching is natural, not timed: a batcher takes whatever is queued the
// moment it is free, so a lone debit never waits and a burst is absorbed by
// the next batch while the current one commits.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// maxBatch caps the debits of one transaction, bounding its statement size
// and the time the row lock is held; what is left waits for the next batch.
const maxBatch = 256

// lockKeysSQL share-locks the batch's keys that are not revoked, before the
// account, as debitTry does, and reads their expiry: the batch refuses the
// debits of the others and those written after their key expired, and a
// revocation waits for the batch to commit.
const lockKeysSQL = `SELECT id, expires_at FROM api_keys WHERE id = ANY ($2) AND account_id = $1 AND revoked_at IS NULL FOR SHARE`

// lockBalanceSQL reads the balance under the row lock, which holds off other
// instances' batches and single debits or refunds until this one commits.
const lockBalanceSQL = `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`

// insertDebitsSQL appends the accepted debits in one statement, each with the
// id, attribution and time its caller gave.
const insertDebitsSQL = `
INSERT INTO ledger_entries (id, account_id, kind, amount, route, key_id, request_id, created_at)
SELECT u.id, $1, 'debit', u.amount, u.route, u.key_id, u.request_id, u.created_at
FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
	AS u(id, amount, route, key_id, request_id, created_at)`

// setBalanceSQL writes the balance the batch computed under the lock.
const setBalanceSQL = `UPDATE accounts SET balance = $2 WHERE id = $1`

// debitResult is the outcome of one debit of a batch.
type debitResult struct {
	balance int64
	err     error
	// refused means the batch did not write it (its key is not live, or
	// the balance did not cover it); it is then written again by itself,
	// which also tells a debit applied earlier under its id (the caller
	// sent it again) from one that was never applied.
	refused bool
}

// Close stops the debit batchers and waits for them. The batch in flight
// commits and answers its callers; debits still queued go back to their
// callers, who run them one statement each, as does any later Debit. Call
// Close before closing the pool, which the batch in flight still needs. It
// is safe to call more than once.
func (s *Store) Close() { s.debits.Close() }

// commitDebits applies one batch of the account's debits and returns the
// outcome of each.
func (s *Store) commitDebits(accountID string, batch []ledger.Entry) []debitResult {
	// A batch, its one-by-one retry included, is bounded by the Store's
	// timeout. It does not run on any caller's context, since one caller
	// giving up must not fail the others, so it needs a bound of its own
	// against a database that does not answer.
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	if len(batch) == 1 {
		// A transaction costs two round trips where the single statement
		// costs one, and buys nothing for one debit.
		bal, err := s.debitOne(ctx, batch[0])
		return []debitResult{{balance: bal, err: err}}
	}
	results, err := s.debitBatch(ctx, accountID, batch)
	if err != nil {
		// Rolled back (typically one entry's id is taken, failing the whole
		// INSERT) or of unknown outcome (the connection broke or the server
		// ended the session, perhaps after COMMIT ran): either way every
		// debit is written again by itself. Writes are idempotent by id, so
		// a debit the batch did commit is found "already applied", and one
		// it did not is applied now or refused with its own error.
		for i, e := range batch {
			results[i].balance, results[i].err = s.settle(ctx, "debit "+e.ID, s.debitTry(e))
		}
		return results
	}
	for i, e := range batch {
		if results[i].refused {
			results[i].balance, results[i].err = s.debitOne(ctx, e)
		}
	}
	return results
}

// debitBatch runs the batch as one transaction in two round trips: BEGIN with
// the locking reads of the keys and the balance, then the INSERT, the
// balance UPDATE and COMMIT in one pipeline. It returns one result per
// debit, in order, or an error when the batch failed, whether or not it
// committed.
func (s *Store) debitBatch(ctx context.Context, accountID string, batch []ledger.Entry) ([]debitResult, error) {
	results := make([]debitResult, len(batch))
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return results, err
	}
	// A connection left inside a transaction (ROLLBACK failed too) is
	// destroyed by Release rather than returned to the pool.
	defer conn.Release()
	rollback := func(cause error) error {
		_, _ = conn.Exec(ctx, "ROLLBACK")
		return cause
	}

	var balance int64
	keyIDs := make([]string, 0, 1)
	for _, e := range batch {
		if !slices.Contains(keyIDs, e.KeyID) {
			keyIDs = append(keyIDs, e.KeyID)
		}
	}
	// unrevoked holds each unrevoked key's expiry (nil for a standing key).
	unrevoked := make(map[string]*time.Time, len(keyIDs))
	open := &pgx.Batch{}
	open.Queue("BEGIN")
	open.Queue(lockKeysSQL, accountID, keyIDs).Query(func(rows pgx.Rows) error {
		var id string
		var expires *time.Time
		_, err := pgx.ForEachRow(rows, []any{&id, &expires}, func() error {
			unrevoked[id] = expires
			return nil
		})
		return err
	})
	open.Queue(lockBalanceSQL, accountID).QueryRow(func(row pgx.Row) error { return row.Scan(&balance) })
	err = conn.SendBatch(ctx, open).Close()
	if errors.Is(err, pgx.ErrNoRows) {
		notFound := fmt.Errorf("postgres: debit %s: unknown account: %w", accountID, ports.ErrNotFound)
		for i := range results {
			results[i].err = notFound
		}
		_, _ = conn.Exec(ctx, "ROLLBACK")
		return results, nil // the transaction wrote nothing, whatever ROLLBACK says
	}
	if err != nil {
		return results, rollback(err) // no COMMIT was sent
	}

	// Decide in arrival order: each accepted debit lowers the balance the
	// next one is checked against, and a refused one writes nothing.
	n := len(batch)
	ids, amounts := make([]string, 0, n), make([]int64, 0, n)
	routes, entryKeyIDs, requestIDs := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	times := make([]time.Time, 0, n)
	for i, e := range batch {
		expires, ok := unrevoked[e.KeyID]
		if !ok || (expires != nil && !e.CreatedAt.Before(*expires)) || balance+e.Amount < 0 {
			results[i].refused = true
			continue
		}
		balance += e.Amount
		results[i].balance = balance
		ids, amounts = append(ids, e.ID), append(amounts, e.Amount)
		routes, entryKeyIDs, requestIDs = append(routes, e.Route), append(entryKeyIDs, e.KeyID), append(requestIDs, e.RequestID)
		times = append(times, e.CreatedAt)
	}

	write := &pgx.Batch{}
	if len(ids) > 0 {
		write.Queue(insertDebitsSQL, accountID, ids, amounts, routes, entryKeyIDs, requestIDs, times)
		write.Queue(setBalanceSQL, accountID, balance)
	}
	write.Queue("COMMIT")
	if err := conn.SendBatch(ctx, write).Close(); err != nil {
		return results, rollback(err)
	}
	return results, nil
}
