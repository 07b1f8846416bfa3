package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/quarrydata/quarry/ports"
)

// TestSchema checks what the contracts cannot see: the connections are set
// up for durability, opening a migrated file applies nothing again, and the
// database itself refuses to rewrite ledger history, with an error the
// adapter translates.
func TestSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "platform.db")
	first, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open a new file: %v", err)
	}
	if err := first.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open a migrated file: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	for pragma, want := range map[string]string{"journal_mode": "wal", "synchronous": "2", "foreign_keys": "1", "busy_timeout": "5000"} {
		var got string
		if err := s.writer.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil || got != want {
			t.Errorf("writer PRAGMA %s = %q, %v; want %q", pragma, got, err, want)
		}
	}
	var migrations int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&migrations); err != nil || migrations != 3 {
		t.Errorf("schema_migrations holds %d versions, %v; want 3", migrations, err)
	}
	_, err = s.writer.ExecContext(ctx, `
		INSERT INTO accounts (id, email, password_hash, balance, created_at) VALUES ('acc_1', 'a@example.com', 'h', 5, 0);
		INSERT INTO ledger_entries (id, account_id, kind, amount, created_at) VALUES ('led_1', 'acc_1', 'grant', 5, 0)`)
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	for _, rewrite := range []string{`UPDATE ledger_entries SET amount = 50`, `DELETE FROM ledger_entries`} {
		_, err := s.writer.ExecContext(ctx, rewrite)
		if err := translate("rewrite", err); !errors.Is(err, ports.ErrConflict) {
			t.Errorf("%s on the append-only ledger: %v, want ports.ErrConflict", rewrite, err)
		}
	}
	if _, err := s.reader.ExecContext(ctx, `DELETE FROM sessions`); err == nil {
		t.Error("a reader connection wrote")
	}
}
