package platform

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// maxGrant bounds one operator grant, so that a typo cannot put an absurd
// balance on an account.
const maxGrant = 1_000_000_000

// Operators holds what only an operator may do, from the command line and
// never through the API: top up credits and provision the permissions that
// self-serve keys do not carry.
type Operators struct {
	accounts ports.AccountStore
	keys     ports.KeyStore
	ledger   ports.Ledger
	now      usecase.Clock
}

// NewOperators wires the operator use cases.
func NewOperators(a ports.AccountStore, k ports.KeyStore, l ports.Ledger, now usecase.Clock) *Operators {
	return &Operators{accounts: a, keys: k, ledger: l, now: now}
}

// GrantCredits adds amount credits to the account of email, as a grant entry
// naming the reason, and returns the balance after it.
func (o *Operators) GrantCredits(ctx context.Context, email string, amount int64, reason string) (int64, error) {
	if amount < 1 || amount > maxGrant {
		return 0, fmt.Errorf("%w: amount must be 1 to %d credits", usecase.ErrValidation, maxGrant)
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return 0, fmt.Errorf("%w: a grant names its reason", usecase.ErrValidation)
	}
	email, err := account.NormalizeEmail(email)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", usecase.ErrValidation, err)
	}
	acc, err := o.accounts.AccountByEmail(ctx, email)
	if errors.Is(err, ports.ErrNotFound) {
		return 0, fmt.Errorf("%w: no account signs in as %s", ports.ErrNotFound, email)
	}
	if err != nil {
		return 0, err
	}
	g := ledger.Entry{ID: NewID("led"), AccountID: acc.ID, Kind: ledger.Grant, Amount: amount, Reason: reason, CreatedAt: o.now()}
	return o.ledger.Grant(ctx, g)
}

// SetKeyScope grants the permission to the key (held) or revokes it, and
// returns the key.
func (o *Operators) SetKeyScope(ctx context.Context, keyID, permission string, held bool) (apikey.Key, error) {
	p, err := scope.Parse(permission)
	if err != nil {
		return apikey.Key{}, fmt.Errorf("%w: %w", usecase.ErrValidation, err)
	}
	if strings.HasPrefix(keyID, browserCredentialIDPrefix) {
		// A browser credential carries what it was minted with, no more.
		return apikey.Key{}, fmt.Errorf("%w: %q is a browser credential, whose permissions are fixed when it is minted", usecase.ErrValidation, keyID)
	}
	k, err := o.keys.SetKeyScope(ctx, keyID, string(p), held)
	if errors.Is(err, ports.ErrNotFound) {
		return apikey.Key{}, fmt.Errorf("%w: no key %q", ports.ErrNotFound, keyID)
	}
	return k, err
}
