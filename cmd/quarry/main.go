// Command quarry is the one Quarry binary: it serves the API, migrates the
// PostgreSQL schema, ingests source files and verifies the credit ledger.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/quarrydata/quarry/bootstrap"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// usage is the command summary; the ingest datasets come from the datasets
// the binary registers.
var usage = `usage: quarry <command>

commands:
  serve                          serve the API (configured by QUARRY_* variables)
  migrate                        apply the embedded PostgreSQL migrations
  ingest [--quiet] DATASET [FILE...]
                                 load source files of a dataset into MongoDB (default: the bundled sample);
                                 DATASET is all (every bundled sample) or one of the datasets below; a FILE
                                 may be a directory (its files) or a .zip archive (its entries, read in place).
                                 Progress goes to stderr: a bar on a terminal, else one line per file;
                                 --quiet shows none
  ledger verify                  check that every balance equals the sum of its entries
  backup DIR                     copy the data directory's stores (QUARRY_DATA_DIR) into the new directory DIR,
                                 consistently, while a server may go on serving; serve DIR to restore it
  credits grant EMAIL AMOUNT --reason TEXT
                                 top up an account with a grant entry naming the reason
  keys grant-scope KEY_ID PERMISSION
                                 add a permission to a key (resale:read is never self-serve)
  keys revoke-scope KEY_ID PERMISSION
                                 remove a permission from a key
  vault migrate                  apply the PII vault's own migrations (QUARRY_VAULT_POSTGRES_URL, the vault role)
  vault reveal TOKEN             print what a token replaced; every look-up is logged to stderr as a JSON line
  version                        print the build and interface versions
  help                           print this usage

ingest datasets:
` + ingestDatasets()

func ingestDatasets() string {
	var b strings.Builder
	for _, d := range bootstrap.IngestDatasets() {
		fmt.Fprintf(&b, "  %-30s %s\n", d.Name, d.Sources)
	}
	return b.String()
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "quarry:", err)
		if errors.Is(err, errUsage) {
			fmt.Fprint(os.Stderr, usage)
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("unknown command")

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return errUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(out, usage)
		return nil
	}
	if args[0] == "version" {
		fmt.Fprintf(out, "quarry %s (interface %s)\n", version, bootstrap.InterfaceVersion)
		return nil
	}
	cfg, err := bootstrap.LoadConfig(os.Getenv)
	if err != nil {
		return err
	}
	switch {
	case args[0] == "serve" && len(args) == 1:
		return bootstrap.Serve(ctx, cfg)
	case args[0] == "migrate" && len(args) == 1:
		return bootstrap.Migrate(ctx, cfg, out)
	case args[0] == "ingest" && len(args) >= 2:
		var progress io.Writer = os.Stderr
		if args[1] == "--quiet" {
			progress, args = nil, args[1:]
		}
		if len(args) < 2 {
			break
		}
		return bootstrap.Ingest(ctx, cfg, args[1], args[2:], out, progress)
	case args[0] == "backup" && len(args) == 2:
		return bootstrap.Backup(ctx, cfg, args[1], out)
	case args[0] == "ledger" && len(args) == 2 && args[1] == "verify":
		return bootstrap.VerifyLedger(ctx, cfg, out)
	case args[0] == "credits" && len(args) == 6 && args[1] == "grant" && args[4] == "--reason":
		amount, err := strconv.ParseInt(args[3], 10, 64)
		if err != nil {
			return fmt.Errorf("credits grant: AMOUNT %q is not a whole number of credits", args[3])
		}
		return bootstrap.GrantCredits(ctx, cfg, args[2], amount, args[5], out)
	case args[0] == "vault" && len(args) == 2 && args[1] == "migrate":
		return bootstrap.VaultMigrate(ctx, cfg, out)
	case args[0] == "vault" && len(args) == 3 && args[1] == "reveal":
		return bootstrap.VaultReveal(ctx, cfg, args[2], out, os.Stderr)
	case args[0] == "keys" && len(args) == 4 && (args[1] == "grant-scope" || args[1] == "revoke-scope"):
		return bootstrap.SetKeyScope(ctx, cfg, args[2], args[3], args[1] == "grant-scope", out)
	}
	return fmt.Errorf("%w: %q", errUsage, args)
}
