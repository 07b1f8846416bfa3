package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// TestVaultCommandsNeedTheVaultURL: without QUARRY_VAULT_POSTGRES_URL the
// vault commands refuse, and never fall back on the ledger's database.
func TestVaultCommandsNeedTheVaultURL(t *testing.T) {
	ctx := context.Background()
	cfg := bootstrap.Config{PostgresURL: "postgres://quarry_app:p@127.0.0.1:1/quarry"}
	var out, audit bytes.Buffer
	for name, err := range map[string]error{
		"migrate": cli.VaultMigrate(ctx, cfg, &out),
		"reveal":  cli.VaultReveal(ctx, cfg, "PTY_AAAAAAAAAAAAAAAA", &out, &audit),
	} {
		if err == nil || !strings.Contains(err.Error(), bootstrap.EnvVaultURL+" is not set") {
			t.Errorf("vault %s without the vault URL: %v", name, err)
		}
	}
	err := cli.VaultReveal(ctx, bootstrap.Config{VaultPostgresURL: "postgres://v:p@127.0.0.1:1/quarry"}, "Meera Devi", &out, &audit)
	if err == nil || !strings.Contains(err.Error(), "is not a token") {
		t.Errorf("reveal of a name: %v", err)
	}
	if out.Len() > 0 || audit.Len() > 0 {
		t.Errorf("printed %q, logged %q", out.String(), audit.String())
	}
}
