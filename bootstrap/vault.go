package bootstrap

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/adapters/postgres/vault"
	"github.com/quarrydata/quarry/ports"
)

var errNoVault = errors.New(EnvVaultURL + " is not set: this command works on the PII vault, as the vault role")

// withVault runs fn on a pool of the vault's database, connected as the
// vault role. The ledger's QUARRY_POSTGRES_URL is never used for it.
func withVault(ctx context.Context, cfg Config, fn func(*pgxpool.Pool) error) error {
	return withPool(ctx, cfg.VaultPostgresURL, errNoVault, fn)
}

// MigrateVault applies the vault's embedded migrations, which are apart
// from the ledger's, as the vault role.
func MigrateVault(ctx context.Context, cfg Config) error {
	return withVault(ctx, cfg, func(pool *pgxpool.Pool) error { return vault.Migrate(ctx, pool) })
}

// WithVault runs fn on the vault, connected as the vault role, which it
// names to fn.
func WithVault(ctx context.Context, cfg Config, fn func(v ports.Vault, role string) error) error {
	return withVault(ctx, cfg, func(pool *pgxpool.Pool) error {
		return fn(vault.New(pool), pool.Config().ConnConfig.User)
	})
}
