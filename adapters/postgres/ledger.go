package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/adapters/internal/groupcommit"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// debitSQL applies one debit; debitTry says how it stays correct.
const debitSQL = `
WITH k AS (
	SELECT 1 FROM api_keys
	WHERE id = $5 AND account_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $7)
	FOR SHARE
), a AS (
	UPDATE accounts SET balance = balance + $2
	WHERE id = $1 AND balance + $2 >= 0 AND EXISTS (SELECT 1 FROM k)
	RETURNING balance
), e AS (
	INSERT INTO ledger_entries (id, account_id, kind, amount, route, key_id, request_id, created_at)
	SELECT $3, $1, 'debit', $2, $4, $5, $6, $7 FROM a
)
SELECT balance FROM a`

// refundSQL inserts the refund only if it exactly reverses a debit of the
// same account, then credits the account with what was inserted. The unique
// refund_of makes a second refund, concurrent or not, a unique violation.
const refundSQL = `
WITH d AS (
	SELECT id FROM ledger_entries
	WHERE id = $3 AND account_id = $1 AND kind = 'debit' AND amount = -($2::bigint)
), e AS (
	INSERT INTO ledger_entries (id, account_id, kind, amount, route, key_id, request_id, refund_of, created_at)
	SELECT $4, $1, 'refund', $2, $5, $6, $7, d.id, $8 FROM d
	RETURNING amount
)
UPDATE accounts SET balance = balance + e.amount FROM e
WHERE accounts.id = $1
RETURNING accounts.balance`

// verifySQL reads every balance and every sum in one snapshot, so a debit
// committing meanwhile cannot show up as a mismatch.
const verifySQL = `
SELECT a.id, a.balance, coalesce(s.total, 0)::bigint
FROM accounts a
LEFT JOIN (
	SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id
) s ON s.account_id = a.id
WHERE a.balance <> coalesce(s.total, 0)
ORDER BY a.id`

const entryColumns = `id, account_id, kind, amount, route, key_id, request_id, coalesce(refund_of, ''), reason, created_at`

// grantSQL appends an operator's grant and credits the account with it; the
// foreign key refuses an unknown account.
const grantSQL = `
WITH e AS (
	INSERT INTO ledger_entries (id, account_id, kind, amount, reason, created_at)
	VALUES ($1, $2, 'grant', $3, $4, $5)
	RETURNING amount
)
UPDATE accounts SET balance = balance + e.amount FROM e
WHERE accounts.id = $2
RETURNING accounts.balance`

// Debit appends the debit if and only if the balance covers it and returns
// the balance after it. It returns ports.ErrInsufficientCredits, writing
// nothing, when it does not, and ports.ErrNotFound for an unknown account.
// A debit whose id is held already is answered as ports.Ledger says.
//
// Concurrent debits of one account are group-committed (see batch.go): the
// debit joins the account's queue and Debit waits for its own outcome. If ctx
// ends while the debit is still queued it is withdrawn and never applied;
// once a batch has taken it, Debit waits for the batch, so that the answer
// always matches the database.
func (s *Store) Debit(ctx context.Context, e ledger.Entry) (int64, error) {
	if err := checkEntry(e, ledger.Debit); err != nil {
		return 0, err
	}
	res, err := s.debits.Do(ctx, e.AccountID, e)
	switch {
	case errors.Is(err, groupcommit.ErrClosed):
		return s.debitOne(ctx, e) // closed: no batcher may start any more
	case err != nil:
		return 0, translate("debit "+e.AccountID, err) // ctx ended before a batch took it
	}
	return res.balance, res.err
}

// debitOne applies a single debit in one statement (see debitTry), learning
// its outcome if the first attempt loses it.
func (s *Store) debitOne(ctx context.Context, e ledger.Entry) (int64, error) {
	return s.write(ctx, "debit "+e.ID, s.debitTry(e))
}

// debitTry returns one attempt at the debit: one statement, so one round
// trip and atomic. The guarded UPDATE takes the account's row lock and
// re-checks the balance after any concurrent debit commits, so no
// interleaving can overdraw; the entry is inserted only from the row the
// UPDATE returned, and a taken id fails the whole statement.
//
// The debit first share-locks its key's row, and only if the key is live:
// a revocation (an UPDATE of that row) waits for the debits holding the
// lock, and a debit locking after a revocation committed re-reads the row,
// finds it revoked and applies nothing. So no debit commits after the
// revocation of its key has returned, whatever a node has cached. Keys are
// locked before accounts here and in a batch, one order for all.
func (s *Store) debitTry(e ledger.Entry) attempt {
	return func(ctx context.Context) (int64, error) {
		var balance int64
		err := s.pool.QueryRow(ctx, debitSQL,
			e.AccountID, e.Amount, e.ID, e.Route, e.KeyID, e.RequestID, e.CreatedAt).Scan(&balance)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return s.refusedDebit(ctx, e)
		case isUniqueViolation(err):
			return s.replay(ctx, e)
		}
		return balance, err
	}
}

// refusedDebit explains, off the hot path, why the debit statement matched no
// account: the debit was applied before (and has since spent the balance),
// or the account is unknown, or its key is not live, or it is short of
// credits.
func (s *Store) refusedDebit(ctx context.Context, e ledger.Entry) (int64, error) {
	if bal, err := s.replay(ctx, e); !errors.Is(err, ports.ErrNotFound) {
		return bal, err // already applied (its balance now), or a conflict
	}
	var known, live bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1),
		EXISTS (SELECT 1 FROM api_keys WHERE id = $2 AND account_id = $1 AND revoked_at IS NULL
			AND (expires_at IS NULL OR expires_at > $3))`,
		e.AccountID, e.KeyID, e.CreatedAt).Scan(&known, &live)
	switch {
	case err != nil:
		return 0, err
	case !known:
		return 0, fmt.Errorf("postgres: debit %s: unknown account: %w", e.AccountID, ports.ErrNotFound)
	case !live:
		return 0, keyRevoked(e)
	}
	return 0, fmt.Errorf("postgres: debit %s of %d: %w", e.AccountID, -e.Amount, ports.ErrInsufficientCredits)
}

func keyRevoked(e ledger.Entry) error {
	return fmt.Errorf("postgres: debit %s: key %s is not a live key of the account: %w", e.ID, e.KeyID, ports.ErrKeyRevoked)
}

// Refund appends the refund reversing the debit it names and returns the
// balance after it. A second refund of one debit is ports.ErrConflict; a debit
// that is unknown, of another account or of another amount is
// ports.ErrNotFound.
func (s *Store) Refund(ctx context.Context, e ledger.Entry) (int64, error) {
	if err := checkEntry(e, ledger.Refund); err != nil {
		return 0, err
	}
	return s.write(ctx, "refund of debit "+e.RefundOf, func(ctx context.Context) (int64, error) {
		var balance int64
		err := s.pool.QueryRow(ctx, refundSQL,
			e.AccountID, e.Amount, e.RefundOf, e.ID, e.Route, e.KeyID, e.RequestID, e.CreatedAt).Scan(&balance)
		if errors.Is(err, pgx.ErrNoRows) {
			return 0, fmt.Errorf("postgres: refund %s: no such debit %s: %w", e.ID, e.RefundOf, ports.ErrNotFound)
		}
		if isUniqueViolation(err) {
			return s.replayOr(ctx, e, fmt.Errorf("postgres: debit %s is refunded already: %w", e.RefundOf, ports.ErrConflict))
		}
		return balance, err
	})
}

// Grant appends an operator's grant to an existing account and returns the
// balance after it; an unknown account is ports.ErrNotFound.
func (s *Store) Grant(ctx context.Context, e ledger.Entry) (int64, error) {
	if err := checkEntry(e, ledger.Grant); err != nil {
		return 0, err
	}
	return s.write(ctx, "grant "+e.ID, func(ctx context.Context) (int64, error) {
		var balance int64
		err := s.pool.QueryRow(ctx, grantSQL, e.ID, e.AccountID, e.Amount, e.Reason, e.CreatedAt).Scan(&balance)
		if isUniqueViolation(err) {
			return s.replay(ctx, e)
		}
		return balance, err
	})
}

// replay answers a write whose id may be taken: the current balance when the
// held entry is the same one (already applied), ports.ErrConflict when it is
// another, and ports.ErrNotFound when the id is free.
func (s *Store) replay(ctx context.Context, e ledger.Entry) (int64, error) {
	return s.replayOr(ctx, e, fmt.Errorf("postgres: entry %s is not held: %w", e.ID, ports.ErrNotFound))
}

// replayOr is replay answering free with the given error.
func (s *Store) replayOr(ctx context.Context, e ledger.Entry, free error) (int64, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+entryColumns+` FROM ledger_entries WHERE id = $1`, e.ID)
	if err != nil {
		return 0, err
	}
	held, err := pgx.CollectExactlyOneRow(rows, scanEntry)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, free
	case err != nil:
		return 0, err
	case !held.SameAs(e):
		return 0, fmt.Errorf("postgres: entry id %s is taken by another entry: %w", e.ID, ports.ErrConflict)
	}
	var balance int64
	err = s.pool.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1`, e.AccountID).Scan(&balance)
	return balance, err
}

// Balance returns the account's balance, or ports.ErrNotFound.
func (s *Store) Balance(ctx context.Context, accountID string) (int64, error) {
	var balance int64
	err := s.pool.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1`, accountID).Scan(&balance)
	if err != nil {
		return 0, translate("balance of "+accountID, err)
	}
	return balance, nil
}

// Statement reads the balance, one page of entries and their count in one
// read-only REPEATABLE READ transaction, so all three see the same instant.
func (s *Store) Statement(ctx context.Context, accountID string, limit, offset int) (ledger.Statement, error) {
	op := "statement of " + accountID
	var st ledger.Statement
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		batch := &pgx.Batch{}
		batch.Queue(`SELECT balance FROM accounts WHERE id = $1`, accountID).QueryRow(func(row pgx.Row) error {
			return row.Scan(&st.Balance)
		})
		batch.Queue(`SELECT `+entryColumns+` FROM ledger_entries WHERE account_id = $1
			ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, accountID, max(limit, 0), max(offset, 0)).Query(func(rows pgx.Rows) error {
			var err error
			st.Entries, err = pgx.CollectRows(rows, scanEntry)
			return err
		})
		batch.Queue(`SELECT count(*) FROM ledger_entries WHERE account_id = $1`, accountID).QueryRow(func(row pgx.Row) error {
			return row.Scan(&st.Total)
		})
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		return ledger.Statement{}, translate(op, err)
	}
	return st, nil
}

// usageSQL sums debits and refunds per UTC day and route; the history index
// serves the account's entries from since on.
const usageSQL = `
SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, route, -sum(amount)::bigint
FROM ledger_entries
WHERE account_id = $1 AND created_at >= $2 AND kind <> 'grant'
GROUP BY day, route
HAVING sum(amount) <> 0
ORDER BY day, route`

// Usage returns what the account spent per UTC day and route from since on.
func (s *Store) Usage(ctx context.Context, accountID string, since time.Time) ([]ledger.Usage, error) {
	rows, err := s.pool.Query(ctx, usageSQL, accountID, since)
	if err != nil {
		return nil, translate("usage of "+accountID, err)
	}
	usage, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ledger.Usage, error) {
		var u ledger.Usage
		var day time.Time
		err := row.Scan(&day, &u.Route, &u.Credits)
		// timestamp without time zone: its wall clock is the UTC day.
		u.Day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
		return u, err
	})
	if err != nil {
		return nil, translate("usage of "+accountID, err)
	}
	return usage, nil
}

// Verify compares every account's balance with the sum of its entries and
// returns the accounts where they differ.
func (s *Store) Verify(ctx context.Context) ([]ledger.Mismatch, error) {
	rows, err := s.pool.Query(ctx, verifySQL)
	if err != nil {
		return nil, translate("verify ledger", err)
	}
	mismatches, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ledger.Mismatch, error) {
		var m ledger.Mismatch
		err := row.Scan(&m.AccountID, &m.Balance, &m.Sum)
		return m, err
	})
	if err != nil {
		return nil, translate("verify ledger", err)
	}
	return mismatches, nil
}

// scanEntry reads a row of entryColumns, with its time in UTC.
func scanEntry(row pgx.CollectableRow) (ledger.Entry, error) {
	var e ledger.Entry
	err := row.Scan(&e.ID, &e.AccountID, &e.Kind, &e.Amount, &e.Route, &e.KeyID, &e.RequestID, &e.RefundOf, &e.Reason, &e.CreatedAt)
	e.CreatedAt = e.CreatedAt.UTC()
	return e, err
}

// checkEntry applies the domain's rules to an entry before it is written,
// including that it is of the kind the method writes.
func checkEntry(e ledger.Entry, kind ledger.Kind) error {
	if e.Kind != kind {
		return fmt.Errorf("postgres: entry %s is a %s, want a %s: %w", e.ID, e.Kind, kind, ledger.ErrInvalidEntry)
	}
	if err := e.Validate(); err != nil {
		return fmt.Errorf("postgres: entry %s: %w", e.ID, err)
	}
	return nil
}

// Settle reports whether e is held. It first takes the account's row lock,
// which every debit, refund and grant of the account holds until it commits
// or rolls back (a commit waiting for a synchronous standby included), so
// no write of the account is in flight when it reads the entry.
func (s *Store) Settle(ctx context.Context, e ledger.Entry) (bool, error) {
	var held bool
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, e.AccountID); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT `+entryColumns+` FROM ledger_entries WHERE id = $1`, e.ID)
		if err != nil {
			return err
		}
		found, err := pgx.CollectRows(rows, scanEntry)
		if err != nil {
			return err
		}
		held = len(found) == 1
		if held && !found[0].SameAs(e) {
			return fmt.Errorf("postgres: entry id %s is taken by another entry: %w", e.ID, ports.ErrConflict)
		}
		return nil
	})
	return held, finish("settle "+e.ID, err)
}
