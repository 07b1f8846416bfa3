package platform

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// Key name bounds, and how many keys that are not revoked an account may
// hold: enough for a key per service and environment, few enough that a
// leaked session cannot mint keys without bound.
const (
	DefaultKeyName = "default"
	maxKeyName     = 64
	MaxActiveKeys  = 100
)

// Keys mints, lists and revokes an account's API keys.
type Keys struct {
	keys ports.KeyStore
	now  usecase.Clock
}

// NewKeys wires the key-management use case.
func NewKeys(k ports.KeyStore, now usecase.Clock) *Keys { return &Keys{keys: k, now: now} }

// NewKey is a freshly minted key: the record, and the secret shown once.
type NewKey struct {
	Key    apikey.Key
	Secret string
}

// Create mints a key carrying every self-serve permission.
func (s *Keys) Create(ctx context.Context, accountID, name string) (NewKey, error) {
	if name == "" {
		name = DefaultKeyName
	}
	if err := checkKeyName(name); err != nil {
		return NewKey{}, err
	}
	return s.mint(ctx, apikey.Key{
		ID: NewID("key"), AccountID: accountID, Name: name,
		Scopes: scope.Strings(scope.SelfServe()), CreatedAt: s.now(),
	}, MaxActiveKeys)
}

// checkKeyName refuses a name that is not 1 to 64 characters of UTF-8, or
// that holds a character which is not text: a control character (Unicode
// category Cc: NUL, ESC, a line break), a bidirectional control (U+202E
// and its kin, which make a name read differently from what it holds) or a
// line or paragraph separator. A name is shown in the console, listed by
// the API and written to logs and exports, where any of them could forge a
// line or reorder what a person reads.
func checkKeyName(name string) error {
	if n := utf8.RuneCountInString(name); !utf8.ValidString(name) || n > maxKeyName {
		return fmt.Errorf("%w: name must be 1 to %d characters of UTF-8", usecase.ErrValidation, maxKeyName)
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return fmt.Errorf("%w: name %q holds %U; a name must not hold control characters", usecase.ErrValidation, name, r)
		}
	}
	return nil
}

// mint draws the secret of k and stores k within the limit of its kind.
func (s *Keys) mint(ctx context.Context, k apikey.Key, limit int) (NewKey, error) {
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		return NewKey{}, err
	}
	k.Prefix, k.Hash = apikey.Prefix(secret), apikey.Digest(secret)
	err = s.keys.CreateKey(ctx, k, limit)
	if errors.Is(err, ports.ErrLimitReached) {
		return NewKey{}, fmt.Errorf("%w: an account may hold at most %d active %ss; revoke one first", usecase.ErrValidation, limit, kindNoun(k.Kind()))
	}
	if err != nil {
		return NewKey{}, err
	}
	return NewKey{Key: k, Secret: secret}, nil
}

// List returns the account's keys, oldest first.
func (s *Keys) List(ctx context.Context, accountID string) ([]apikey.Key, error) {
	return s.keys.KeysByAccount(ctx, accountID, ports.KeyFilter{Kind: apikey.Standing})
}

// Revoke revokes one of the account's keys; it stops working at once.
func (s *Keys) Revoke(ctx context.Context, accountID, keyID string) (apikey.Key, error) {
	return s.revoke(ctx, accountID, keyID, apikey.Standing)
}

func (s *Keys) revoke(ctx context.Context, accountID, keyID string, kind apikey.Kind) (apikey.Key, error) {
	k, err := s.keys.RevokeKey(ctx, accountID, keyID, kind, s.now())
	if errors.Is(err, ports.ErrNotFound) {
		return apikey.Key{}, fmt.Errorf("%w: this account has no %s %q", ports.ErrNotFound, kindNoun(kind), keyID)
	}
	return k, err
}

func kindNoun(kind apikey.Kind) string {
	if kind == apikey.Browser {
		return "browser credential"
	}
	return "key"
}
