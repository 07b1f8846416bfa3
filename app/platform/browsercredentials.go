package platform

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// Browser credentials (spec §5.8): what a page holds instead of an API key.
// One lives BrowserCredentialTTL from its minting, carries the permissions
// named when it was minted, and an account holds at most
// MaxLiveBrowserCredentials that have neither expired nor been revoked.
const (
	BrowserCredentialTTL      = 10 * time.Minute
	MaxLiveBrowserCredentials = 20
	browserCredentialName     = "browser"
	browserCredentialIDPrefix = "bcr_"
)

// CreateBrowserCredential mints a short-lived credential carrying the named
// permissions. They must be self-serve ones, which every key of the account
// carries: resale:read, provisioned key by key by an operator, is never
// given to a page.
func (s *Keys) CreateBrowserCredential(ctx context.Context, accountID string, names []string) (NewKey, error) {
	perms, err := scope.ParseSet(names)
	if err != nil {
		return NewKey{}, fmt.Errorf("%w: scopes: %w", usecase.ErrValidation, err)
	}
	if beyond := scope.Missing(scope.SelfServe(), perms); len(beyond) > 0 {
		return NewKey{}, fmt.Errorf("%w: a browser credential may carry only self-serve permissions, not %v", usecase.ErrValidation, scope.Strings(beyond))
	}
	now := s.now()
	expires := now.Add(BrowserCredentialTTL)
	return s.mint(ctx, apikey.Key{
		ID: NewID(strings.TrimSuffix(browserCredentialIDPrefix, "_")), AccountID: accountID, Name: browserCredentialName,
		Scopes: scope.Strings(perms), CreatedAt: now, ExpiresAt: &expires,
	}, MaxLiveBrowserCredentials)
}

// ListBrowserCredentials returns the account's browser credentials that have
// not expired, revoked ones included, oldest first.
func (s *Keys) ListBrowserCredentials(ctx context.Context, accountID string) ([]apikey.Key, error) {
	return s.keys.KeysByAccount(ctx, accountID, ports.KeyFilter{Kind: apikey.Browser, LiveAt: s.now()})
}

// RevokeBrowserCredential revokes one of the account's browser credentials;
// it stops working at once.
func (s *Keys) RevokeBrowserCredential(ctx context.Context, accountID, id string) (apikey.Key, error) {
	return s.revoke(ctx, accountID, id, apikey.Browser)
}
