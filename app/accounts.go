package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// AccountsConfig holds the sign-in settings.
type AccountsConfig struct {
	InitialCredits int64
	SessionTTL     time.Duration
}

// Accounts signs people in, provisioning an account on first sign-in, and
// authenticates session tokens.
type Accounts struct {
	accounts ports.AccountStore
	sessions ports.SessionStore
	ledger   ports.Ledger
	cfg      AccountsConfig
	now      Clock
	throttle *signinThrottle
	// hashing bounds concurrent argon2id work: each hash holds 19 MiB.
	hashing chan struct{}
}

// NewAccounts wires the sign-in use case; its throttle keeps its buckets
// and history in b and h, shared by every node.
func NewAccounts(a ports.AccountStore, s ports.SessionStore, l ports.Ledger, b ports.RateBuckets, h ports.SigninHistory, cfg AccountsConfig, now Clock) *Accounts {
	return &Accounts{
		accounts: a, sessions: s, ledger: l, cfg: cfg, now: now,
		throttle: newSigninThrottle(b, h),
		hashing:  make(chan struct{}, 4),
	}
}

// Login is the outcome of a successful sign-in.
type Login struct {
	Token     string
	ExpiresAt time.Time
	Email     string
	Credits   int64
	// Created is true when this sign-in provisioned the account.
	Created bool
}

// Login signs in with email and password from a client address. A new email
// provisions an account with the initial credits; an existing one must match
// its password. Attempts are throttled as throttle.go describes.
func (s *Accounts) Login(ctx context.Context, email, password, client string) (Login, error) {
	email, err := account.NormalizeEmail(email)
	if err != nil {
		return Login{}, fmt.Errorf("%w: %w", ErrValidation, err)
	}
	if err := account.CheckPassword(password); err != nil {
		return Login{}, fmt.Errorf("%w: %w", ErrValidation, err)
	}
	attempt, err := s.throttle.admit(ctx, email, client, s.now())
	if err != nil {
		return Login{}, err
	}
	acc, created, err := s.signIn(ctx, email, password)
	switch {
	case err == nil:
		err = attempt.succeeded(ctx, s.now())
	case errors.Is(err, ErrUnauthorized):
		return Login{}, err // a wrong guess keeps its tokens
	default:
		attempt.release(ctx) // the store failed: no guess was judged
	}
	if err != nil {
		return Login{}, err
	}
	l, err := s.openSession(ctx, acc)
	l.Created = created
	return l, err
}

// signIn returns the account and whether this sign-in provisioned it.
func (s *Accounts) signIn(ctx context.Context, email, password string) (account.Account, bool, error) {
	acc, err := s.accounts.AccountByEmail(ctx, email)
	if errors.Is(err, ports.ErrNotFound) {
		acc, err = s.provision(ctx, email, password)
		if !errors.Is(err, ports.ErrConflict) {
			return acc, err == nil, err
		}
		// Another request provisioned the same email first: check against it.
		acc, err = s.accounts.AccountByEmail(ctx, email)
	}
	if err != nil {
		return account.Account{}, false, err
	}
	ok, err := s.verify(ctx, password, acc.PasswordHash)
	if err != nil {
		return account.Account{}, false, err
	}
	if !ok {
		return account.Account{}, false, fmt.Errorf("%w: wrong email or password", ErrUnauthorized)
	}
	return acc, false, nil
}

func (s *Accounts) provision(ctx context.Context, email, password string) (account.Account, error) {
	hash, err := s.hash(ctx, password)
	if err != nil {
		return account.Account{}, err
	}
	now := s.now()
	acc := account.Account{ID: NewID("acc"), Email: email, PasswordHash: hash, CreatedAt: now}
	grant := ledger.Entry{ID: NewID("led"), AccountID: acc.ID, Kind: ledger.Grant, Amount: s.cfg.InitialCredits, Reason: "sign-up", CreatedAt: now}
	return acc, s.accounts.Provision(ctx, acc, grant)
}

func (s *Accounts) hash(ctx context.Context, password string) (string, error) {
	if err := s.acquire(ctx); err != nil {
		return "", err
	}
	defer func() { <-s.hashing }()
	return hashPassword(password), nil
}

func (s *Accounts) verify(ctx context.Context, password, hash string) (bool, error) {
	if err := s.acquire(ctx); err != nil {
		return false, err
	}
	defer func() { <-s.hashing }()
	return verifyPassword(password, hash)
}

func (s *Accounts) acquire(ctx context.Context) error {
	select {
	case s.hashing <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Accounts) openSession(ctx context.Context, acc account.Account) (Login, error) {
	token, digest := newToken()
	now := s.now()
	sess := account.Session{TokenHash: digest, AccountID: acc.ID, CreatedAt: now, ExpiresAt: now.Add(s.cfg.SessionTTL)}
	if err := s.sessions.CreateSession(ctx, sess); err != nil {
		return Login{}, err
	}
	bal, err := s.ledger.Balance(ctx, acc.ID)
	if err != nil {
		return Login{}, err
	}
	return Login{Token: token, ExpiresAt: sess.ExpiresAt, Email: acc.Email, Credits: bal}, nil
}

// Authenticate returns the account id a live session token belongs to.
func (s *Accounts) Authenticate(ctx context.Context, token string) (string, error) {
	if token == "" {
		return "", fmt.Errorf("%w: missing session token", ErrUnauthorized)
	}
	sess, err := s.sessions.SessionByHash(ctx, digestOf(token))
	if errors.Is(err, ports.ErrNotFound) {
		return "", fmt.Errorf("%w: unknown session token", ErrUnauthorized)
	}
	if err != nil {
		return "", err
	}
	if !s.now().Before(sess.ExpiresAt) {
		return "", fmt.Errorf("%w: session expired; sign in again", ErrUnauthorized)
	}
	return sess.AccountID, nil
}

// SignOut ends the session of a token at once; an unknown or expired token
// is already signed out.
func (s *Accounts) SignOut(ctx context.Context, token string) error {
	return s.sessions.DeleteSession(ctx, digestOf(token))
}

// InitialCredits is the grant a new account is provisioned with.
func (s *Accounts) InitialCredits() int64 { return s.cfg.InitialCredits }

// Email returns the email of the account.
func (s *Accounts) Email(ctx context.Context, accountID string) (string, error) {
	acc, err := s.accounts.AccountByID(ctx, accountID)
	return acc.Email, err
}

// SweepSessions removes the sessions that have expired and returns how many.
func (s *Accounts) SweepSessions(ctx context.Context) (int64, error) {
	return s.sessions.DeleteExpiredSessions(ctx, s.now())
}

// SweepSignins forgets the sign-in history older than the throttle keeps
// and returns how many entries it dropped.
func (s *Accounts) SweepSignins(ctx context.Context) (int64, error) {
	return s.throttle.forget(ctx, s.now())
}
