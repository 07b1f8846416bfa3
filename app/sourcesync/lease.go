package sourcesync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/quarrydata/quarry/ports"
)

// ErrLeaseHeld: another runner holds the source's lease, so this one
// skips the source and serves what the other writes.
var ErrLeaseHeld = errors.New("another runner holds the source's lease")

// ErrLeaseLost: the runner could not renew the source's lease in time, so
// it stopped the run before another runner could take the source over.
var ErrLeaseLost = errors.New("the source's lease was lost")

// lease is how a Syncer takes a source's lease before it runs it.
type lease struct {
	leases ports.SourceLeases
	holder string
	ttl    time.Duration
}

// Leases makes a run take the source's lease as holder (a name unique to
// the process) before it runs, and renew it every third of ttl while it
// runs: of the runners sharing leases, one runs a source at a time.
// Without it every run runs.
func Leases(l ports.SourceLeases, holder string, ttl time.Duration) Option {
	return func(s *Syncer) { s.lease = &lease{leases: l, holder: holder, ttl: ttl} }
}

// held runs run while holding src's lease, renewed until run returns and
// then released. A lease held by another runner skips the source with
// ErrLeaseHeld; a renewal that fails cancels run's context with
// ErrLeaseLost as its cause.
func (s *Syncer) held(ctx context.Context, src ports.Source, run func(context.Context) Outcome) Outcome {
	if s.lease == nil {
		return run(ctx)
	}
	name := src.Name()
	ok, err := s.lease.leases.Acquire(ctx, name, s.lease.holder, s.lease.ttl)
	if err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: %s", ErrLeaseHeld, name)
		}
		s.forget(name)
		return Outcome{Source: name, Err: err}
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		s.lease.renew(runCtx, name, cancel)
	}()
	o := run(runCtx)
	cancel(nil)
	<-renewed
	_ = s.lease.leases.Release(context.WithoutCancel(ctx), name, s.lease.holder)
	return o
}

// renew renews source's lease every third of its ttl until ctx ends,
// cancelling ctx with ErrLeaseLost when a renewal fails.
func (l *lease) renew(ctx context.Context, source string, cancel context.CancelCauseFunc) {
	tick := time.NewTicker(l.ttl / 3)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		ok, err := l.leases.Acquire(ctx, source, l.holder, l.ttl)
		if ctx.Err() != nil {
			return
		}
		if err == nil && !ok {
			err = errors.New("another runner took it over")
		}
		if err != nil {
			cancel(fmt.Errorf("%w: %s: %w", ErrLeaseLost, source, err))
			return
		}
	}
}

// forget drops the state this process last saved for source, so that
// Current reads what the runner holding the lease saves.
func (s *Syncer) forget(source string) {
	s.mu.Lock()
	delete(s.last, source)
	s.mu.Unlock()
}
