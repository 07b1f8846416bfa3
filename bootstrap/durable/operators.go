package durable

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/adapters/ferretdb"
	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/adapters/postgres/vault"
	"github.com/quarrydata/quarry/adapters/sqlite"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/ports"
)

// MigratePostgres applies the embedded migrations to the configured
// PostgreSQL database.
func (backends) MigratePostgres(ctx context.Context, cfg bootstrap.Config) error {
	return withPool(ctx, cfg.PostgresURL, func(pool *pgxpool.Pool) error { return postgres.Migrate(ctx, pool) })
}

// withPool runs fn on a pool of the PostgreSQL database at url.
func withPool(ctx context.Context, url string, fn func(*pgxpool.Pool) error) error {
	pool, err := postgres.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()
	return fn(pool)
}

// WithPlatform runs fn on PostgreSQL when a URL is set, else on the data
// directory's SQLite file, locked when fn writes.
func (backends) WithPlatform(ctx context.Context, cfg bootstrap.Config, writes bool, fn func(bootstrap.OperatorStore) error) error {
	if cfg.PostgresURL != "" {
		return withPool(ctx, cfg.PostgresURL, func(pool *pgxpool.Pool) error {
			store := postgres.New(pool)
			defer store.Close()
			return fn(store)
		})
	}
	// A reader never creates the directory: a mistyped path should say
	// so, not open an empty store.
	if !writes && !exists(cfg.DataDir) {
		return fmt.Errorf("%s=%s: no such directory (quarry serve creates it)", bootstrap.EnvDataDir, cfg.DataDir)
	}
	if writes {
		unlock, err := bootstrap.LockDataDir(cfg.DataDir)
		if err != nil {
			return err
		}
		defer func() { _ = unlock() }()
	}
	store, err := sqlite.Open(ctx, filepath.Join(cfg.DataDir, bootstrap.DataDirPlatform))
	if err != nil {
		return err
	}
	defer func() { _ = store.Close() }()
	return fn(store)
}

// BackupStores copies the platform's SQLite file and the documents'
// SQLite files of the data directory into dst.
func (backends) BackupStores(ctx context.Context, cfg bootstrap.Config, dst string) ([]string, error) {
	var wrote []string
	if cfg.EmbeddedPlatform() && exists(filepath.Join(cfg.DataDir, bootstrap.DataDirPlatform)) {
		file, err := backupPlatform(ctx, cfg, dst)
		if err != nil {
			return nil, err
		}
		wrote = append(wrote, file)
	}
	if cfg.EmbeddedDocuments() {
		files, err := ferretdb.Backup(ctx, filepath.Join(cfg.DataDir, bootstrap.DataDirDocuments), filepath.Join(dst, bootstrap.DataDirDocuments))
		if err != nil {
			return nil, err
		}
		wrote = append(wrote, files...)
	}
	return wrote, nil
}

// backupPlatform copies the platform's SQLite file into dst.
func backupPlatform(ctx context.Context, cfg bootstrap.Config, dst string) (string, error) {
	store, err := sqlite.Open(ctx, filepath.Join(cfg.DataDir, bootstrap.DataDirPlatform))
	if err != nil {
		return "", err
	}
	defer func() { _ = store.Close() }()
	file := filepath.Join(dst, bootstrap.DataDirPlatform)
	return file, store.Backup(ctx, file)
}

// exists reports whether path names a file or directory.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// MigrateVault applies the vault's migrations as the vault role.
func (backends) MigrateVault(ctx context.Context, cfg bootstrap.Config) error {
	return withPool(ctx, cfg.VaultPostgresURL, func(pool *pgxpool.Pool) error { return vault.Migrate(ctx, pool) })
}

// WithVault runs fn on the vault at QUARRY_VAULT_URL, naming the role it
// is connected as.
func (backends) WithVault(ctx context.Context, cfg bootstrap.Config, fn func(v ports.Vault, role string) error) error {
	return withPool(ctx, cfg.VaultPostgresURL, func(pool *pgxpool.Pool) error {
		return fn(vault.New(pool), pool.Config().ConnConfig.User)
	})
}
