// Package groupcommit commits the writes of concurrent callers in batches,
// one commit per batch, for the adapters whose writes are costly one by one
// (a row lock and a commit each in PostgreSQL, an fsync each in SQLite).
//
// Writes queue by key, and a single goroutine per busy key commits them:
// only one batch of a key is in flight at a time. Batching is natural, not
// timed: the goroutine takes whatever is queued the moment it is free, so a
// lone write never waits and a burst is absorbed by the next batch while the
// current one commits. A key's goroutine exits once its queue is empty, so
// idle keys cost nothing.
//
// A caller that gives up while its write is still queued withdraws it and
// the write is never committed; once a batch has taken the write, the
// caller waits for that batch, so that its answer always matches what was
// committed.
package groupcommit

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// ErrClosed is returned by Do when the Queue was closed before the write
// was committed: nothing was done with it, and the caller runs it by itself.
var ErrClosed = errors.New("groupcommit: queue closed")

// States of a request. Only the transition out of queued is contended,
// between the caller giving up and a batch (or Close) taking the request,
// and a compare-and-swap settles it: exactly one of them wins.
const (
	queued int32 = iota
	taken
	withdrawn
)

// Queue group-commits items of type T, queued by key K, answering each with
// the result R its batch gave it. Build it with New.
type Queue[K comparable, T, R any] struct {
	maxBatch int
	commit   func(key K, items []T) []R

	// mu guards lines, their queues and closed; a line removes itself
	// under mu once its queue is empty, so enqueueing never races with a
	// goroutine that is exiting.
	mu      sync.Mutex
	lines   map[K]*line[T, R] // by key, while it has work
	closed  bool
	running sync.WaitGroup // line goroutines, for Close to wait on
}

// request is one caller's item waiting in its key's queue.
type request[T, R any] struct {
	item  T
	state atomic.Int32
	// done receives the result once, buffered so that a batch never blocks
	// on a caller; Close closes it instead, to hand the item back.
	done chan R
}

// line is the queue of one key's pending requests, in arrival order.
type line[T, R any] struct {
	queue []*request[T, R]
}

// New returns a Queue whose batches hold at most maxBatch items and are
// committed by commit. commit is called with one key's items in arrival
// order, never concurrently for one key, and must return one result per
// item, in the same order; an error belongs in the results. It runs on no
// caller's context, since one caller giving up must not fail the others,
// so it bounds its own time.
func New[K comparable, T, R any](maxBatch int, commit func(key K, items []T) []R) *Queue[K, T, R] {
	return &Queue[K, T, R]{maxBatch: maxBatch, commit: commit, lines: make(map[K]*line[T, R])}
}

// Do queues item under key and returns the result of the batch that
// committed it. If ctx ends while item is still queued (or before Do is
// called) it is withdrawn, never committed, and Do returns ctx.Err(); once
// a batch has taken it, Do waits for that batch whatever ctx does. Do
// returns ErrClosed, having committed nothing, when the Queue is closed or
// closes while item is queued.
func (q *Queue[K, T, R]) Do(ctx context.Context, key K, item T) (R, error) {
	var zero R
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	r := &request[T, R]{item: item, done: make(chan R, 1)}
	if !q.enqueue(key, r) {
		return zero, ErrClosed
	}
	select {
	case res, ok := <-r.done:
		return answer(res, ok)
	case <-ctx.Done():
		if r.state.CompareAndSwap(queued, withdrawn) {
			return zero, ctx.Err()
		}
		res, ok := <-r.done // a batch has it: its outcome is the truth
		return answer(res, ok)
	}
}

// answer is what Do returns for a request's done channel: the result, or
// ErrClosed when Close handed the request back by closing the channel.
func answer[R any](res R, ok bool) (R, error) {
	if !ok {
		return res, ErrClosed
	}
	return res, nil
}

// enqueue queues r on its key's line, starting one if the key has none. It
// returns false, queueing nothing, once the Queue is closed.
func (q *Queue[K, T, R]) enqueue(key K, r *request[T, R]) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	l := q.lines[key]
	if l == nil {
		l = &line[T, R]{}
		q.lines[key] = l
		q.running.Add(1)
		go q.run(key, l)
	}
	l.queue = append(l.queue, r)
	return true
}

// run commits batches of the key's items until its queue is empty.
func (q *Queue[K, T, R]) run(key K, l *line[T, R]) {
	defer q.running.Done()
	for {
		batch := q.take(key, l)
		if batch == nil {
			return
		}
		items := make([]T, len(batch))
		for i, r := range batch {
			items[i] = r.item
		}
		for i, res := range q.commit(key, items) {
			batch[i].done <- res
		}
	}
}

// take removes up to maxBatch requests from the head of the queue, skipping
// the ones their callers withdrew. With nothing left it unregisters the
// line, under the same lock as enqueue, so the next item starts a new one.
func (q *Queue[K, T, R]) take(key K, l *line[T, R]) []*request[T, R] {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(l.queue) > 0 {
		n := min(len(l.queue), q.maxBatch)
		batch := make([]*request[T, R], 0, n)
		for _, r := range l.queue[:n] {
			if r.state.CompareAndSwap(queued, taken) {
				batch = append(batch, r)
			}
		}
		clear(l.queue[:n]) // the backing array outlives the slice: drop references
		l.queue = l.queue[n:]
		if len(batch) > 0 {
			return batch
		}
	}
	delete(q.lines, key)
	return nil
}

// Close stops the Queue and waits for its goroutines. The batches in flight
// commit and answer their callers; items still queued go back to their
// callers (Do returns ErrClosed), as does any later Do. It is safe to call
// more than once.
func (q *Queue[K, T, R]) Close() {
	q.mu.Lock()
	q.closed = true
	for _, l := range q.lines {
		for _, r := range l.queue {
			if r.state.CompareAndSwap(queued, taken) {
				close(r.done)
			}
		}
		l.queue = nil
	}
	q.mu.Unlock()
	q.running.Wait()
}
