package groupcommit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// committer is a commit function for the tests: it records every batch,
// answers each item with its own result (the item times ten), and holds
// each batch until the test releases it, so that the tests decide what is
// queued while a batch is in flight.
type committer struct {
	started    chan []int    // receives each batch as its commit starts
	release    chan struct{} // one receive lets one batch finish
	releaseAll func()        // lets every batch, present and future, finish at once
	err        error         // if set, every result carries it

	mu       sync.Mutex
	batches  [][]int
	inFlight map[string]int // batches of a key being committed
}

// newQueue returns a Queue of at most maxBatch items committed by a new
// committer. At cleanup every batch is released and the Queue closed, so a
// test that fails with a batch held ends rather than hangs.
func newQueue(t *testing.T, maxBatch int) (*Queue[string, int, result], *committer) {
	release := make(chan struct{})
	c := &committer{
		started:    make(chan []int, 100),
		release:    release,
		releaseAll: sync.OnceFunc(func() { close(release) }),
		inFlight:   map[string]int{},
	}
	q := New(maxBatch, c.commit)
	t.Cleanup(func() {
		c.releaseAll()
		q.Close()
	})
	return q, c
}

type result struct {
	value int
	err   error
}

func (c *committer) commit(key string, items []int) []result {
	c.mu.Lock()
	c.inFlight[key]++
	concurrent := c.inFlight[key] > 1
	c.batches = append(c.batches, slices.Clone(items))
	c.mu.Unlock()
	select {
	case c.started <- items:
	default: // a test that does not wait for batches to start
	}
	<-c.release
	c.mu.Lock()
	c.inFlight[key]--
	c.mu.Unlock()
	results := make([]result, len(items))
	for i, item := range items {
		results[i] = result{value: item * 10, err: c.err}
		if concurrent {
			results[i].err = fmt.Errorf("two batches of key %q in flight at once", key)
		}
	}
	return results
}

// committed returns every item committed so far, in commit order.
func (c *committer) committed() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Concat(c.batches...)
}

// sizes returns the size of every batch so far, in commit order.
func (c *committer) sizes() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	sizes := make([]int, len(c.batches))
	for i, b := range c.batches {
		sizes[i] = len(b)
	}
	return sizes
}

// waitStarted waits for the next batch to start committing and returns it.
func (c *committer) waitStarted(t *testing.T) []int {
	t.Helper()
	select {
	case items := <-c.started:
		return items
	case <-time.After(10 * time.Second):
		t.Fatal("no batch started")
		return nil
	}
}

// waitQueued waits until key's queue holds n requests, withdrawn ones
// included, behind the batch in flight.
func waitQueued(t *testing.T, q *Queue[string, int, result], key string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		q.mu.Lock()
		got := 0
		if l := q.lines[key]; l != nil {
			got = len(l.queue)
		}
		q.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests queued for %q, want %d", got, key, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// outcome is what one Do returned.
type outcome struct {
	res result
	err error
}

// do runs Do in a goroutine and returns the channel its outcome arrives on.
func do(ctx context.Context, q *Queue[string, int, result], key string, item int) <-chan outcome {
	out := make(chan outcome, 1)
	go func() {
		res, err := q.Do(ctx, key, item)
		out <- outcome{res, err}
	}()
	return out
}

// receive waits for an outcome.
func receive(t *testing.T, out <-chan outcome) outcome {
	t.Helper()
	select {
	case o := <-out:
		return o
	case <-time.After(10 * time.Second):
		t.Fatal("Do did not return")
		return outcome{}
	}
}

// TestConcurrentItemsFormBatches queues many items behind a batch in
// flight: they are committed in batches of at most maxBatch, in arrival
// order, one batch of the key at a time, and each caller gets its own
// result.
func TestConcurrentItemsFormBatches(t *testing.T) {
	const maxBatch, n = 16, 40
	q, c := newQueue(t, maxBatch)

	first := do(context.Background(), q, "a", 0)
	c.waitStarted(t)
	outs := make([]<-chan outcome, n)
	for i := range n {
		outs[i] = do(context.Background(), q, "a", i+1)
	}
	waitQueued(t, q, "a", n)
	c.releaseAll()

	if o := receive(t, first); o.err != nil || o.res != (result{value: 0}) {
		t.Errorf("first item: %+v, %v", o.res, o.err)
	}
	for i, out := range outs {
		if o := receive(t, out); o.err != nil || o.res != (result{value: (i + 1) * 10}) {
			t.Errorf("item %d: %+v, %v", i+1, o.res, o.err)
		}
	}
	if sizes, want := c.sizes(), []int{1, 16, 16, 8}; !slices.Equal(sizes, want) {
		t.Errorf("batch sizes %v, want %v", sizes, want)
	}
	committed := c.committed()
	slices.Sort(committed[1:]) // the queued items arrived in no set order
	for i, item := range committed {
		if item != i {
			t.Fatalf("committed %v, want each of 0..%d once", committed, n)
		}
	}
}

// TestKeysCommitIndependently holds a batch of one key in flight: another
// key's items are committed meanwhile, by a goroutine of their own.
func TestKeysCommitIndependently(t *testing.T) {
	q, c := newQueue(t, 8)

	a := do(context.Background(), q, "a", 1)
	c.waitStarted(t)
	b := do(context.Background(), q, "b", 2)
	if items := c.waitStarted(t); !slices.Equal(items, []int{2}) {
		t.Fatalf("second batch %v, want key b's [2] while key a's is in flight", items)
	}
	c.releaseAll()
	if o := receive(t, a); o.err != nil || o.res.value != 10 {
		t.Errorf("key a: %+v, %v", o.res, o.err)
	}
	if o := receive(t, b); o.err != nil || o.res.value != 20 {
		t.Errorf("key b: %+v, %v", o.res, o.err)
	}
}

// TestWithdrawBeforeTake ends a caller's context while its item waits
// behind a batch in flight: Do returns the context's error and the item is
// never committed, while the item queued after it is.
func TestWithdrawBeforeTake(t *testing.T) {
	q, c := newQueue(t, 8)

	first := do(context.Background(), q, "a", 1)
	c.waitStarted(t)
	ctx, cancel := context.WithCancel(context.Background())
	withdrawn := do(ctx, q, "a", 2)
	waitQueued(t, q, "a", 1)
	third := do(context.Background(), q, "a", 3)
	waitQueued(t, q, "a", 2)
	cancel()
	if o := receive(t, withdrawn); !errors.Is(o.err, context.Canceled) {
		t.Fatalf("withdrawn item: %+v, %v, want context.Canceled", o.res, o.err)
	}
	c.releaseAll()
	receive(t, first)
	if o := receive(t, third); o.err != nil || o.res.value != 30 {
		t.Errorf("third item: %+v, %v", o.res, o.err)
	}
	if got := c.committed(); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("committed %v, want [1 3]: the withdrawn item never", got)
	}
}

// TestDoneContextQueuesNothing calls Do with a context that has ended: it
// returns the context's error and commits nothing.
func TestDoneContextQueuesNothing(t *testing.T) {
	q, c := newQueue(t, 8)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.Do(ctx, "a", 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("Do: %v, want context.Canceled", err)
	}
	c.releaseAll()
	if got := c.committed(); len(got) != 0 {
		t.Errorf("committed %v, want nothing", got)
	}
}

// TestCancelAfterTakeWaits ends a caller's context once a batch has taken
// its item: Do waits for the batch and returns its result, not the
// context's error.
func TestCancelAfterTakeWaits(t *testing.T) {
	q, c := newQueue(t, 8)

	ctx, cancel := context.WithCancel(context.Background())
	out := do(ctx, q, "a", 7)
	c.waitStarted(t)
	cancel()
	select {
	case o := <-out:
		t.Fatalf("Do returned %+v, %v while its batch was in flight", o.res, o.err)
	case <-time.After(50 * time.Millisecond):
	}
	c.releaseAll()
	if o := receive(t, out); o.err != nil || o.res.value != 70 {
		t.Errorf("Do: %+v, %v, want the batch's result 70", o.res, o.err)
	}
}

// TestBatchErrorReachesEveryMember fails a batch of several items: every
// caller receives the failure, including one whose context ended after the
// batch took its item.
func TestBatchErrorReachesEveryMember(t *testing.T) {
	q, c := newQueue(t, 8)
	c.err = errors.New("batch failed")

	first := do(context.Background(), q, "a", 0)
	c.waitStarted(t)
	ctx, cancel := context.WithCancel(context.Background())
	outs := []<-chan outcome{do(ctx, q, "a", 1)}
	waitQueued(t, q, "a", 1)
	for i := 2; i <= 5; i++ {
		outs = append(outs, do(context.Background(), q, "a", i))
	}
	waitQueued(t, q, "a", 5)
	c.release <- struct{}{} // the first batch ends; the next takes the five
	if items := c.waitStarted(t); len(items) != 5 {
		t.Fatalf("second batch %v, want the five queued items", items)
	}
	cancel()
	c.releaseAll()
	for i, out := range append(outs, first) {
		if o := receive(t, out); !errors.Is(o.res.err, c.err) || o.err != nil {
			t.Errorf("member %d: %+v, %v, want the batch's error", i, o.res, o.err)
		}
	}
}

// TestCloseHandsBackQueued closes the Queue while a batch is in flight:
// Close waits for that batch, whose caller gets its result; the item queued
// behind it, and any later one, get ErrClosed and are never committed.
func TestCloseHandsBackQueued(t *testing.T) {
	q, c := newQueue(t, 8)

	inFlight := do(context.Background(), q, "a", 1)
	c.waitStarted(t)
	queued := do(context.Background(), q, "a", 2)
	waitQueued(t, q, "a", 1)
	closed := make(chan struct{})
	go func() {
		q.Close()
		close(closed)
	}()
	if o := receive(t, queued); !errors.Is(o.err, ErrClosed) {
		t.Fatalf("queued item: %+v, %v, want ErrClosed", o.res, o.err)
	}
	select {
	case <-closed:
		t.Fatal("Close returned while a batch was in flight")
	case <-time.After(50 * time.Millisecond):
	}
	c.releaseAll()
	if o := receive(t, inFlight); o.err != nil || o.res.value != 10 {
		t.Errorf("item in flight: %+v, %v", o.res, o.err)
	}
	<-closed
	if _, err := q.Do(context.Background(), "a", 3); !errors.Is(err, ErrClosed) {
		t.Errorf("Do after Close: %v, want ErrClosed", err)
	}
	q.Close() // a second Close is harmless
	if got := c.committed(); !slices.Equal(got, []int{1}) {
		t.Errorf("committed %v, want [1]", got)
	}
}

// TestManyCallersEachGetTheirOwn hammers several keys from many goroutines
// with no batch held: each caller gets the result of its own item, and
// every item is committed exactly once.
func TestManyCallersEachGetTheirOwn(t *testing.T) {
	q, c := newQueue(t, 4)
	c.releaseAll()

	const callers, each = 32, 50
	var wg sync.WaitGroup
	for g := range callers {
		wg.Go(func() {
			for i := range each {
				item := g*each + i
				res, err := q.Do(context.Background(), fmt.Sprint("k", g%3), item)
				if err != nil || res.err != nil || res.value != item*10 {
					t.Errorf("item %d: %+v, %v", item, res, err)
				}
			}
		})
	}
	wg.Wait()
	got := c.committed()
	slices.Sort(got)
	for i, item := range got {
		if item != i {
			t.Fatalf("%d items committed, want each of 0..%d once", len(got), callers*each-1)
		}
	}
	if len(got) != callers*each {
		t.Errorf("%d items committed, want %d", len(got), callers*each)
	}
}
