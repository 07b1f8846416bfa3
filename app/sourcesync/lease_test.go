package sourcesync_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/ports"
)

// gated is weekdays whose fetches wait for open to close, counting them.
type gated struct {
	weekdays
	open    chan struct{}
	fetches atomic.Int64
}

func (g *gated) Fetch(ctx context.Context, d time.Time) ([]ports.SourceFile, error) {
	g.fetches.Add(1)
	select {
	case <-g.open:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	return g.weekdays.Fetch(ctx, d)
}

// TestTwoNodesSharingLeasesRunASourceOnce runs two syncers, as two nodes
// on one set of stores, while the first is mid-run: the second skips the
// source without a fetch, and the first runs it whole.
func TestTwoNodesSharingLeasesRunASourceOnce(t *testing.T) {
	now := func() time.Time { return time.Date(2025, 6, 28, 12, 0, 0, 0, time.UTC) }
	states, leases := memory.NewSyncStates(), memory.NewSourceLeases()
	srcA, srcB := &gated{open: make(chan struct{})}, &gated{open: make(chan struct{})}
	close(srcB.open)
	loadA, loadB := &counting{}, &counting{}
	a := sourcesync.New([]ports.Source{srcA}, nil, states, loadA, sourcesync.NewMeter(), now, sourcesync.Leases(leases, "node-a", time.Minute))
	b := sourcesync.New([]ports.Source{srcB}, nil, states, loadB, sourcesync.NewMeter(), now, sourcesync.Leases(leases, "node-b", time.Minute))
	r := sourcesync.Range{Since: time.Date(2025, 6, 23, 0, 0, 0, 0, time.UTC)}
	done := make(chan sourcesync.Outcome)
	go func() { done <- a.Run(t.Context(), srcA, r) }()
	for srcA.fetches.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	skipped := b.Run(t.Context(), srcB, r)
	if !errors.Is(skipped.Err, sourcesync.ErrLeaseHeld) || srcB.fetches.Load() != 0 || loadB.files != 0 {
		t.Fatalf("the second node ran while the first held the lease: %+v, %d fetches", skipped, srcB.fetches.Load())
	}
	close(srcA.open)
	if o := <-done; o.Err != nil || o.Days != 5 || loadA.files != 5 {
		t.Fatalf("the node holding the lease: %+v, %d files loaded", o, loadA.files)
	}
	if o := b.Run(t.Context(), srcB, r); o.Err != nil || o.Days != 0 || srcB.fetches.Load() != 0 {
		t.Fatalf("once released, the second node's run found the days held: %+v", o)
	}
}

// losing refuses every renewal: another node took the lease over.
type losing struct{ calls atomic.Int64 }

func (l *losing) Acquire(context.Context, string, string, time.Duration) (bool, error) {
	return l.calls.Add(1) == 1, nil
}
func (l *losing) Release(context.Context, string, string) error { return nil }

// TestARunThatLosesItsLeaseStopsAndRecordsNothing: a renewal refused
// cancels the run, which then saves no error over the new holder's state.
func TestARunThatLosesItsLeaseStopsAndRecordsNothing(t *testing.T) {
	now := func() time.Time { return time.Date(2025, 6, 28, 12, 0, 0, 0, time.UTC) }
	states := memory.NewSyncStates()
	src := &gated{open: make(chan struct{})}
	s := sourcesync.New([]ports.Source{src}, nil, states, &counting{}, sourcesync.NewMeter(), now,
		sourcesync.Leases(&losing{}, "node-a", 30*time.Millisecond))
	o := s.Run(t.Context(), src, sourcesync.Range{From: time.Date(2025, 6, 23, 0, 0, 0, 0, time.UTC)})
	if !errors.Is(o.Err, sourcesync.ErrLeaseLost) || o.Days != 0 {
		t.Fatalf("a run whose renewal was refused: %+v", o)
	}
	if st, _ := states.State(t.Context(), src.Name()); st.LastError != "" || st.First != "" {
		t.Fatalf("the run that lost its lease saved %+v", st)
	}
}
