package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/adapters/internal/groupcommit"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// Debit appends the debit if and only if the balance covers it and its key
// is live, and returns the balance after it (see ledgerTx.debit). A debit
// whose id is held already is answered as ports.Ledger says.
//
// Debits are group-committed (see batch.go): the debit joins the writer's
// queue and Debit waits for its own outcome. If ctx ends while the debit is
// still queued it is withdrawn and never applied; once a batch has taken
// it, Debit waits for the batch, so that the answer always matches the
// database.
func (s *Store) Debit(ctx context.Context, e ledger.Entry) (int64, error) {
	if err := checkEntry(e, ledger.Debit); err != nil {
		return 0, err
	}
	res, err := s.debits.Do(ctx, oneQueue{}, e)
	switch {
	case errors.Is(err, groupcommit.ErrClosed):
		return s.debitAlone(ctx, e) // closed: the writer runs no more batches
	case err != nil:
		return 0, translate("debit "+e.ID, err) // ctx ended before a batch took it
	}
	return res.balance, res.err
}

// debitAlone applies one debit in a transaction of its own.
func (s *Store) debitAlone(ctx context.Context, e ledger.Entry) (int64, error) {
	return s.writeLedger(ctx, "debit "+e.ID, s.debitTry(e))
}

// debitTry is one attempt at a debit by itself.
func (s *Store) debitTry(e ledger.Entry) attempt {
	return func(ctx context.Context, tx *sql.Tx) (int64, error) {
		l := s.newLedgerTx(ctx, tx)
		bal, err := l.debit(ctx, e)
		if err != nil {
			return 0, err
		}
		return bal, l.flush(ctx)
	}
}

// Refund appends the refund reversing the debit it names and returns the
// balance after it. A second refund of one debit is ports.ErrConflict; a
// debit that is unknown, of another account or of another amount is
// ports.ErrNotFound.
func (s *Store) Refund(ctx context.Context, e ledger.Entry) (int64, error) {
	if err := checkEntry(e, ledger.Refund); err != nil {
		return 0, err
	}
	return s.writeLedger(ctx, "refund of debit "+e.RefundOf, func(ctx context.Context, tx *sql.Tx) (int64, error) {
		l := s.newLedgerTx(ctx, tx)
		if bal, held, err := l.replay(ctx, e); held || err != nil {
			return bal, err
		}
		var debitFound, refunded bool
		err := tx.QueryRowContext(ctx, `SELECT
			EXISTS (SELECT 1 FROM ledger_entries WHERE id = ?1 AND account_id = ?2 AND kind = 'debit' AND amount = -?3),
			EXISTS (SELECT 1 FROM ledger_entries WHERE refund_of = ?1)`, e.RefundOf, e.AccountID, e.Amount).Scan(&debitFound, &refunded)
		switch {
		case err != nil:
			return 0, err
		case !debitFound:
			return 0, fmt.Errorf("sqlite: refund %s: no such debit %s: %w", e.ID, e.RefundOf, ports.ErrNotFound)
		case refunded:
			return 0, fmt.Errorf("sqlite: debit %s is refunded already: %w", e.RefundOf, ports.ErrConflict)
		}
		return l.append(ctx, e)
	})
}

// Grant appends an operator's grant to an existing account and returns the
// balance after it; an unknown account is ports.ErrNotFound.
func (s *Store) Grant(ctx context.Context, e ledger.Entry) (int64, error) {
	if err := checkEntry(e, ledger.Grant); err != nil {
		return 0, err
	}
	return s.writeLedger(ctx, "grant "+e.ID, func(ctx context.Context, tx *sql.Tx) (int64, error) {
		l := s.newLedgerTx(ctx, tx)
		if bal, held, err := l.replay(ctx, e); held || err != nil {
			return bal, err
		}
		return l.append(ctx, e)
	})
}

// append inserts a credit to an existing account and writes its balance.
func (l *ledgerTx) append(ctx context.Context, e ledger.Entry) (int64, error) {
	if _, err := l.balance(ctx, e.AccountID); err != nil {
		return 0, err
	}
	bal, err := l.insert(ctx, e)
	if err != nil {
		return 0, err
	}
	return bal, l.flush(ctx)
}

// Balance returns the account's balance, or ports.ErrNotFound.
func (s *Store) Balance(ctx context.Context, accountID string) (int64, error) {
	var balance int64
	err := s.reader.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, accountID).Scan(&balance)
	if err != nil {
		return 0, translate("balance of "+accountID, err)
	}
	return balance, nil
}

// Statement reads the balance, one page of entries and their count in one
// read transaction: in WAL mode it reads one snapshot throughout, so all
// three see the same instant.
func (s *Store) Statement(ctx context.Context, accountID string, limit, offset int) (ledger.Statement, error) {
	var st ledger.Statement
	err := readTx(ctx, s.reader, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, accountID).Scan(&st.Balance); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+entryColumns+` FROM ledger_entries WHERE account_id = ?
			ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, accountID, max(limit, 0), max(offset, 0))
		if err != nil {
			return err
		}
		if st.Entries, err = collect(rows, scanEntry); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM ledger_entries WHERE account_id = ?`, accountID).Scan(&st.Total)
	})
	if err != nil {
		return ledger.Statement{}, translate("statement of "+accountID, err)
	}
	return st, nil
}

// microsPerDay is one UTC day in the stored unit.
const microsPerDay = int64(24 * time.Hour / time.Microsecond)

// usageSQL sums debits and refunds per UTC day (the floor of the instant
// in days) and route; the history index serves the account's entries from
// since on.
const usageSQL = `
SELECT created_at / ?3 - (created_at % ?3 < 0) AS day, route, -sum(amount)
FROM ledger_entries
WHERE account_id = ?1 AND created_at >= ?2 AND kind <> 'grant'
GROUP BY day, route
HAVING sum(amount) <> 0
ORDER BY day, route`

// Usage returns what the account spent per UTC day and route from since on.
func (s *Store) Usage(ctx context.Context, accountID string, since time.Time) ([]ledger.Usage, error) {
	rows, err := s.reader.QueryContext(ctx, usageSQL, accountID, micros(since), microsPerDay)
	if err != nil {
		return nil, translate("usage of "+accountID, err)
	}
	usage, err := collect(rows, func(row scanner) (ledger.Usage, error) {
		var u ledger.Usage
		var day int64
		err := row.Scan(&day, &u.Route, &u.Credits)
		u.Day = instant(day * microsPerDay)
		return u, err
	})
	if err != nil {
		return nil, translate("usage of "+accountID, err)
	}
	return usage, nil
}

// verifySQL reads every balance and every sum in one statement, so in one
// snapshot: a debit committing meanwhile cannot show up as a mismatch.
const verifySQL = `
SELECT a.id, a.balance, coalesce(s.total, 0)
FROM accounts a
LEFT JOIN (
	SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id
) s ON s.account_id = a.id
WHERE a.balance <> coalesce(s.total, 0)
ORDER BY a.id`

// Verify compares every account's balance with the sum of its entries and
// returns the accounts where they differ.
func (s *Store) Verify(ctx context.Context) ([]ledger.Mismatch, error) {
	rows, err := s.reader.QueryContext(ctx, verifySQL)
	if err != nil {
		return nil, translate("verify ledger", err)
	}
	mismatches, err := collect(rows, func(row scanner) (ledger.Mismatch, error) {
		var m ledger.Mismatch
		err := row.Scan(&m.AccountID, &m.Balance, &m.Sum)
		return m, err
	})
	if err != nil {
		return nil, translate("verify ledger", err)
	}
	return mismatches, nil
}

// readTx runs fn in one read-only transaction, which reads one snapshot.
func readTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	return fn(tx)
}

// scanner is a row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// collect scans every row with scan and closes rows.
func collect[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Settle reports whether e is held, read in a write transaction: it waits
// for the writer's lock, so no write is in flight while it reads.
func (s *Store) Settle(ctx context.Context, e ledger.Entry) (bool, error) {
	var held bool
	err := s.write(ctx, "settle "+e.ID, func(tx *sql.Tx) error {
		var err error
		_, held, err = s.newLedgerTx(ctx, tx).replay(ctx, e)
		return err
	})
	return held, err
}
