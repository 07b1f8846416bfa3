package postgres

import (
	"context"
	"hash/fnv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// SearchWriter lets one process at a time write a search index every node
// shares: a session-level advisory lock, held on a connection of its own
// for as long as the writing runs. A process that dies or loses its
// connection drops the lock, and the next writer goes on from the
// checkpoint the last one saved.
type SearchWriter struct {
	pool *pgxpool.Pool
	name string
	key  int64
	// seen is when the index's checkpoint was last saved (zero: never),
	// as this writer last saw it while it held the lock, which it has
	// when held.
	seen time.Time
	held bool
}

// NewSearchWriter returns the writer lock of the index called name
// (sections, judgments) in the database of pool.
func NewSearchWriter(pool *pgxpool.Pool, name string) *SearchWriter {
	h := fnv.New64a()
	_, _ = h.Write([]byte("quarry.search." + name))
	return &SearchWriter{pool: pool, name: name, key: int64(h.Sum64())}
}

// unlockTimeout bounds the unlock after fn, run even when ctx has ended.
const unlockTimeout = 5 * time.Second

// Hold runs fn holding the lock and says whether it ran. With wait it
// waits for a writer in another process to finish; without, it returns
// false at once while one holds the lock. fn is told whether the index's
// checkpoint was saved since this writer last held the lock (always, the
// first time): only then has another process written the index. Calls
// are not to overlap (each index's Refresh is serialised).
func (w *SearchWriter) Hold(ctx context.Context, wait bool, fn func(ctx context.Context, moved bool) error) (bool, error) {
	conn, err := w.pool.Acquire(ctx)
	if err != nil {
		return false, translate("acquire the search writer's connection", err)
	}
	defer conn.Release()
	got := true
	if wait {
		_, err = conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, w.key)
	} else {
		err = conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, w.key).Scan(&got)
	}
	if err != nil {
		return false, translate("lock the search index", err)
	}
	if !got {
		return false, nil
	}
	defer func() {
		unlockCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unlockTimeout)
		defer cancel()
		if _, err := conn.Exec(unlockCtx, `SELECT pg_advisory_unlock($1)`, w.key); err != nil {
			// The session may still hold the lock: drop it with the connection.
			_ = conn.Conn().Close(unlockCtx)
		}
	}()
	saved, err := w.savedAt(ctx, conn)
	if err != nil {
		return true, err
	}
	if err := fn(ctx, !w.held || !saved.Equal(w.seen)); err != nil {
		return true, err
	}
	if w.seen, err = w.savedAt(ctx, conn); err != nil {
		return true, err
	}
	w.held = true
	return true, nil
}

// savedAt returns when the index's checkpoint was last saved; the zero
// time when it never was.
func (w *SearchWriter) savedAt(ctx context.Context, conn *pgxpool.Conn) (time.Time, error) {
	var at *time.Time
	err := conn.QueryRow(ctx, `SELECT max(saved_at) FROM search_checkpoints WHERE index_name = $1`, w.name).Scan(&at)
	if err != nil {
		return time.Time{}, translate("read the search checkpoint's time", err)
	}
	if at == nil {
		return time.Time{}, nil
	}
	return *at, nil
}
