// Command quarry is the one Quarry binary: it serves the API, migrates the
// PostgreSQL schema, ingests source files into MongoDB or the data
// directory, and verifies the credit ledger. `quarry help` lists its
// commands and settings; `quarry COMMAND --help` prints one command's help.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/internal/buildinfo"
)

// command is one line of the command summary and its own help.
type command struct {
	name  string // as typed, such as "ledger verify"
	args  string // its arguments and flags
	about string // what it does, one sentence a line
}

// commands are the binary's commands, in the order help lists them.
var commands = []command{
	{"serve", "", "serve the API and the console, configured by the QUARRY_* settings\n" +
		"With no setting: memory storage and the bundled samples on 127.0.0.1:8080.\n" +
		"quarry help lists every setting with its default."},
	{"migrate", "", "apply the embedded PostgreSQL migrations (QUARRY_POSTGRES_URL)"},
	{"ingest", "[--quiet] DATASET [FILE...]", "load source files into MongoDB or the data directory\n" +
		"Writes the documents at QUARRY_MONGO_URI, else those of QUARRY_DATA_DIR (with the server stopped);\n" +
		"without FILE it loads the bundled sample. DATASET is all (every bundled sample) or one of the\n" +
		"ingest datasets; a FILE may be a directory (its files) or a .zip archive (its entries, read in\n" +
		"place). Progress goes to stderr: a bar on a terminal, else one line per file; --quiet shows none."},
	{"sync", "[SOURCE...] [--from DATE] [--to DATE]", "fetch the outside sources' new days into MongoDB or the data directory\n" +
		"SOURCE is nse (NSE's daily bhavcopy), edgar (EDGAR's daily form index: each 10-K, 10-Q and 10-K/A filer's\n" +
		"companyfacts and the filing's folder, each 13F-HR; needs QUARRY_SEC_USER_AGENT) or tushare (Tushare Pro\n" +
		"daily bars and listings; needs QUARRY_TUSHARE_TOKEN); none means every configured one.\n" +
		"Without a range each source resumes after the last day it holds (on an empty store: the latest day due)\n" +
		"and asks again the days missing whose next try is due; --from and --to (YYYY-MM-DD) fetch exactly those\n" +
		"days, held or not, and no others. A day answered with nothing is a holiday only on the source's trusted\n" +
		"calendar, else missing (asked again after 1h, 2h, ... up to 24h, given up after 8 attempts). A day is\n" +
		"loaded whole or not at all; a failed day stops the source, and the next run starts again there. SOURCE judgments takes the licensed deliveries (.zip) waiting in\n" +
		"QUARRY_JUDGMENTS_INBOX, tokenized with QUARRY_VAULT_KEY, and moves each into done/ or, refused, into refused/."},
	{"sync edgar --bulk", "", "backfill us_financials from the SEC's nightly companyfacts.zip (every filer, about 1.2 GB)\n" +
		"Streams it to a temporary file, checks it whole, loads it with company_tickers.json; an archive unchanged\n" +
		"since the last load (its ETag and Last-Modified kept) loads nothing. Needs QUARRY_SEC_USER_AGENT."},
	{"sync status", "", "show each source: configured or not, days held (an inbox: files taken), last success, last error and lag,\n" +
		"then a line for each gap not fetched (gap: FIRST..LAST not fetched) and each day missing, with its attempts and next try"},
	{"ledger verify", "", "check that every balance equals the sum of its entries\n" +
		"Reads PostgreSQL or the data directory, beside a running server; exits 1 on a mismatch."},
	{"backup", "DIR", "copy the data directory into the new directory DIR\n" +
		"Copies the stores of QUARRY_DATA_DIR consistently while a server may go on serving;\n" +
		"serving DIR (QUARRY_DATA_DIR=DIR quarry serve) restores it."},
	{"credits grant", "EMAIL AMOUNT --reason TEXT", "top up an account with a grant entry naming the reason"},
	{"keys grant-scope", "KEY_ID PERMISSION", "add a permission to a key (resale:read is never self-serve)"},
	{"keys revoke-scope", "KEY_ID PERMISSION", "remove a permission from a key"},
	{"vault migrate", "", "apply the PII vault's own migrations (QUARRY_VAULT_POSTGRES_URL, the vault role)"},
	{"vault retokenize", "", "bring the stored judgments up to the current rules of tokenization\n" +
		"Needs QUARRY_VAULT_KEY and MongoDB or the data directory (server stopped); new tokens go to the vault\n" +
		"when QUARRY_VAULT_POSTGRES_URL is set. Running it again changes nothing."},
	{"vault reveal", "TOKEN", "print what a token replaced\n" +
		"Every look-up is logged to stderr as a JSON line."},
	{"mcp", "--url URL", "serve MCP on stdio for a desktop assistant, forwarding to the Quarry at URL\n" +
		"Sends QUARRY_API_KEY with every request to URL's /mcp; tools, resources and prompt are the remote's.\n" +
		"Configuration for assistants: docs/mcp.md."},
	{"version", "", "print the build and interface versions"},
	{"help", "[COMMAND]", "print this summary and every setting, or one command's help\n" +
		"quarry COMMAND --help (or -h) prints the same as quarry help COMMAND."},
}

// usage is the command summary: every command, the ingest datasets the
// binary registers, and every setting with its default.
func usage() string {
	var b strings.Builder
	b.WriteString("usage: quarry <command> [arguments]\n\ncommands:\n")
	for _, c := range commands {
		line := strings.TrimSpace(c.name + " " + c.args)
		about, _, _ := strings.Cut(c.about, "\n")
		if len(line) > 30 {
			fmt.Fprintf(&b, "  %s\n  %-30s %s\n", line, "", about)
		} else {
			fmt.Fprintf(&b, "  %-30s %s\n", line, about)
		}
	}
	b.WriteString("\n`quarry COMMAND --help` prints one command's help.\n\ningest datasets:\n")
	b.WriteString(ingestDatasets())
	b.WriteString("\nsettings (environment variables; a bad value stops the command with one line naming it):\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, s := range bootstrap.Settings {
		def := s.Default
		if def == "" {
			def = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Name, def, s.Meaning)
	}
	_ = tw.Flush()
	return b.String()
}

// commandHelp is the help of every command named name or starting with it
// (quarry ledger --help shows ledger verify); false when there is none.
func commandHelp(name string) (string, bool) {
	var b strings.Builder
	for _, c := range commands {
		if c.name != name && !strings.HasPrefix(c.name, name+" ") {
			continue
		}
		fmt.Fprintf(&b, "usage: quarry %s\n\n", strings.TrimSpace(c.name+" "+c.args))
		for line := range strings.SplitSeq(c.about, "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
		if c.name == "ingest" {
			b.WriteString("\ningest datasets:\n" + ingestDatasets())
		}
		b.WriteString("\n")
	}
	return b.String(), b.Len() > 0
}

// ingestDatasets lists the datasets the binary registers, with the source
// files each reads.
func ingestDatasets() string {
	var b strings.Builder
	for _, d := range bootstrap.IngestDatasets() {
		fmt.Fprintf(&b, "  %-30s %s\n", d.Name, d.Sources)
		for _, id := range d.Also {
			fmt.Fprintf(&b, "  %-30s (loads %s)\n", id, d.Name)
		}
		if d.Alias != "" {
			fmt.Fprintf(&b, "  %-30s (alias of %s, until the next release)\n", d.Alias, d.Name)
		}
	}
	return b.String()
}

// wantsHelp reports whether args ask for help anywhere: such a command
// only prints its help, and reads no setting.
func wantsHelp(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		return a == "-h" || a == "-help" || a == "--help"
	})
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "quarry:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// errUsage marks a command line that names no command, or a command with
// the wrong arguments: exit status 2, and one line saying what is wrong.
var errUsage = errors.New("usage")

// usageError says, in one line, how args differ from a command's usage:
// which command they name and what it takes, or that none is named.
func usageError(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: no command given; quarry help lists the commands", errUsage)
	}
	if c, ok := commandOf(args); ok {
		return fmt.Errorf("%w: quarry %s; quarry help %s explains it", errUsage, strings.TrimSpace(c.name+" "+c.args), c.name)
	}
	return fmt.Errorf("%w: %q is no command; quarry help lists the commands", errUsage, strings.Join(args, " "))
}

// commandOf returns the command whose name the first words of args spell,
// the longest such name.
func commandOf(args []string) (command, bool) {
	var best command
	for _, c := range commands {
		words := strings.Fields(c.name)
		if len(words) <= len(args) && slices.Equal(words, args[:len(words)]) && len(words) > len(strings.Fields(best.name)) {
			best = c
		}
	}
	return best, best.name != ""
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return usageError(args)
	}
	switch {
	case wantsHelp(args[:1]):
		fmt.Fprint(out, usage())
		return nil
	case wantsHelp(args[1:]):
		return printHelp(out, args[0])
	case args[0] == "help" && len(args) > 1:
		return printHelp(out, strings.Join(args[1:], " "))
	case args[0] == "help":
		fmt.Fprint(out, usage())
		return nil
	}
	if args[0] == "version" {
		fmt.Fprintf(out, "quarry %s (interface %s)\n", buildinfo.Version, dataset.Version)
		return nil
	}
	cfg, err := bootstrap.LoadConfig(os.Getenv)
	if err != nil {
		return err
	}
	switch {
	case args[0] == "serve" && len(args) == 1:
		return cli.Serve(ctx, cfg)
	case args[0] == "migrate" && len(args) == 1:
		return cli.Migrate(ctx, cfg, out)
	case args[0] == "ingest" && len(args) >= 2:
		var progress io.Writer = os.Stderr
		if args[1] == "--quiet" {
			progress, args = nil, args[1:]
		}
		if len(args) < 2 {
			break
		}
		return cli.Ingest(ctx, cfg, args[1], args[2:], out, progress)
	case args[0] == "sync" && len(args) == 2 && args[1] == "status":
		return cli.SyncStatus(ctx, cfg, out)
	case args[0] == "sync":
		sa, err := cli.ParseSyncArgs(args[1:])
		if err != nil {
			return err
		}
		return cli.Sync(ctx, cfg, sa, out)
	case args[0] == "backup" && len(args) == 2:
		return cli.Backup(ctx, cfg, args[1], out)
	case args[0] == "ledger" && len(args) == 2 && args[1] == "verify":
		return cli.VerifyLedger(ctx, cfg, out)
	case args[0] == "credits" && len(args) == 6 && args[1] == "grant" && args[4] == "--reason":
		amount, err := strconv.ParseInt(args[3], 10, 64)
		if err != nil {
			return fmt.Errorf("credits grant: AMOUNT %q is not a whole number of credits", args[3])
		}
		return cli.GrantCredits(ctx, cfg, args[2], amount, args[5], out)
	case args[0] == "mcp" && len(args) == 3 && args[1] == "--url":
		return bootstrap.MCPBridge(ctx, cfg, args[2], buildinfo.Version, os.Stdin, os.Stdout)
	case args[0] == "vault" && len(args) == 2 && args[1] == "migrate":
		return cli.VaultMigrate(ctx, cfg, out)
	case args[0] == "vault" && len(args) == 2 && args[1] == "retokenize":
		return cli.VaultRetokenize(ctx, cfg, out)
	case args[0] == "vault" && len(args) == 3 && args[1] == "reveal":
		return cli.VaultReveal(ctx, cfg, args[2], out, os.Stderr)
	case args[0] == "keys" && len(args) == 4 && (args[1] == "grant-scope" || args[1] == "revoke-scope"):
		return cli.SetKeyScope(ctx, cfg, args[2], args[3], args[1] == "grant-scope", out)
	}
	return usageError(args)
}

// printHelp prints the help of the command name.
func printHelp(out io.Writer, name string) error {
	help, ok := commandHelp(name)
	if !ok {
		return usageError(strings.Fields(name))
	}
	fmt.Fprint(out, help)
	return nil
}
