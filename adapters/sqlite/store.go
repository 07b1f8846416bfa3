// Package sqlite implements the account-side ports (accounts, sessions, API
// keys, the credit ledger, rate buckets, sign-in history and Idempotency-Key
// claims) in one SQLite database file, through the pure-Go driver
// modernc.org/sqlite and database/sql: a durable embedded store with no
// server to run. It owns the schema, shipped as embedded migrations, and
// translates every driver error into the ports sentinels.
//
// It keeps the PostgreSQL adapter's guarantees. Ledger entries are
// append-only (triggers refuse UPDATE and DELETE), a debit never overdraws
// and is refused for a key that is not live in the debit's own transaction,
// the balance always equals the sum of entries, and entry ids are written
// once. Every write runs on one connection in BEGIN IMMEDIATE transactions,
// in WAL mode with synchronous=FULL, so a write that returned is on disk;
// debits of concurrent callers are group-committed (batch.go) so a hot key
// is not one fsync per request. Reads use a pool of their own.
//
// A database file is served by one process at a time (the caller holds a
// lock on its data directory): the key watch tells only this process's
// watchers (keywatch.go).
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"runtime"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/quarrydata/quarry/adapters/internal/groupcommit"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// busyTimeout is how long a connection waits for a lock another holds
// before it answers SQLITE_BUSY. Within one process the single writer never
// waits on itself; this covers checkpoints and an operator's sqlite3 shell.
const busyTimeout = 5 * time.Second

// Store holds accounts, sessions, API keys, the ledger, rate buckets,
// sign-in history and Idempotency-Key claims in one database file. Call
// Close when done with it.
type Store struct {
	path string
	// writer has exactly one connection: SQLite admits one writer at a
	// time, and queueing writers in Go is cheaper than SQLITE_BUSY. Every
	// write transaction starts with BEGIN IMMEDIATE on it.
	writer *sql.DB
	// reader is a pool of connections for reads; in WAL mode they read a
	// committed snapshot while the writer writes.
	reader *sql.DB
	stmts  *ledgerStmts

	// debits queues every debit for the one writer's group commit
	// (batch.go).
	debits *groupcommit.Queue[oneQueue, ledger.Entry, debitResult]

	watchMu  sync.Mutex
	watchers map[*ports.KeyWatcher]ports.KeyWatcher
}

var (
	_ ports.AccountStore = (*Store)(nil)
	_ ports.SessionStore = (*Store)(nil)
	_ ports.KeyStore     = (*Store)(nil)
	_ ports.Ledger       = (*Store)(nil)
)

// Open opens (creating it if need be) the database file at path, applies the
// migrations it has not seen, and starts the debit writer. The file is put
// in WAL mode with synchronous=FULL, foreign keys on and a busy timeout.
// A file that cannot be opened or migrated is ports.ErrUnavailable.
func Open(ctx context.Context, path string) (*Store, error) {
	writer, stmts, err := openWriter(ctx, path)
	if err != nil {
		return nil, err
	}
	reader, err := openDB(path, url.Values{"_pragma": {
		pragma("busy_timeout", busyTimeout.Milliseconds()), pragma("query_only", 1),
	}}, max(4, runtime.GOMAXPROCS(0)))
	if err != nil {
		stmts.close()
		_ = writer.Close()
		return nil, err
	}
	s := &Store{path: path, writer: writer, reader: reader, stmts: stmts, watchers: map[*ports.KeyWatcher]ports.KeyWatcher{}}
	s.debits = groupcommit.New(maxBatch, s.commitBatch)
	return s, nil
}

// openWriter opens the one write connection, checks that it is in WAL
// mode, migrates the file and prepares the ledger's statements on it.
func openWriter(ctx context.Context, path string) (*sql.DB, *ledgerStmts, error) {
	writer, err := openDB(path, url.Values{"_txlock": {"immediate"}, "_pragma": {
		pragma("busy_timeout", busyTimeout.Milliseconds()), pragma("foreign_keys", 1),
		pragma("journal_mode", "WAL"), pragma("synchronous", "FULL"),
	}}, 1)
	if err != nil {
		return nil, nil, err
	}
	err = checkWAL(ctx, writer)
	if err == nil {
		err = migrate(ctx, writer)
	}
	var stmts *ledgerStmts
	if err == nil {
		stmts, err = prepareLedger(ctx, writer)
	}
	if err != nil {
		_ = writer.Close()
		return nil, nil, err
	}
	return writer, stmts, nil
}

// openDB opens a handle on the file with the given DSN parameters and at
// most conns connections, kept open for the life of the handle, and checks
// that the file opens.
func openDB(path string, params url.Values, conns int) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(path, params))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w: %v", path, ports.ErrUnavailable, err)
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := db.Ping(); err != nil {
		_ = db.Close()
		return nil, translate("open "+path, err)
	}
	return db, nil
}

// dsn is the URI filename of path with the driver's parameters: SQLite
// decodes the escapes a path may need ('?', '#', '%').
func dsn(path string, params url.Values) string {
	return (&url.URL{Scheme: "file", Path: path, RawQuery: params.Encode()}).String()
}

func pragma(name string, value any) string { return fmt.Sprintf("%s(%v)", name, value) }

// checkWAL makes sure the file is in WAL mode: a file on a file system
// without shared memory would silently stay in another mode, and readers
// would then block the writer.
func checkWAL(ctx context.Context, db *sql.DB) error {
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return translate("read journal mode", err)
	}
	if mode != "wal" {
		return fmt.Errorf("sqlite: journal mode is %q, not wal: %w", mode, ports.ErrUnavailable)
	}
	return nil
}

// Close stops the debit writer, once the batch in flight has committed and
// answered, and closes the database. Debits still queued go back to their
// callers, who run them alone: applied if the database is still open, or
// refused with ports.ErrUnavailable, whichever is the truth. It is safe to
// call more than once.
func (s *Store) Close() error {
	s.debits.Close()
	s.stmts.close()
	werr, rerr := s.writer.Close(), s.reader.Close()
	if werr != nil || rerr != nil {
		return fmt.Errorf("sqlite: close %s: %w: %v %v", s.path, ports.ErrUnavailable, werr, rerr)
	}
	return nil
}

// micros is the stored form of an instant: microseconds since the Unix
// epoch, the precision PostgreSQL keeps, compared and ordered as integers.
func micros(t time.Time) int64 { return t.UnixMicro() }

// instant reads a stored instant back, in UTC.
func instant(us int64) time.Time { return time.UnixMicro(us).UTC() }

// nullMicros stores a nullable instant.
func nullMicros(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: micros(*t), Valid: true}
}

// nullInstant reads a nullable instant back, in UTC.
func nullInstant(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := instant(n.Int64)
	return &t
}
