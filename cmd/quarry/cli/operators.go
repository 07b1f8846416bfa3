package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/bootstrap"
)

// withOperators runs fn with the operator use cases on the configured
// platform store.
func withOperators(ctx context.Context, cfg bootstrap.Config, fn func(*platform.Operators) error) error {
	return bootstrap.WithPlatform(ctx, cfg, true, func(store bootstrap.OperatorStore) error {
		return fn(platform.NewOperators(store, store, store, usecase.SystemClock))
	})
}

// GrantCredits tops up the account of email with a grant naming reason.
func GrantCredits(ctx context.Context, cfg bootstrap.Config, email string, amount int64, reason string, out io.Writer) error {
	return withOperators(ctx, cfg, func(o *platform.Operators) error {
		bal, err := o.GrantCredits(ctx, email, amount, reason)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "granted %d credits to %s (%s); balance %d\n", amount, email, reason, bal)
		return nil
	})
}

// SetKeyScope grants a permission to a key (held) or revokes it, such as
// resale:read, which self-serve keys never carry.
func SetKeyScope(ctx context.Context, cfg bootstrap.Config, keyID, permission string, held bool, out io.Writer) error {
	return withOperators(ctx, cfg, func(o *platform.Operators) error {
		k, err := o.SetKeyScope(ctx, keyID, permission, held)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "key %s scopes: %s\n", k.ID, strings.Join(k.Scopes, " "))
		return nil
	})
}
