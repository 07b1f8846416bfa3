package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/ledger"
)

// provisionSQL inserts the account and its grant in one statement, which
// PostgreSQL runs atomically: either both rows exist or neither does.
const provisionSQL = `
WITH a AS (
	INSERT INTO accounts (id, email, password_hash, balance, created_at)
	VALUES ($1, $2, $3, $4, $5)
	RETURNING id
)
INSERT INTO ledger_entries (id, account_id, kind, amount, reason, created_at)
SELECT $6, a.id, 'grant', $4, $8, $7 FROM a`

// Provision creates the account with its grant as the opening balance. A
// taken email or id is ports.ErrConflict and writes nothing.
func (s *Store) Provision(ctx context.Context, a account.Account, grant ledger.Entry) error {
	if err := checkEntry(grant, ledger.Grant); err != nil {
		return err
	}
	if grant.AccountID != a.ID {
		return fmt.Errorf("postgres: provision %s: grant is for account %s: %w", a.ID, grant.AccountID, ledger.ErrInvalidEntry)
	}
	_, err := s.pool.Exec(ctx, provisionSQL,
		a.ID, a.Email, a.PasswordHash, grant.Amount, a.CreatedAt, grant.ID, grant.CreatedAt, grant.Reason)
	if err != nil {
		return translate("provision account "+a.ID, err)
	}
	return nil
}

// AccountByEmail returns the account with that normalized email, or
// ports.ErrNotFound.
func (s *Store) AccountByEmail(ctx context.Context, email string) (account.Account, error) {
	return s.account(ctx, "account by email", `WHERE email = $1`, email)
}

// AccountByID returns the account, or ports.ErrNotFound.
func (s *Store) AccountByID(ctx context.Context, id string) (account.Account, error) {
	return s.account(ctx, "account "+id, `WHERE id = $1`, id)
}

// account reads the one account matching where.
func (s *Store) account(ctx context.Context, op, where, arg string) (account.Account, error) {
	var a account.Account
	err := s.pool.QueryRow(ctx, `SELECT id, email, password_hash, created_at FROM accounts `+where, arg).
		Scan(&a.ID, &a.Email, &a.PasswordHash, &a.CreatedAt)
	if err != nil {
		return account.Account{}, translate(op, err)
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return a, nil
}

// CreateSession stores the session; ports.ErrConflict if the digest exists,
// ports.ErrNotFound if the account does not.
func (s *Store) CreateSession(ctx context.Context, sess account.Session) error {
	_, err := s.pool.Exec(ctx,
		`INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		sess.TokenHash, sess.AccountID, sess.CreatedAt, sess.ExpiresAt)
	if err != nil {
		return translate("create session", err)
	}
	return nil
}

// DeleteExpiredSessions removes the sessions expired at now and returns how
// many it removed.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE expires_at <= $1`, now)
	if err != nil {
		return 0, translate("delete expired sessions", err)
	}
	return tag.RowsAffected(), nil
}

// DeleteSession removes the session with that token digest, if any.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return translate("delete session", err)
	}
	return nil
}

// SessionByHash returns the session with that token digest, expired or not,
// or ports.ErrNotFound.
func (s *Store) SessionByHash(ctx context.Context, tokenHash string) (account.Session, error) {
	var sess account.Session
	err := s.pool.QueryRow(ctx,
		`SELECT token_hash, account_id, created_at, expires_at FROM sessions WHERE token_hash = $1`, tokenHash).
		Scan(&sess.TokenHash, &sess.AccountID, &sess.CreatedAt, &sess.ExpiresAt)
	if err != nil {
		return account.Session{}, translate("session by hash", err)
	}
	sess.CreatedAt, sess.ExpiresAt = sess.CreatedAt.UTC(), sess.ExpiresAt.UTC()
	return sess, nil
}
