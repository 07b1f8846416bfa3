package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

const entryColumns = `id, account_id, kind, amount, route, key_id, request_id, coalesce(refund_of, ''), reason, created_at`

// ledgerStmts are the statements every entry runs, prepared once on the
// writer connection: parsing them anew for each debit of a batch costs
// more than running them.
type ledgerStmts struct {
	entry  *sql.Stmt // the entry with an id
	insert *sql.Stmt // a new entry
}

func prepareLedger(ctx context.Context, db *sql.DB) (*ledgerStmts, error) {
	entry, err := db.PrepareContext(ctx, `SELECT `+entryColumns+` FROM ledger_entries WHERE id = ?`)
	if err != nil {
		return nil, translate("prepare ledger statements", err)
	}
	insert, err := db.PrepareContext(ctx, `INSERT INTO ledger_entries
		(id, account_id, kind, amount, route, key_id, request_id, refund_of, reason, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		_ = entry.Close()
		return nil, translate("prepare ledger statements", err)
	}
	return &ledgerStmts{entry: entry, insert: insert}, nil
}

func (p *ledgerStmts) close() {
	_ = p.entry.Close()
	_ = p.insert.Close()
}

// ledgerTx writes ledger entries inside one write transaction. It reads
// each account's balance and each key once, keeps the balances as its
// entries change them, and writes them back in flush, so a batch of debits
// of one hot account updates its row once. Its methods return port
// sentinels for the refusals they decide, which write nothing, and driver
// errors as they are.
type ledgerTx struct {
	tx         *sql.Tx
	entryStmt  *sql.Stmt        // ledgerStmts.entry in tx
	insertStmt *sql.Stmt        // ledgerStmts.insert in tx
	balances   map[string]int64 // by account id, as this transaction leaves them
	changed    map[string]bool
	keys       map[string]keyState // by key id
}

// keyState is what a debit needs to know of the key it names.
type keyState struct {
	found     bool
	accountID string
	revoked   bool
	expiresAt sql.NullInt64
}

func (s *Store) newLedgerTx(ctx context.Context, tx *sql.Tx) *ledgerTx {
	return &ledgerTx{
		tx: tx, entryStmt: tx.StmtContext(ctx, s.stmts.entry), insertStmt: tx.StmtContext(ctx, s.stmts.insert),
		balances: map[string]int64{}, changed: map[string]bool{}, keys: map[string]keyState{},
	}
}

// debit appends the debit if and only if the account exists, its key is a
// live key of the account at the debit's time, and the balance covers it;
// a debit whose id is held is answered by replay. Checking the key here,
// under the write lock that RevokeKey also takes, is what keeps a debit
// from being applied once the revocation of its key has returned.
func (l *ledgerTx) debit(ctx context.Context, e ledger.Entry) (int64, error) {
	if bal, held, err := l.replay(ctx, e); held || err != nil {
		return bal, err
	}
	bal, err := l.balance(ctx, e.AccountID)
	if err != nil {
		return 0, err
	}
	live, err := l.keyLive(ctx, e)
	switch {
	case err != nil:
		return 0, err
	case !live:
		return 0, fmt.Errorf("sqlite: debit %s: key %s is not a live key of the account: %w", e.ID, e.KeyID, ports.ErrKeyRevoked)
	case bal+e.Amount < 0:
		return 0, fmt.Errorf("sqlite: debit %s of %d: %w", e.AccountID, -e.Amount, ports.ErrInsufficientCredits)
	}
	return l.insert(ctx, e)
}

// replay answers an entry whose id may be held: held with the current
// balance when the entry under that id is the same one (already applied),
// ports.ErrConflict when it is another, and not held when the id is free.
func (l *ledgerTx) replay(ctx context.Context, e ledger.Entry) (int64, bool, error) {
	held, err := scanEntry(l.entryStmt.QueryRowContext(ctx, e.ID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	case !held.SameAs(e):
		return 0, false, fmt.Errorf("sqlite: entry id %s is taken by another entry: %w", e.ID, ports.ErrConflict)
	}
	bal, err := l.balance(ctx, e.AccountID)
	return bal, true, err
}

// balance returns the account's balance as this transaction leaves it, or
// ports.ErrNotFound for an unknown account.
func (l *ledgerTx) balance(ctx context.Context, accountID string) (int64, error) {
	if bal, ok := l.balances[accountID]; ok {
		return bal, nil
	}
	var bal int64
	err := l.tx.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, accountID).Scan(&bal)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("sqlite: unknown account %s: %w", accountID, ports.ErrNotFound)
	}
	if err != nil {
		return 0, err
	}
	l.balances[accountID] = bal
	return bal, nil
}

// keyLive reports whether the debit's key is a key of its account that is
// neither revoked nor expired at the debit's time.
func (l *ledgerTx) keyLive(ctx context.Context, e ledger.Entry) (bool, error) {
	k, ok := l.keys[e.KeyID]
	if !ok {
		var revokedAt sql.NullInt64
		err := l.tx.QueryRowContext(ctx, `SELECT account_id, revoked_at, expires_at FROM api_keys WHERE id = ?`, e.KeyID).
			Scan(&k.accountID, &revokedAt, &k.expiresAt)
		switch {
		case err == nil:
			k.found, k.revoked = true, revokedAt.Valid
		case !errors.Is(err, sql.ErrNoRows):
			return false, err
		}
		l.keys[e.KeyID] = k
	}
	return k.found && k.accountID == e.AccountID && !k.revoked &&
		(!k.expiresAt.Valid || k.expiresAt.Int64 > micros(e.CreatedAt)), nil
}

// insert appends the entry, whose account's balance this transaction has
// read, and returns the balance after it.
func (l *ledgerTx) insert(ctx context.Context, e ledger.Entry) (int64, error) {
	var refundOf sql.NullString
	if e.RefundOf != "" {
		refundOf = sql.NullString{String: e.RefundOf, Valid: true}
	}
	_, err := l.insertStmt.ExecContext(ctx, e.ID, e.AccountID, string(e.Kind), e.Amount, e.Route, e.KeyID, e.RequestID, refundOf, e.Reason, micros(e.CreatedAt))
	if err != nil {
		return 0, err
	}
	bal := l.balances[e.AccountID] + e.Amount
	l.balances[e.AccountID] = bal
	l.changed[e.AccountID] = true
	return bal, nil
}

// flush writes the balances the transaction changed; call it before
// COMMIT.
func (l *ledgerTx) flush(ctx context.Context) error {
	for id := range l.changed {
		if _, err := l.tx.ExecContext(ctx, `UPDATE accounts SET balance = ? WHERE id = ?`, l.balances[id], id); err != nil {
			return err
		}
	}
	clear(l.changed)
	return nil
}

// scanEntry reads a row of entryColumns.
func scanEntry(row scanner) (ledger.Entry, error) {
	var e ledger.Entry
	var kind string
	var at int64
	err := row.Scan(&e.ID, &e.AccountID, &kind, &e.Amount, &e.Route, &e.KeyID, &e.RequestID, &e.RefundOf, &e.Reason, &at)
	e.Kind, e.CreatedAt = ledger.Kind(kind), instant(at)
	return e, err
}

// checkEntry applies the domain's rules to an entry before it is written,
// including that it is of the kind the method writes.
func checkEntry(e ledger.Entry, kind ledger.Kind) error {
	if e.Kind != kind {
		return fmt.Errorf("sqlite: entry %s is a %s, want a %s: %w", e.ID, e.Kind, kind, ledger.ErrInvalidEntry)
	}
	if err := e.Validate(); err != nil {
		return fmt.Errorf("sqlite: entry %s: %w", e.ID, err)
	}
	return nil
}
