package ports

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/ledger"
)

// Account is a signed-up user.
type Account struct {
	ID           string
	Email        string
	PasswordHash string
	CreatedAt    time.Time
}

// Session is a signed-in browser or CLI session; only the token's digest is held.
type Session struct {
	TokenHash string
	AccountID string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Key is an API key record; only the key's digest is held.
type Key struct {
	ID         string
	AccountID  string
	Name       string
	Prefix     string
	Hash       string
	Scopes     []string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

// AccountStore holds accounts.
type AccountStore interface {
	// Provision creates the account and writes its grant entry atomically.
	// It returns ErrConflict when the email is already taken, leaving no trace.
	Provision(ctx context.Context, a Account, grant ledger.Entry) error
	// AccountByEmail returns the account with that normalized email, or ErrNotFound.
	AccountByEmail(ctx context.Context, email string) (Account, error)
	// AccountByID returns the account, or ErrNotFound.
	AccountByID(ctx context.Context, id string) (Account, error)
}

// SessionStore holds sign-in sessions.
type SessionStore interface {
	// CreateSession stores s; ErrConflict if the digest exists.
	CreateSession(ctx context.Context, s Session) error
	// SessionByHash returns the session with that token digest, or ErrNotFound.
	// Expiry is the caller's rule to apply.
	SessionByHash(ctx context.Context, tokenHash string) (Session, error)
	// DeleteExpiredSessions removes the sessions expired at now (ExpiresAt
	// not after it) and returns how many it removed.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)
}

// KeyStore holds API keys.
type KeyStore interface {
	// CreateKey stores k unless its account already holds maxActive keys
	// that are not revoked, which is ErrLimitReached, at any concurrency.
	// ErrConflict if its id or digest exists; ErrNotFound for an unknown
	// account.
	CreateKey(ctx context.Context, k Key, maxActive int) error
	// KeysByAccount lists an account's keys, oldest first.
	KeysByAccount(ctx context.Context, accountID string) ([]Key, error)
	// KeyByHash returns the key with that digest, revoked or not, or ErrNotFound.
	KeyByHash(ctx context.Context, hash string) (Key, error)
	// RevokeKey marks the account's key revoked at the given time and returns
	// it. A key that is already revoked keeps its first revocation time. A key
	// of another account, or an unknown id, is ErrNotFound.
	RevokeKey(ctx context.Context, accountID, keyID string, at time.Time) (Key, error)
	// TouchKey records that the key was used at the given time.
	TouchKey(ctx context.Context, keyID string, at time.Time) error
	// SetKeyScope adds the permission to the key's scopes (held) or removes
	// it, and returns the key; adding a held one or removing a missing one
	// changes nothing. An unknown key is ErrNotFound.
	SetKeyScope(ctx context.Context, keyID, permission string, held bool) (Key, error)
}
