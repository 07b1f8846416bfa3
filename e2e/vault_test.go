package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/adapters/postgres/vault"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

const (
	appRolePassword   = "app-e2e-password"
	vaultRolePassword = "vault-e2e-password"
)

// vaultDatabase makes a fresh Quarry database (the ledger migrated, as
// every test's) and sets it up as an operator would: scripts/vault-roles.sql
// run by the superuser, passwords given to the two roles. It returns the
// database's URLs as the application role and as the vault role.
func vaultDatabase(t *testing.T) (appURL, vaultURL string) {
	t.Helper()
	ctx := context.Background()
	adminURL := postgresDB(t)
	script, err := os.ReadFile("../scripts/vault-roles.sql")
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, string(script)); err != nil {
		t.Fatalf("scripts/vault-roles.sql: %v", err)
	}
	if _, err := admin.Exec(ctx, "ALTER ROLE quarry_app PASSWORD '"+appRolePassword+"'; ALTER ROLE quarry_vault PASSWORD '"+vaultRolePassword+"'"); err != nil {
		t.Fatal(err)
	}
	as := func(role, password string) string {
		u, err := url.Parse(adminURL)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword(role, password)
		return u.String()
	}
	return as("quarry_app", appRolePassword), as("quarry_vault", vaultRolePassword)
}

// migratedVault returns the URLs of a fresh database whose vault is
// migrated by `quarry vault migrate`, as the vault role.
func migratedVault(t *testing.T) (appURL, vaultURL string) {
	t.Helper()
	appURL, vaultURL = vaultDatabase(t)
	var out bytes.Buffer
	if err := cli.VaultMigrate(context.Background(), bootstrap.Config{VaultPostgresURL: vaultURL}, &out); err != nil {
		t.Fatalf("vault migrate: %v", err)
	}
	if out.String() != "vault migrations applied\n" {
		t.Fatalf("vault migrate printed %q", out.String())
	}
	return appURL, vaultURL
}

// TestApplicationRoleCannotReadTheVault is the proof of spec §1's
// isolation: connected as the application role, reading the vault fails
// with permission denied (SQLSTATE 42501), and so does migrating it; the
// vault's migrations are recorded apart from the ledger's.
func TestApplicationRoleCannotReadTheVault(t *testing.T) {
	ctx := context.Background()
	appURL, vaultURL := migratedVault(t)

	app, err := pgx.Connect(ctx, appURL)
	if err != nil {
		t.Fatalf("connect as the application role: %v", err)
	}
	defer app.Close(ctx)
	var role string
	if err := app.QueryRow(ctx, "SELECT current_user").Scan(&role); err != nil || role != "quarry_app" {
		t.Fatalf("current_user = %q, %v", role, err)
	}
	for _, stmt := range []string{
		"SELECT token, original FROM vault.entries",
		"SELECT count(*) FROM vault.schema_migrations",
		"INSERT INTO vault.entries (token, kind, original) VALUES ('PTY_AAAAAAAAAAAAAAAA', 'party', 'x')",
	} {
		var n any
		err := app.QueryRow(ctx, stmt).Scan(&n)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "42501" {
			t.Fatalf("as quarry_app, %s: %v, want SQLSTATE 42501", stmt, err)
		}
	}
	err = cli.VaultMigrate(ctx, bootstrap.Config{VaultPostgresURL: appURL}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("vault migrate as the application role: %v", err)
	}

	vaultConn, err := pgx.Connect(ctx, vaultURL)
	if err != nil {
		t.Fatal(err)
	}
	defer vaultConn.Close(ctx)
	versions := func(table string) []string {
		rows, err := vaultConn.Query(ctx, "SELECT version FROM "+table+" ORDER BY version")
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		v, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got := versions("vault.schema_migrations"); !slices.Equal(got, []string{"0001_entries", "0002_address_kind"}) {
		t.Fatalf("vault.schema_migrations = %v", got)
	}
	// The vault role cannot read the ledger's bookkeeping either: the
	// two sets of migrations share nothing. Check it as the superuser.
	admin, err := pgx.Connect(ctx, strings.Replace(appURL, "quarry_app:"+appRolePassword, pgUser+":"+pgPassword, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var vaultInLedger bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM public.schema_migrations WHERE version LIKE '%entries%')").Scan(&vaultInLedger); err != nil || vaultInLedger {
		t.Fatalf("the ledger's schema_migrations holds a vault version: %v %v", vaultInLedger, err)
	}

	// Migrating again, by racing operators, is a no-op.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := cli.VaultMigrate(ctx, bootstrap.Config{VaultPostgresURL: vaultURL}, &bytes.Buffer{}); err != nil {
				t.Errorf("vault migrate again: %v", err)
			}
		})
	}
	wg.Wait()
}

// TestVaultReveal runs `quarry vault reveal` on what a tokenized judgment
// put in the vault: it prints the original and logs who looked and when as
// one JSON line, also when the token is unknown.
func TestVaultReveal(t *testing.T) {
	ctx := context.Background()
	_, vaultURL := migratedVault(t)
	key, err := pii.NewKey([]byte("e2e vault key of at least 32 bytes"))
	if err != nil {
		t.Fatal(err)
	}
	// An invented party and PAN in the shape of an Indian cause title.
	r, err := key.NewRedactor([]string{"Meera Devi"})
	if err != nil {
		t.Fatal(err)
	}
	title := r.Redact("Meera Devi (PAN AAAPD1234K) v. Union of India")
	pool, err := postgres.Connect(ctx, vaultURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := vault.New(pool).Put(ctx, r.Entries()); err != nil {
		t.Fatal(err)
	}
	party, _ := key.Token(pii.KindParty, "Meera Devi")
	pan, _ := key.Token(pii.KindPAN, "AAAPD1234K")
	if want := party + " (PAN " + pan + ") v. Union of India"; title != want {
		t.Fatalf("title %q, want %q", title, want)
	}

	cfg := bootstrap.Config{VaultPostgresURL: vaultURL}
	for _, c := range []struct{ token, want string }{{party, "party\tMeera Devi"}, {pan, "pan\tAAAPD1234K"}} {
		var out, audit bytes.Buffer
		if err := cli.VaultReveal(ctx, cfg, c.token, &out, &audit); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.token+"\t"+c.want+"\n" {
			t.Fatalf("reveal printed %q", out.String())
		}
		line := auditLine(t, audit.Bytes())
		if line["token"] != c.token || line["found"] != true || line["db_role"] != "quarry_vault" ||
			line["event"] != "vault reveal" || line["time"] == "" || line["os_user"] == "" {
			t.Fatalf("audit line %v", line)
		}
		if strings.Contains(audit.String(), "Meera") || strings.Contains(audit.String(), "AAAPD") {
			t.Fatalf("the audit line repeats the original: %s", audit.String())
		}
	}
	var out, audit bytes.Buffer
	unknown, _ := key.Token(pii.KindParty, "Nobody Here")
	err = cli.VaultReveal(ctx, cfg, unknown, &out, &audit)
	if !errors.Is(err, ports.ErrNotFound) || out.Len() > 0 {
		t.Fatalf("reveal of an unknown token: %v, printed %q", err, out.String())
	}
	if line := auditLine(t, audit.Bytes()); line["found"] != false || line["token"] != unknown {
		t.Fatalf("audit line %v", line)
	}
}

func auditLine(t *testing.T, b []byte) map[string]any {
	t.Helper()
	if bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("audit %q: want one line", b)
	}
	var line map[string]any
	if err := json.Unmarshal(b, &line); err != nil {
		t.Fatalf("audit %q: %v", b, err)
	}
	return line
}
