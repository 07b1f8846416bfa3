package cli_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// TestDataDirectoryGivenRelatively runs the data-directory commands the
// README prints, with QUARRY_DATA_DIR=./data as it prints it: the stores
// are opened, backed up into a relative directory, and the copy opened.
func TestDataDirectoryGivenRelatively(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ctx := context.Background()
	relative := func(path string) bootstrap.Config {
		cfg, err := bootstrap.LoadConfig(func(k string) string { return map[string]string{bootstrap.EnvDataDir: path}[k] })
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	if err := cli.VerifyLedger(ctx, relative("./data"), io.Discard); err == nil || !strings.Contains(err.Error(), "no such directory") {
		t.Fatalf("ledger verify before the directory exists: %v, want it named as missing", err)
	}
	if err := os.Mkdir("data", 0o700); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := cli.VerifyLedger(ctx, relative("./data"), &out); err != nil {
		t.Fatalf("ledger verify on ./data: %v", err)
	}
	if err := cli.Backup(ctx, relative("./data"), "./backup", &out); err != nil {
		t.Fatalf("backup ./backup: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "backup", "platform.db")); err != nil {
		t.Fatalf("the backup's platform store: %v\n%s", err, out.String())
	}
	if err := cli.VerifyLedger(ctx, relative("backup"), &out); err != nil {
		t.Fatalf("ledger verify on the backup: %v", err)
	}
	if !strings.Contains(out.String(), "every balance equals the sum of its entries") {
		t.Fatalf("output:\n%s", out.String())
	}
}
