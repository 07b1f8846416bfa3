// Package ferretdb runs FerretDB, a MongoDB-wire server, inside the process
// over SQLite files in a directory, so the MongoDB adapters keep their
// documents on local disk with no server to run. It listens on a Unix socket
// in a private directory, never on a network port: FerretDB's SQLite backend
// has no authentication.
package ferretdb

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"

	"github.com/FerretDB/FerretDB/ferretdb"
)

// Server is an embedded FerretDB serving one directory of SQLite files.
type Server struct {
	dir     string
	uri     string
	sockDir string
	cancel  context.CancelFunc
	done    chan struct{}
}

// Start opens (creating if need be) the SQLite directory dir and serves it
// until Close. The socket is listening when Start returns, so a client may
// connect to URI at once.
func Start(dir string, log *slog.Logger) (*Server, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("ferretdb: documents directory: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("ferretdb: documents directory: %w", err)
	}
	// A socket path is limited to about 100 bytes, so it lives in a short
	// private temporary directory rather than beside the data.
	sockDir, err := os.MkdirTemp("", "quarry-docs-")
	if err != nil {
		return nil, fmt.Errorf("ferretdb: socket directory: %w", err)
	}
	sock := filepath.Join(sockDir, "mongodb.sock")
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{Unix: sock},
		Logger:    slog.New(lazyAttrs{h: log.Handler()}),
		Handler:   "sqlite",
		SQLiteURL: (&url.URL{Scheme: "file", Path: abs + "/"}).String(),
	})
	if err != nil {
		_ = os.RemoveAll(sockDir)
		return nil, fmt.Errorf("ferretdb: start on %s: %w", dir, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		dir:     abs,
		uri:     "mongodb://" + url.QueryEscape(sock) + "/",
		sockDir: sockDir,
		cancel:  cancel,
		done:    make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		_ = f.Run(ctx) // it returns only when ctx ends, and always nil
	}()
	return s, nil
}

// URI is the MongoDB connection string of the server.
func (s *Server) URI() string { return s.uri }

// Close stops serving, closes the SQLite files and waits until they are
// closed. Disconnect clients first: FerretDB waits for their connections.
func (s *Server) Close() {
	s.cancel()
	<-s.done
	_ = os.RemoveAll(s.sockDir)
}
