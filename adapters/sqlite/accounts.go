package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/ledger"
)

// Provision creates the account with its grant as the opening balance, in
// one transaction. A taken email or id, or a taken grant id, is
// ports.ErrConflict and writes nothing.
func (s *Store) Provision(ctx context.Context, a account.Account, grant ledger.Entry) error {
	if err := checkEntry(grant, ledger.Grant); err != nil {
		return err
	}
	if grant.AccountID != a.ID {
		return fmt.Errorf("sqlite: provision %s: grant is for account %s: %w", a.ID, grant.AccountID, ledger.ErrInvalidEntry)
	}
	return s.write(ctx, "provision account "+a.ID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO accounts (id, email, password_hash, balance, created_at) VALUES (?, ?, ?, 0, ?)`,
			a.ID, a.Email, a.PasswordHash, micros(a.CreatedAt))
		if err != nil {
			return err
		}
		l := s.newLedgerTx(ctx, tx)
		_, err = l.append(ctx, grant)
		return err
	})
}

// AccountByEmail returns the account with that normalized email, or
// ports.ErrNotFound.
func (s *Store) AccountByEmail(ctx context.Context, email string) (account.Account, error) {
	return s.account(ctx, "account by email", `WHERE email = ?`, email)
}

// AccountByID returns the account, or ports.ErrNotFound.
func (s *Store) AccountByID(ctx context.Context, id string) (account.Account, error) {
	return s.account(ctx, "account "+id, `WHERE id = ?`, id)
}

// account reads the one account matching where.
func (s *Store) account(ctx context.Context, op, where, arg string) (account.Account, error) {
	var a account.Account
	var created int64
	err := s.reader.QueryRowContext(ctx, `SELECT id, email, password_hash, created_at FROM accounts `+where, arg).
		Scan(&a.ID, &a.Email, &a.PasswordHash, &created)
	if err != nil {
		return account.Account{}, translate(op, err)
	}
	a.CreatedAt = instant(created)
	return a, nil
}

// CreateSession stores the session; ports.ErrConflict if the digest exists,
// ports.ErrNotFound if the account does not.
func (s *Store) CreateSession(ctx context.Context, sess account.Session) error {
	_, err := s.exec(ctx, "create session", `INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		sess.TokenHash, sess.AccountID, micros(sess.CreatedAt), micros(sess.ExpiresAt))
	return err
}

// SessionByHash returns the session with that token digest, expired or not,
// or ports.ErrNotFound.
func (s *Store) SessionByHash(ctx context.Context, tokenHash string) (account.Session, error) {
	var sess account.Session
	var created, expires int64
	err := s.reader.QueryRowContext(ctx,
		`SELECT token_hash, account_id, created_at, expires_at FROM sessions WHERE token_hash = ?`, tokenHash).
		Scan(&sess.TokenHash, &sess.AccountID, &created, &expires)
	if err != nil {
		return account.Session{}, translate("session by hash", err)
	}
	sess.CreatedAt, sess.ExpiresAt = instant(created), instant(expires)
	return sess, nil
}

// DeleteExpiredSessions removes the sessions expired at now and returns how
// many it removed.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	return s.exec(ctx, "delete expired sessions", `DELETE FROM sessions WHERE expires_at <= ?`, micros(now))
}

// DeleteSession removes the session with that token digest, if any.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := s.exec(ctx, "delete session", `DELETE FROM sessions WHERE token_hash = ?`, tokenHash)
	return err
}

// exec runs one writing statement, a transaction by itself, and returns
// how many rows it changed.
func (s *Store) exec(ctx context.Context, op, query string, args ...any) (int64, error) {
	res, err := s.writer.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, translate(op, err)
	}
	n, err := res.RowsAffected()
	return n, translate(op, err)
}
