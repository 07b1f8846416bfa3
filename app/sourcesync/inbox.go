package sourcesync

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
)

// Inboxes adds the inboxes a run takes deliveries from, beside the sources
// that publish by day.
func Inboxes(in ...ports.Inbox) Option {
	return func(s *Syncer) { s.inboxes = append(s.inboxes, in...) }
}

// inbox returns the configured inbox named name, or nil.
func (s *Syncer) inbox(name string) ports.Inbox {
	i := slices.IndexFunc(s.inboxes, func(in ports.Inbox) bool { return in.Name() == name })
	if i < 0 {
		return nil
	}
	return s.inboxes[i]
}

// Take runs an inbox: each delivery waiting is loaded alone, all or
// nothing, then moved aside, to the taken ones once loaded, to the refused
// ones with its reason when its reader refuses it (source.ErrBadInput).
// Any other failure (the store, the vault, the disk) stops the run and
// leaves the delivery where it is, for the next run. The checkpoint is
// saved after each delivery, so a run that is killed takes again at most
// the delivery it was loading, which changes nothing. A run that refused a
// delivery does not count as a success: the refusal is its last error.
func (s *Syncer) Take(ctx context.Context, in ports.Inbox) Outcome {
	o := Outcome{Source: in.Name(), Inbox: true}
	st, err := s.states.State(ctx, in.Name())
	if err != nil {
		o.Err = err
		return o
	}
	waiting, err := in.Waiting(ctx)
	if err != nil {
		return s.stopped(ctx, st, o, err)
	}
	var refusals []error
	for _, f := range waiting {
		if err := ctx.Err(); err != nil {
			return s.stopped(ctx, st, o, err)
		}
		if err := s.takeOne(ctx, in, f, &st, &o, &refusals); err != nil {
			return s.stopped(ctx, st, o, err)
		}
	}
	if len(refusals) > 0 {
		o.Err = fmt.Errorf("refused %d of %d deliveries: %w", len(refusals), len(waiting), errors.Join(refusals...))
		return s.stopped(ctx, st, o, o.Err)
	}
	st.LastSuccess, st.LastError, st.LastErrorAt = s.now(), "", time.Time{}
	if o.Err = s.save(ctx, st); o.Err == nil {
		s.meter.succeeded(in.Name(), st.LastSuccess)
	}
	return o
}

// takeOne loads one delivery and moves it aside, adding the reader's
// refusal to refusals when it was refused. It returns the error that stops
// the run.
func (s *Syncer) takeOne(ctx context.Context, in ports.Inbox, f ports.SourceFile, st *feed.State, o *Outcome, refusals *[]error) error {
	n, err := s.load.Load(ctx, []ports.SourceFile{f})
	if errors.Is(err, source.ErrBadInput) {
		if merr := in.Refused(ctx, f, err); merr != nil {
			return fmt.Errorf("%s: refused, and not moved aside: %w", f.Name, merr)
		}
		s.meter.Failed(in.Name())
		st.Refused++
		o.Refused++
		*refusals = append(*refusals, fmt.Errorf("%s: %w", f.Name, err))
		return s.save(ctx, *st)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	if err := in.Taken(ctx, f); err != nil {
		return fmt.Errorf("%s: loaded, and not moved aside (the next run loads it again, which changes nothing): %w", f.Name, err)
	}
	st.Files++
	st.Rows += int64(n)
	o.Files++
	o.Rows += n
	return s.save(ctx, *st)
}
