package bootstrap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/adapters/postgres/vault"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

var errNoVault = errors.New(EnvVaultURL + " is not set: this command works on the PII vault, as the vault role")

// withVault runs fn on a pool of the vault's database, connected as the
// vault role. The ledger's QUARRY_POSTGRES_URL is never used for it.
func withVault(ctx context.Context, cfg Config, fn func(*pgxpool.Pool) error) error {
	if cfg.VaultPostgresURL == "" {
		return errNoVault
	}
	pool, err := postgres.Connect(ctx, cfg.VaultPostgresURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	return fn(pool)
}

// VaultMigrate applies the vault's embedded migrations, which are apart
// from the ledger's, as the vault role.
func VaultMigrate(ctx context.Context, cfg Config, out io.Writer) error {
	return withVault(ctx, cfg, func(pool *pgxpool.Pool) error {
		if err := vault.Migrate(ctx, pool); err != nil {
			return err
		}
		fmt.Fprintln(out, "vault migrations applied")
		return nil
	})
}

// revealAudit is the line `quarry vault reveal` logs for every look-up,
// found or not. It names the token, never the original.
type revealAudit struct {
	Time   string `json:"time"`
	Event  string `json:"event"`
	Token  string `json:"token"`
	Found  bool   `json:"found"`
	Role   string `json:"db_role"`
	OSUser string `json:"os_user"`
	Error  string `json:"error,omitempty"`
}

// VaultReveal prints what token replaced, on out, and logs the look-up
// (who and when) as one JSON line on audit, before anything is printed.
func VaultReveal(ctx context.Context, cfg Config, token string, out, audit io.Writer) error {
	if !pii.IsToken(token) {
		return fmt.Errorf("vault reveal: %q is not a token (PTY_ or PAN_ and 16 base32 characters)", token)
	}
	return withVault(ctx, cfg, func(pool *pgxpool.Pool) error {
		e, err := vault.New(pool).Reveal(ctx, token)
		line := revealAudit{
			Time:   time.Now().UTC().Format(time.RFC3339Nano),
			Event:  "vault reveal",
			Token:  token,
			Found:  err == nil,
			Role:   pool.Config().ConnConfig.User,
			OSUser: osUser(),
		}
		if err != nil && !errors.Is(err, ports.ErrNotFound) {
			line.Error = err.Error()
		}
		if werr := json.NewEncoder(audit).Encode(line); werr != nil {
			// An unlogged reveal is not allowed to happen.
			return fmt.Errorf("vault reveal: log the look-up: %w", werr)
		}
		if err != nil {
			return fmt.Errorf("vault reveal: %w", err)
		}
		fmt.Fprintf(out, "%s\t%s\t%s\n", e.Token, e.Kind, e.Original)
		return nil
	})
}

// osUser names the operating-system user running the command.
func osUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}
