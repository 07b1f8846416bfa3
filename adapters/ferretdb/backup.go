package ferretdb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of every SQLite file of the documents
// directory dir into dst, which must not hold them yet, with `VACUUM INTO`:
// each file is copied as one read transaction sees it, so a server may go
// on serving and ingesting meanwhile. It returns the names of the files it
// wrote.
func Backup(ctx context.Context, dir, dst string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		return nil, fmt.Errorf("ferretdb: backup: %w", err)
	}
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return nil, fmt.Errorf("ferretdb: backup: %w", err)
	}
	var wrote []string
	for _, f := range files {
		out := filepath.Join(dst, filepath.Base(f))
		if err := vacuumInto(ctx, f, out); err != nil {
			return wrote, err
		}
		wrote = append(wrote, out)
	}
	return wrote, nil
}

// vacuumInto copies the SQLite database src into the new file dst.
func vacuumInto(ctx context.Context, src, dst string) error {
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: src, RawQuery: "mode=ro&_pragma=busy_timeout(10000)"}).String())
	if err != nil {
		return fmt.Errorf("ferretdb: backup %s: %w", src, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return fmt.Errorf("ferretdb: backup %s: %w", src, err)
	}
	return nil
}
