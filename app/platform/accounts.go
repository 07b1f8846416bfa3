package platform

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// AccountsConfig holds the sign-in settings.
type AccountsConfig struct {
	InitialCredits int64
	SessionTTL     time.Duration
	// SignupsPerHour is how many accounts one client address may create
	// per hour, all at once if it likes (signuplimit.go); 0 means
	// DefaultSignupsPerHour.
	SignupsPerHour int
}

// Password hashing holds 19 MiB per hash, so it is bounded; sign-ups and
// sign-ins of existing accounts each have slots of their own, so that a
// flood of sign-ups cannot keep an owner waiting.
const (
	signinHashSlots = 4
	signupHashSlots = 2
)

// Accounts signs people in, provisioning an account on first sign-in, and
// authenticates session tokens.
type Accounts struct {
	accounts ports.AccountStore
	sessions ports.SessionStore
	ledger   ports.Ledger
	cfg      AccountsConfig
	now      usecase.Clock
	throttle *signinThrottle
	signups  *signupLimit
	// signinHashing and signupHashing bound concurrent argon2id work.
	signinHashing chan struct{}
	signupHashing chan struct{}
}

// NewAccounts wires the sign-in use case; its sign-in throttle and sign-up
// limit keep their buckets and history in b and h, shared by every node.
func NewAccounts(a ports.AccountStore, s ports.SessionStore, l ports.Ledger, b ports.RateBuckets, h ports.SigninHistory, cfg AccountsConfig, now usecase.Clock) *Accounts {
	return &Accounts{
		accounts: a, sessions: s, ledger: l, cfg: cfg, now: now,
		throttle:      newSigninThrottle(b, h),
		signups:       newSignupLimit(b, cfg.SignupsPerHour),
		signinHashing: make(chan struct{}, signinHashSlots),
		signupHashing: make(chan struct{}, signupHashSlots),
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
// provisions an account with the initial credits, within the address's
// sign-up limit (signuplimit.go); an existing one must match its password.
// Attempts are throttled as throttle.go describes.
func (s *Accounts) Login(ctx context.Context, email, password, client string) (Login, error) {
	email, err := account.NormalizeEmail(email)
	if err != nil {
		return Login{}, fmt.Errorf("%w: %w", usecase.ErrValidation, err)
	}
	if err := account.CheckPassword(password); err != nil {
		return Login{}, fmt.Errorf("%w: %w", usecase.ErrValidation, err)
	}
	attempt, err := s.throttle.admit(ctx, email, client, s.now())
	if err != nil {
		return Login{}, err
	}
	acc, created, err := s.signIn(ctx, email, password, client)
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
func (s *Accounts) signIn(ctx context.Context, email, password, client string) (account.Account, bool, error) {
	acc, err := s.accounts.AccountByEmail(ctx, email)
	if errors.Is(err, ports.ErrNotFound) {
		acc, err = s.signUp(ctx, email, password, client)
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

// signUp provisions the account within the client's sign-up limit, which
// is checked before the password is hashed. A sign-up that lost the race to
// provision the email created nothing and hands its token back.
func (s *Accounts) signUp(ctx context.Context, email, password, client string) (account.Account, error) {
	if err := s.signups.take(ctx, client, s.now()); err != nil {
		return account.Account{}, err
	}
	acc, err := s.provision(ctx, email, password)
	if errors.Is(err, ports.ErrConflict) {
		s.signups.giveBack(ctx, client)
	}
	return acc, err
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

// hash hashes a new account's password on a sign-up slot.
func (s *Accounts) hash(ctx context.Context, password string) (string, error) {
	if err := acquire(ctx, s.signupHashing); err != nil {
		return "", err
	}
	defer func() { <-s.signupHashing }()
	return hashPassword(password), nil
}

// verify checks an existing account's password on a sign-in slot.
func (s *Accounts) verify(ctx context.Context, password, hash string) (bool, error) {
	if err := acquire(ctx, s.signinHashing); err != nil {
		return false, err
	}
	defer func() { <-s.signinHashing }()
	return verifyPassword(password, hash)
}

func acquire(ctx context.Context, slots chan struct{}) error {
	select {
	case slots <- struct{}{}:
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
