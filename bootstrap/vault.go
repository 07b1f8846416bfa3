package bootstrap

import (
	"context"
	"errors"

	"github.com/quarrydata/quarry/ports"
)

var errNoVault = errors.New(EnvVaultURL + " is not set: this command works on the PII vault, as the vault role")

// MigrateVault applies the vault's embedded migrations, which are apart
// from the ledger's, as the vault role.
func MigrateVault(ctx context.Context, cfg Config) error {
	s, err := vaultStorage(cfg)
	if err != nil {
		return err
	}
	return s.MigrateVault(ctx, cfg)
}

// WithVault runs fn on the vault, connected as the vault role, which it
// names to fn. The ledger's QUARRY_POSTGRES_URL is never used for it.
func WithVault(ctx context.Context, cfg Config, fn func(v ports.Vault, role string) error) error {
	s, err := vaultStorage(cfg)
	if err != nil {
		return err
	}
	return s.WithVault(ctx, cfg, fn)
}

// vaultStorage returns the durable backends that reach the vault cfg names.
func vaultStorage(cfg Config) (Storage, error) {
	if cfg.VaultPostgresURL == "" {
		return nil, errNoVault
	}
	return storageFor(EnvVaultURL)
}
