package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/ports"
)

// keysChannel is the channel the api_keys triggers notify (migration 0003).
const keysChannel = "quarry_keys"

// Pacing of the key watch: how long a quiet connection waits before it is
// checked, how long the check may take, and how long a lost connection
// waits before it is opened again (doubling up to watchMaxBackoff).
const (
	watchIdle       = 15 * time.Second
	watchPing       = 5 * time.Second
	watchBackoff    = 100 * time.Millisecond
	watchMaxBackoff = 5 * time.Second
)

var _ ports.KeyWatch = (*Store)(nil)

// WatchKeys listens on a connection of its own, outside the pool, for the
// notifications the api_keys triggers send, and reports them to w until ctx
// ends. A notification can be lost with its connection, so w is told it is
// not watching as soon as the connection fails or stops answering, and told
// it is watching again only once a new connection LISTENs.
func (s *Store) WatchKeys(ctx context.Context, w ports.KeyWatcher) {
	pause := watchBackoff
	for ctx.Err() == nil {
		if s.listen(ctx, w) {
			pause = watchBackoff // it was watching: retry at once
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
			pause = min(2*pause, watchMaxBackoff)
		}
	}
}

// listen runs one connection's watch until it fails or ctx ends, and
// reports whether it got as far as watching.
func (s *Store) listen(ctx context.Context, w ports.KeyWatcher) bool {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return false
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = conn.Close(closeCtx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+keysChannel); err != nil {
		return false
	}
	w.Watching(true)
	defer w.Watching(false)
	for {
		waitCtx, cancel := context.WithTimeout(ctx, watchIdle)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		switch {
		case err == nil:
			w.KeyChanged(n.Payload)
			continue
		case ctx.Err() != nil:
			return true
		case !errors.Is(err, context.DeadlineExceeded) || conn.IsClosed():
			return true
		}
		// Quiet for a while: a connection that died without a word (a
		// network partition) would look the same, so ask it.
		pingCtx, cancel := context.WithTimeout(ctx, watchPing)
		err = conn.Ping(pingCtx)
		cancel()
		if err != nil {
			return true
		}
	}
}
