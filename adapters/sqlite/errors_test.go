package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"path/filepath"
	"testing"

	modernc "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/quarrydata/quarry/ports"
)

// TestTranslate holds real driver errors to the sentinels they mean.
func TestTranslate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "platform.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	_, err = s.writer.ExecContext(ctx, `INSERT INTO accounts (id, email, password_hash, balance, created_at) VALUES ('acc_1', 'a@example.com', 'h', 0, 0)`)
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	// A second handle that does not wait for locks, to meet SQLITE_BUSY.
	impatient, err := openDB(path, url.Values{"_txlock": {"immediate"}, "_pragma": {pragma("busy_timeout", 0)}}, 1)
	if err != nil {
		t.Fatalf("open a second handle: %v", err)
	}
	t.Cleanup(func() { _ = impatient.Close() })
	cases := []struct {
		name string
		err  func() error
		want error
	}{
		{"no row", func() error {
			return s.reader.QueryRowContext(ctx, `SELECT id FROM accounts WHERE id = 'acc_missing'`).Scan(new(string))
		}, ports.ErrNotFound},
		{"unique", func() error {
			_, err := s.writer.ExecContext(ctx, `INSERT INTO accounts (id, email, password_hash, balance, created_at) VALUES ('acc_2', 'a@example.com', 'h', 0, 0)`)
			return err
		}, ports.ErrConflict},
		{"primary key", func() error {
			_, err := s.writer.ExecContext(ctx, `INSERT INTO accounts (id, email, password_hash, balance, created_at) VALUES ('acc_1', 'b@example.com', 'h', 0, 0)`)
			return err
		}, ports.ErrConflict},
		{"foreign key", func() error {
			_, err := s.writer.ExecContext(ctx, `INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES ('t', 'acc_missing', 0, 0)`)
			return err
		}, ports.ErrNotFound},
		{"busy", func() error {
			return inTx(ctx, s.writer, func(*sql.Tx) error {
				_, err := impatient.ExecContext(ctx, `INSERT INTO signin_history (key, signed_in_at) VALUES ('k', 0)`)
				if sqlErr := (*modernc.Error)(nil); !errors.As(err, &sqlErr) || sqlErr.Code() != sqlite3.SQLITE_BUSY {
					t.Errorf("a write while another holds the lock: %v, want SQLITE_BUSY", err)
				}
				return err
			})
		}, ports.ErrUnavailable},
		{"cancelled", func() error {
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			return s.reader.QueryRowContext(cancelled, `SELECT 1`).Scan(new(int))
		}, context.Canceled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := c.err()
			if raw == nil {
				t.Fatal("no error")
			}
			if err := translate(c.name, raw); !errors.Is(err, c.want) {
				t.Fatalf("translate(%v) = %v, want %v", raw, err, c.want)
			}
		})
	}
}
