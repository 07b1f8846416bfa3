package porttest

import (
	"context"
	"sync"
	"testing"
)

// stoppingContext is a context cancelled once it has been asked a number
// of times whether it is (Done or Err): a write handed one stops at one of
// its steps, as a writer that dies midway does, the later the more asks it
// is allowed.
type stoppingContext struct {
	context.Context
	mu   sync.Mutex
	left int
	done chan struct{}
}

func stopAfter(asks int) *stoppingContext {
	return &stoppingContext{Context: context.Background(), left: asks, done: make(chan struct{})}
}

// ask counts one ask and reports whether the context is cancelled.
func (c *stoppingContext) ask() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left > 0 {
		if c.left--; c.left == 0 {
			close(c.done)
		}
	}
	return c.left == 0
}

// Done counts an ask; its channel is closed once the asks run out.
func (c *stoppingContext) Done() <-chan struct{} {
	c.ask()
	return c.done
}

// Err counts an ask and says context.Canceled once the asks run out.
func (c *stoppingContext) Err() error {
	if c.ask() {
		return context.Canceled
	}
	return nil
}

// maxSteps bounds how many steps stopAtEachStep tries before it gives up
// on a write that never completes.
const maxSteps = 5000

// stopAtEachStep runs write with a context cancelled after 1, 2, 3, …
// asks, then ever more apart (an eighth more each time), so that it stops
// at its steps in turn, until a write completes; after each write, check
// looks at what a reader sees. step numbers the writes from 0, so each can
// write data of its own. A store command under way when the context is
// cancelled may still be applied after the write returns: check must
// allow for it.
func stopAtEachStep(t *testing.T, write func(ctx context.Context, step int) error, check func(t *testing.T, step int)) {
	t.Helper()
	asks := 1
	for step := range maxSteps {
		err := write(stopAfter(asks), step)
		check(t, step)
		if err == nil {
			t.Logf("a write completed once its context was asked %d times, in %d steps", asks, step+1)
			return
		}
		asks += 1 + asks/8
	}
	t.Fatalf("no write completed in %d steps", maxSteps)
}
