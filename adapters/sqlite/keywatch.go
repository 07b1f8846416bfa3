package sqlite

import (
	"context"

	"github.com/quarrydata/quarry/ports"
)

var _ ports.KeyWatch = (*Store)(nil)

// WatchKeys tells w of every revocation and scope change made through this
// Store until ctx ends. Only one process serves a database file at a time
// (its caller locks the data directory), so every change that matters goes
// through this Store: w is watching from the start and is told of a change
// after it commits and before the call that made it returns. A change made
// to the file by another program (an operator's sqlite3 shell) is not seen;
// make it with the service stopped.
func (s *Store) WatchKeys(ctx context.Context, w ports.KeyWatcher) {
	id := &w
	s.watchMu.Lock()
	s.watchers[id] = w
	s.watchMu.Unlock()
	w.Watching(true)
	<-ctx.Done()
	s.watchMu.Lock()
	delete(s.watchers, id)
	s.watchMu.Unlock()
	w.Watching(false)
}

// keyChanged tells every watcher that the key with this digest changed.
func (s *Store) keyChanged(hash string) {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	for _, w := range s.watchers {
		w.KeyChanged(hash)
	}
}
