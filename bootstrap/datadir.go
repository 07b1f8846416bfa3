package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
)

// DataDir is the directory of the durable embedded backend, held by one
// process at a time: the SQLite files of the platform and of the documents
// and the search indexes are each opened by one process only, so a second
// process (a second `quarry serve`, or `quarry ingest` beside a running
// server) is refused instead of corrupting them. The durable Storage keeps
// the platform and the documents in it.
type DataDir struct {
	path string
}

// Paths inside the data directory.
const (
	dataDirLock = "lock"
	// DataDirPlatform is the SQLite file of the platform stores.
	DataDirPlatform = "platform.db"
	// DataDirDocuments is the directory of the embedded FerretDB's files.
	DataDirDocuments = "documents"
	dataDirIndexes   = "indexes"
)

// File returns the path of name inside the data directory.
func (d DataDir) File(name string) string { return filepath.Join(d.path, name) }

// dataDirectory provides the locked data directory when cfg names one.
func dataDirectory(cfg Config) fx.Option {
	if cfg.DataDir == "" {
		return fx.Options()
	}
	return fx.Provide(openDataDir)
}

// openDataDir creates the directory if need be and locks it until stop.
func openDataDir(lc fx.Lifecycle, cfg Config) (DataDir, error) {
	unlock, err := LockDataDir(cfg.DataDir)
	if err != nil {
		return DataDir{}, err
	}
	lc.Append(fx.StopHook(unlock))
	return DataDir{path: cfg.DataDir}, nil
}

// LockDataDir creates the data directory path if need be and takes its
// lock, held until unlock is called or the process ends.
func LockDataDir(path string) (unlock func() error, err error) {
	return lockDir(EnvDataDir, path, "quarry ingest and the operator commands that write need the server stopped")
}

// lockDir creates the directory path, named by the variable env, if need
// be and takes its lock, held until unlock is called or the process ends;
// hint says what to stop when another process holds it.
func lockDir(env, path, hint string) (unlock func() error, err error) {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, fmt.Errorf("%s=%s: %w", env, path, err)
	}
	lock, err := os.OpenFile(filepath.Join(path, dataDirLock), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %w", env, path, err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s=%s %w; stop it first (%s)", env, path, errDirInUse, hint)
		}
		return nil, fmt.Errorf("%s=%s: lock: %w", env, path, err)
	}
	return lock.Close, nil // closing the file releases the lock
}

// errDirInUse is the error of a directory whose lock another process holds.
var errDirInUse = errors.New("is in use by another quarry process")

// indexDir is the directory the search indexes are kept in on disk, held
// by one process at a time: bleve's files are not shared, and a second
// process opening them would wait for the first forever.
type indexDir struct {
	path string
}

// indexDirectory provides the index directory when cfg keeps the indexes
// on disk: QUARRY_INDEX_DIR, locked of its own, or the data directory's
// indexes folder, which the data directory's lock holds.
func indexDirectory(cfg Config) fx.Option {
	switch {
	case cfg.IndexDir != "":
		return fx.Provide(func(lc fx.Lifecycle) (indexDir, error) {
			unlock, err := lockDir(EnvIndexDir, cfg.IndexDir, "each quarry serve needs an index directory of its own")
			if err != nil {
				return indexDir{}, err
			}
			lc.Append(fx.StopHook(unlock))
			return indexDir{path: cfg.IndexDir}, nil
		})
	case cfg.DataDir != "":
		return fx.Provide(func(dir DataDir) indexDir { return indexDir{path: dir.File(dataDirIndexes)} })
	}
	return fx.Options()
}

// searchIndex provides a dataset's search index as port: in memory, or
// kept on disk in the index directory when cfg names one (QUARRY_INDEX_DIR
// or the data directory), so a restart resumes it from its checkpoint
// instead of rebuilding it. One on disk is closed on stop, after the use
// case that writes it has stopped.
func searchIndex[X interface{ Close() error }](cfg Config, name string, inMemory func() (X, error), onDisk func(string) (X, error), port any) fx.Option {
	if cfg.indexDir() == "" {
		return fx.Provide(fx.Annotate(inMemory, fx.As(port)))
	}
	return fx.Provide(fx.Annotate(func(lc fx.Lifecycle, dir indexDir) (X, error) {
		x, err := onDisk(filepath.Join(dir.path, name))
		if err != nil {
			return x, err
		}
		lc.Append(fx.StopHook(x.Close))
		return x, nil
	}, fx.As(port)))
}

// indexDocumentIDs has the embedded FerretDB's collections indexed by the
// expression its reads by `_id` filter on (EmbeddedDocuments): once
// the datasets' start hooks have made their collections and loaded their
// samples, then every interval for collections made later, and at stop
// for those this process made. A server looks every QUARRY_MONGO_REFRESH;
// `quarry ingest` and `quarry sync` every writerIndexEvery, since the
// collections they make are written at once: without the index a run into
// a data directory that only ingestion had written read the whole
// collection for each replacement by `_id` (one more NSE day took 184 s,
// 18 s with it; docs/capacity.md), and a first 13F run into a directory
// without its collections did so until the next look (3,200 filings: 60 s
// against 10 s).
func indexDocumentIDs(cfg Config, every time.Duration) fx.Option {
	if !cfg.EmbeddedDocuments() {
		return fx.Options()
	}
	return fx.Invoke(func(lc fx.Lifecycle, s EmbeddedDocuments, log *zap.Logger) {
		index := func(ctx context.Context) error { return s.IndexIDs(ctx, cfg.MongoDB) }
		lc.Append(fx.Hook{OnStart: index, OnStop: index})
		periodic(lc, every, func(ctx context.Context) {
			if err := s.IndexIDs(ctx, cfg.MongoDB); err != nil && ctx.Err() == nil {
				log.Warn("documents not indexed by id", zap.Error(err))
			}
		})
	})
}

// writerIndexEvery is how often `quarry ingest` and `quarry sync` index
// the collections they made; a look that finds none new only reads the
// schema (ferretdb.IndexIDsIn).
const writerIndexEvery = time.Second

// storage names the backend cfg gives each kind of store.
func storage(cfg Config) httpadapter.Storage {
	s := httpadapter.Storage{Platform: "memory", Documents: "memory", Search: "memory"}
	switch {
	case cfg.PostgresURL != "":
		s.Platform = "postgresql"
	case cfg.EmbeddedPlatform():
		s.Platform = "sqlite"
	}
	switch {
	case cfg.MongoURI != "":
		s.Documents = "mongodb"
	case cfg.EmbeddedDocuments():
		s.Documents = "ferretdb-embedded"
	}
	if cfg.indexDir() != "" {
		s.Search = "disk"
	}
	return s
}

// BackupStores writes a consistent copy of the stores the data directory
// serves into dst, an empty directory, while a server may go on serving:
// the platform's SQLite file and each SQLite file of the documents, each
// copied as one read transaction sees it. The search indexes are left out:
// they are derived from the documents and rebuilt when the copy is first
// served. It returns the files it wrote.
func BackupStores(ctx context.Context, cfg Config, dst string) ([]string, error) {
	if !cfg.EmbeddedPlatform() && !cfg.EmbeddedDocuments() {
		return nil, nil
	}
	s, err := storageFor(EnvDataDir)
	if err != nil {
		return nil, err
	}
	return s.BackupStores(ctx, cfg, dst)
}

// exists reports whether path names a file or directory.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
