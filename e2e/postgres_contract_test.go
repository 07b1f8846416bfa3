package e2e

import (
	"context"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/adapters/postgres/vault"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestPostgresContracts runs the account-side port contracts against the
// PostgreSQL adapter, and the Vault's against the vault's adapter as the
// vault role, and the sources' leases, a fresh migrated database per test.
func TestPostgresContracts(t *testing.T) {
	// The contract suites touch only stores of their own: they run beside
	// each other once the other tests are done, on the second core.
	t.Parallel()
	porttest.RunAll(t, porttest.Stores{Platform: postgresPlatform, Vault: postgresVault, SourceLeases: postgresLeases})
}

// postgresLeases returns the sources' leases on a fresh migrated database.
func postgresLeases(t *testing.T) ports.SourceLeases {
	return postgres.NewSourceLeases(postgresPool(t))
}

// postgresPlatform returns the account-side stores on a fresh migrated
// database.
func postgresPlatform(t *testing.T) porttest.Platform {
	url := postgresDB(t)
	pool, err := postgres.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(pool.Close)
	s := postgres.New(pool)
	t.Cleanup(s.Close)
	return porttest.Platform{
		Accounts: s, Sessions: s, Keys: s, Ledger: s, Watch: s, Buckets: s, Signins: s, Idempotency: s,
		Disrupt: func(t *testing.T) int { return terminateBackends(t, pool.Config().ConnConfig.Database) },
		Close:   s.Close,
	}
}

// postgresVault returns the vault on a fresh migrated vault database,
// connected as the vault role.
func postgresVault(t *testing.T) ports.Vault {
	_, vaultURL := migratedVault(t)
	pool, err := postgres.Connect(context.Background(), vaultURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return vault.New(pool)
}

// TestPostgresSchema checks what the contracts cannot see: migrating is
// idempotent even when replicas race, and the database itself refuses to
// rewrite ledger history.
func TestPostgresSchema(t *testing.T) {
	ctx := context.Background()
	pool := postgresPool(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := postgres.Migrate(ctx, pool); err != nil {
				t.Errorf("Migrate on a migrated database: %v", err)
			}
		})
	}
	wg.Wait()
	_, err := pool.Exec(ctx, `
		INSERT INTO accounts (id, email, password_hash, balance, created_at) VALUES ('acc_1', 'a@example.com', 'h', 5, now());
		INSERT INTO ledger_entries (id, account_id, kind, amount, created_at) VALUES ('led_1', 'acc_1', 'grant', 5, now())`)
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	for _, rewrite := range []string{
		`UPDATE ledger_entries SET amount = 50`,
		`DELETE FROM ledger_entries`,
		`TRUNCATE ledger_entries CASCADE`,
	} {
		if _, err := pool.Exec(ctx, rewrite); err == nil {
			t.Errorf("%s was allowed on the append-only ledger", rewrite)
		}
	}
}

// terminateBackends ends every session on the database, as an operator's
// pg_terminate_backend or a crashing backend would: each gets FATAL 57P01,
// perhaps after its COMMIT ran. It returns how many sessions it ended.
func terminateBackends(t *testing.T, database string) int {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, servers.pgAdminURL)
	if err != nil {
		t.Fatalf("connect admin: %v", err)
	}
	defer admin.Close(ctx)
	var n int
	err = admin.QueryRow(ctx, `SELECT count(*) FROM (
		SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = $1 AND pid <> pg_backend_pid()) AS ended`, database).Scan(&n)
	if err != nil {
		t.Fatalf("terminate backends: %v", err)
	}
	return n
}

// TestPostgresSearchContracts runs the search index contracts against the
// indexes every node shares in PostgreSQL, a fresh migrated database per
// index, as bleve's adapter tests run them.
func TestPostgresSearchContracts(t *testing.T) {
	t.Parallel()
	t.Run("sections", func(t *testing.T) {
		porttest.RunSectionIndex(t, func(t *testing.T) ports.SectionIndex { return postgres.NewSectionSearch(postgresPool(t)) })
	})
	t.Run("judgments", func(t *testing.T) {
		porttest.RunJudgmentIndex(t, func(t *testing.T) ports.JudgmentIndex { return postgres.NewJudgmentSearch(postgresPool(t)) })
	})
}

// TestPostgresSearchWriter checks the shared index's writer lock: while
// one process writes an index, another's look skips it and a waiting
// writer runs once it is released; the other index's lock is apart.
func TestPostgresSearchWriter(t *testing.T) {
	ctx := context.Background()
	url := postgresDB(t)
	writers := make([]*postgres.SearchWriter, 0, 3)
	for _, name := range []string{"sections", "sections", "judgments"} {
		pool, err := postgres.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		writers = append(writers, postgres.NewSearchWriter(pool, name))
	}
	first, second, other := writers[0], writers[1], writers[2]
	release, holding := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := first.Hold(ctx, false, func(context.Context, bool) error { close(holding); <-release; return nil })
		done <- err
	}()
	<-holding
	ran, err := second.Hold(ctx, false, func(context.Context, bool) error { return nil })
	if err != nil || ran {
		t.Fatalf("a second writer's look ran = %v (%v) while the first held the lock", ran, err)
	}
	if ran, err := other.Hold(ctx, false, func(context.Context, bool) error { return nil }); err != nil || !ran {
		t.Fatalf("the judgments' writer ran = %v (%v) while the sections' lock was held", ran, err)
	}
	waited := make(chan bool, 1)
	go func() {
		ran, _ := second.Hold(ctx, true, func(context.Context, bool) error { return nil })
		waited <- ran
	}()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !<-waited {
		t.Fatal("a waiting writer did not run once the lock was released")
	}

	// A writer is told whether another process saved the checkpoint since
	// it last held the lock.
	moved := func(w *postgres.SearchWriter) bool {
		t.Helper()
		var got bool
		if _, err := w.Hold(ctx, true, func(_ context.Context, m bool) error { got = m; return nil }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	if moved(first); moved(first) {
		t.Error("nothing was saved, and the writer is told the checkpoint moved")
	}
	idx, err := postgres.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(idx.Close)
	if err := postgres.NewSectionSearch(idx).SaveCheckpoint(ctx, []byte(`{"mark":3}`)); err != nil {
		t.Fatal(err)
	}
	if !moved(first) {
		t.Error("another process saved the checkpoint, and the writer is not told")
	}
	if moved(first) {
		t.Error("the writer is told twice of one save")
	}
}
