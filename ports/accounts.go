package ports

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
)

// AccountStore holds accounts.
type AccountStore interface {
	// Provision creates the account and writes its grant entry atomically.
	// It returns ErrConflict when the email is already taken, leaving no trace.
	Provision(ctx context.Context, a account.Account, grant ledger.Entry) error
	// AccountByEmail returns the account with that normalized email, or ErrNotFound.
	AccountByEmail(ctx context.Context, email string) (account.Account, error)
	// AccountByID returns the account, or ErrNotFound.
	AccountByID(ctx context.Context, id string) (account.Account, error)
}

// SessionStore holds sign-in sessions.
type SessionStore interface {
	// CreateSession stores s; ErrConflict if the digest exists.
	CreateSession(ctx context.Context, s account.Session) error
	// SessionByHash returns the session with that token digest, or ErrNotFound.
	// Expiry is the caller's rule to apply.
	SessionByHash(ctx context.Context, tokenHash string) (account.Session, error)
	// DeleteExpiredSessions removes the sessions expired at now (ExpiresAt
	// not after it) and returns how many it removed.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)
	// DeleteSession removes the session with that token digest (a sign-out);
	// an unknown digest is not an error.
	DeleteSession(ctx context.Context, tokenHash string) error
}

// KeyFilter selects an account's credentials by kind. For browser
// credentials, a LiveAt that is not zero keeps only those that have not
// expired at that instant; standing keys never expire.
type KeyFilter struct {
	Kind   apikey.Kind
	LiveAt time.Time
}

// KeyStore holds API keys.
type KeyStore interface {
	// CreateKey stores k unless its account already holds maxActive keys
	// of k's kind that are live when k is created (not revoked, and not
	// expired at k.CreatedAt), which is ErrLimitReached, at any
	// concurrency. ErrConflict if its id or digest exists; ErrNotFound for
	// an unknown account.
	CreateKey(ctx context.Context, k apikey.Key, maxActive int) error
	// KeysByAccount lists the account's keys the filter selects, oldest
	// first.
	KeysByAccount(ctx context.Context, accountID string, f KeyFilter) ([]apikey.Key, error)
	// KeyByHash returns the key with that digest, revoked or not, or ErrNotFound.
	KeyByHash(ctx context.Context, hash string) (apikey.Key, error)
	// RevokeKey marks the account's key of that kind revoked at the given
	// time and returns it. A key that is already revoked keeps its first
	// revocation time. A key of another account or of the other kind, or an
	// unknown id, is ErrNotFound.
	RevokeKey(ctx context.Context, accountID, keyID string, kind apikey.Kind, at time.Time) (apikey.Key, error)
	// TouchKey records that the key was used at the given time.
	TouchKey(ctx context.Context, keyID string, at time.Time) error
	// SetKeyScope adds the permission to the key's scopes (held) or removes
	// it, and returns the key; adding a held one or removing a missing one
	// changes nothing. An unknown key is ErrNotFound.
	SetKeyScope(ctx context.Context, keyID, permission string, held bool) (apikey.Key, error)
}

// KeyWatch tells a node that keys changed, wherever the change was made, so
// that it can drop what it cached of them.
type KeyWatch interface {
	// WatchKeys reports to w until ctx ends. It calls w.Watching(true) once
	// it sees every later change, and w.Watching(false) whenever it may stop
	// seeing them (a lost connection), so that w trusts nothing it cached
	// meanwhile; after a Watching(true), changes made before it may have
	// been missed. It calls w.KeyChanged with a key's digest once a change
	// to that key's revocation or scopes has committed.
	WatchKeys(ctx context.Context, w KeyWatcher)
}

// KeyWatcher receives what a KeyWatch sees. Its methods must not block.
type KeyWatcher interface {
	// KeyChanged says that the key with this digest changed.
	KeyChanged(hash string)
	// Watching says whether changes are being seen from now on.
	Watching(on bool)
}
