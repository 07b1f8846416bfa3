package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/quarrydata/quarry/adapters/ferretdb"
	"github.com/quarrydata/quarry/adapters/sqlite"
)

// Backup writes a consistent copy of the stores the data directory serves
// into dst, a new directory, while a server may go on serving: the
// platform's SQLite file and each SQLite file of the documents, each copied
// as one read transaction sees it. The search indexes are left out: they
// are derived from the documents and rebuilt when the copy is first served.
// Serving dst as QUARRY_DATA_DIR restores it.
func Backup(ctx context.Context, cfg Config, dst string, out io.Writer) error {
	if cfg.DataDir == "" {
		return errors.New(EnvDataDir + " is not set: backup copies the data directory (back up PostgreSQL and MongoDB with their own tools)")
	}
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup: %s exists; name a new directory", dst)
	}
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	var wrote []string
	if cfg.embeddedPlatform() && exists(filepath.Join(cfg.DataDir, dataDirPlatform)) {
		file, err := backupPlatform(ctx, cfg, dst)
		if err != nil {
			return err
		}
		wrote = append(wrote, file)
	}
	if cfg.embeddedDocuments() {
		files, err := ferretdb.Backup(ctx, filepath.Join(cfg.DataDir, dataDirDocuments), filepath.Join(dst, dataDirDocuments))
		if err != nil {
			return err
		}
		wrote = append(wrote, files...)
	}
	for _, f := range wrote {
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(out, "wrote %s (%d bytes)\n", f, st.Size())
		}
	}
	return nil
}

// backupPlatform copies the platform's SQLite file into dst.
func backupPlatform(ctx context.Context, cfg Config, dst string) (string, error) {
	store, err := sqlite.Open(ctx, filepath.Join(cfg.DataDir, dataDirPlatform))
	if err != nil {
		return "", err
	}
	defer func() { _ = store.Close() }()
	file := filepath.Join(dst, dataDirPlatform)
	return file, store.Backup(ctx, file)
}

// exists reports whether path names a file or directory.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
