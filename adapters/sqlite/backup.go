package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/quarrydata/quarry/ports"
)

// Backup writes a consistent copy of the database to dst while the Store
// keeps serving: VACUUM INTO reads one snapshot on a connection of its own
// (the readers are query-only, which refuses it), so writers are not held
// up, and the copy holds every transaction committed
// before it began and none after. The copy is a complete database file
// with no WAL beside it; opening it with Open restores it.
//
// The copy is written under a temporary name beside dst, synced, and
// renamed to dst, so dst never names a partial copy, even after a crash.
// dst must not exist (ports.ErrConflict if it does).
func (s *Store) Backup(ctx context.Context, dst string) error {
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("sqlite: backup to %s: the file exists: %w", dst, ports.ErrConflict)
	}
	tmp := dst + ".partial"
	_ = os.Remove(tmp) // left by a backup that crashed
	if err := vacuumInto(ctx, s.path, tmp); err != nil {
		_ = os.Remove(tmp)
		return translate("backup to "+dst, err)
	}
	if err := syncAndRename(tmp, dst); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("sqlite: backup to %s: %w: %v", dst, ports.ErrUnavailable, err)
	}
	return nil
}

// vacuumInto copies the database at path to dst on a connection of its own.
func vacuumInto(ctx context.Context, path, dst string) error {
	db, err := openDB(path, url.Values{"_pragma": {pragma("busy_timeout", busyTimeout.Milliseconds())}}, 1)
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }()
	_, err = db.ExecContext(ctx, `VACUUM INTO ?`, dst)
	return err
}

// syncAndRename flushes the file to disk, which VACUUM INTO does not do,
// renames it, and flushes the directory so the rename survives a crash.
func syncAndRename(tmp, dst string) error {
	if err := syncPath(tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	return syncPath(filepath.Dir(dst))
}

func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
