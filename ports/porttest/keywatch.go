package porttest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/ports"
)

// watchWait bounds how long a notification may take to arrive.
const watchWait = 10 * time.Second

// watchRecorder is a ports.KeyWatcher that records what it is told.
type watchRecorder struct {
	changed  chan string
	watching chan bool
}

func newWatchRecorder() *watchRecorder {
	return &watchRecorder{changed: make(chan string, 100), watching: make(chan bool, 100)}
}

func (w *watchRecorder) KeyChanged(hash string) { w.changed <- hash }
func (w *watchRecorder) Watching(on bool)       { w.watching <- on }

func (w *watchRecorder) expectWatching(t *testing.T, want bool) {
	t.Helper()
	select {
	case on := <-w.watching:
		if on != want {
			t.Fatalf("Watching(%v), want Watching(%v)", on, want)
		}
	case <-time.After(watchWait):
		t.Fatalf("no Watching(%v) within %s", want, watchWait)
	}
}

func (w *watchRecorder) expectChanged(t *testing.T, what, hash string) {
	t.Helper()
	select {
	case got := <-w.changed:
		if got != hash {
			t.Fatalf("%s: KeyChanged(%s), want KeyChanged(%s)", what, got, hash)
		}
	case <-time.After(watchWait):
		t.Fatalf("%s: no KeyChanged within %s", what, watchWait)
	}
}

// RunKeyWatch is the contract of KeyWatch: revocations and scope changes
// are reported, other writes are not, and a watch that loses sight says so
// and resumes.
func RunKeyWatch(t *testing.T, newPlatform NewPlatform) {
	ctx := context.Background()
	watch := func(t *testing.T, p Platform) *watchRecorder {
		t.Helper()
		if p.Watch == nil {
			t.Skip("the platform has no key watch")
		}
		w := newWatchRecorder()
		wctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		wg.Go(func() { p.Watch.WatchKeys(wctx, w) })
		t.Cleanup(func() {
			cancel()
			wg.Wait()
		})
		w.expectWatching(t, true)
		return w
	}
	t.Run("revocations and scope changes are reported", func(t *testing.T) {
		p := newPlatform(t)
		w := watch(t, p)
		a := provision(t, p, 1)
		k1, k2 := newKey(a.ID, t0), newKey(a.ID, t0)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k1, 10))
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k2, 10))
		must(t, "TouchKey", p.Keys.TouchKey(ctx, k1.ID, t0))
		_, err := p.Keys.RevokeKey(ctx, a.ID, k2.ID, apikey.Standing, t0)
		must(t, "RevokeKey", err)
		// Neither the creations nor the touch were reported: the first
		// news is the revocation.
		w.expectChanged(t, "RevokeKey", k2.Hash)
		_, err = p.Keys.SetKeyScope(ctx, k1.ID, "resale:read", true)
		must(t, "SetKeyScope", err)
		w.expectChanged(t, "SetKeyScope", k1.Hash)
	})
	t.Run("a watch that loses its connection says so and resumes", func(t *testing.T) {
		p := newPlatform(t)
		if p.Disrupt == nil {
			t.Skip("nothing to break")
		}
		a := provision(t, p, 1)
		k := newKey(a.ID, t0)
		must(t, "CreateKey", p.Keys.CreateKey(ctx, k, 10))
		w := watch(t, p)
		p.Disrupt(t)
		w.expectWatching(t, false)
		w.expectWatching(t, true)
		// The store's own sessions were broken too: the write may need a
		// second try, as a caller's retry would.
		_, err := p.Keys.RevokeKey(ctx, a.ID, k.ID, apikey.Standing, t0)
		if err != nil {
			_, err = p.Keys.RevokeKey(ctx, a.ID, k.ID, apikey.Standing, t0)
		}
		must(t, "RevokeKey", err)
		w.expectChanged(t, "RevokeKey after the watch resumed", k.Hash)
	})
}

var _ ports.KeyWatcher = (*watchRecorder)(nil)
