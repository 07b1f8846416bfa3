package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/quarrydata/quarry/bootstrap"
)

// Backup writes a consistent copy of the stores the data directory serves
// into dst, a new directory, while a server may go on serving (see
// bootstrap.BackupStores). Serving dst as QUARRY_DATA_DIR restores it.
func Backup(ctx context.Context, cfg bootstrap.Config, dst string, out io.Writer) error {
	if cfg.DataDir == "" {
		return errors.New(bootstrap.EnvDataDir + " is not set: backup copies the data directory (back up PostgreSQL and MongoDB with their own tools)")
	}
	if _, err := os.Lstat(dst); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup: %s exists; name a new directory", dst)
	}
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	wrote, err := bootstrap.BackupStores(ctx, cfg, dst)
	if err != nil {
		return err
	}
	for _, f := range wrote {
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(out, "wrote %s (%d bytes)\n", f, st.Size())
		}
	}
	return nil
}
