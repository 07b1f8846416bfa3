package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"time"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

// VaultMigrate applies the vault's embedded migrations, which are apart
// from the ledger's, as the vault role.
func VaultMigrate(ctx context.Context, cfg bootstrap.Config, out io.Writer) error {
	if err := bootstrap.MigrateVault(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintln(out, "vault migrations applied")
	return nil
}

// VaultRetokenize brings the judgments stored in MongoDB or the data
// directory up to the current rules of tokenization with QUARRY_VAULT_KEY
// (persons and PANs that earlier rules left in clear), writing the new
// tokens' mapping to the vault when QUARRY_VAULT_POSTGRES_URL is set and
// the search index of the judgments when it is kept on disk.
func VaultRetokenize(ctx context.Context, cfg bootstrap.Config, out io.Writer) error {
	if !cfg.OnMongo() {
		return errors.New("neither " + bootstrap.EnvMongoURI + " nor " + bootstrap.EnvDataDir + " is set: vault retokenize rewrites the judgments stored in MongoDB or the data directory")
	}
	return bootstrap.WithIngesters(ctx, cfg, func(byName map[string]bootstrap.Ingester) error {
		got, err := byName[string(dataset.IndiaJudgments)].Load(ctx, &ingest.Files{Retokenize: true})
		if err != nil {
			return fmt.Errorf("vault retokenize: %w", err)
		}
		fmt.Fprintf(out, "retokenized the judgments of %s: %d checked, %d changed%s%s\n", cfg.MongoDB, got.Read, got.Records, also(got.Indexed), also(got.Skipped))
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
func VaultReveal(ctx context.Context, cfg bootstrap.Config, token string, out, audit io.Writer) error {
	if !pii.IsToken(token) {
		return fmt.Errorf("vault reveal: %q is not a token (PTY_, PAN_ or ADR_ and 16 base32 characters)", token)
	}
	return bootstrap.WithVault(ctx, cfg, func(v ports.Vault, role string) error {
		e, err := v.Reveal(ctx, token)
		line := revealAudit{
			Time:   time.Now().UTC().Format(time.RFC3339Nano),
			Event:  "vault reveal",
			Token:  token,
			Found:  err == nil,
			Role:   role,
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
