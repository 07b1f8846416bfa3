package sourcesync

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// Status is one source as `quarry sync status` and the catalog show it.
type Status struct {
	Source     string
	Configured bool
	// Inbox marks an inbox: deliveries taken, no days covered.
	Inbox bool
	// Remedy says what enables a source not configured.
	Remedy string
	State  feed.State
	// Lag is how long the first day not held has been due; zero when the
	// source holds every due day, or holds nothing.
	Lag time.Duration
}

// Statuses returns every source the binary knows, configured or not, in
// name order.
func (s *Syncer) Statuses(ctx context.Context) ([]Status, error) {
	var out []Status
	for _, src := range s.sources {
		st, err := s.states.State(ctx, src.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, Status{Source: src.Name(), Configured: true, State: st, Lag: s.lag(src, st)})
	}
	for _, in := range s.inboxes {
		st, err := s.states.State(ctx, in.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, Status{Source: in.Name(), Configured: true, Inbox: true, State: st})
	}
	for _, u := range s.missing {
		st, err := s.states.State(ctx, u.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, Status{Source: u.Name, Remedy: u.Remedy, State: st})
	}
	slices.SortFunc(out, func(a, b Status) int { return strings.Compare(a.Source, b.Source) })
	return out, nil
}

// lag is how long the first publishing day after the last held has been
// due.
func (s *Syncer) lag(src ports.Source, st feed.State) time.Duration {
	if st.Last == "" {
		return 0
	}
	day, _ := feed.Day(st.Last)
	day = day.AddDate(0, 0, 1)
	for !src.Publishes(day) {
		day = day.AddDate(0, 0, 1)
	}
	now := s.now()
	if due := src.Due(day); due.Before(now) {
		return now.Sub(due)
	}
	return 0
}

// Current reports whether the source named holds every day from from to
// the latest day due grace ago: grace is the schedule's interval, so a day
// just due is not counted missing before the next run could fetch it. It
// reads the state this process last saved, else the store's.
func (s *Syncer) Current(ctx context.Context, name string, from time.Time, grace time.Duration) (bool, error) {
	i := slices.IndexFunc(s.sources, func(src ports.Source) bool { return src.Name() == name })
	if i < 0 {
		return false, fmt.Errorf("%w: %s", ErrNotConfigured, name)
	}
	s.mu.Lock()
	st, ok := s.last[name]
	s.mu.Unlock()
	if !ok {
		var err error
		if st, err = s.states.State(ctx, name); err != nil {
			return false, err
		}
	}
	if st.First == "" {
		return false, nil
	}
	first, _ := feed.Day(st.First)
	last, _ := feed.Day(st.Last)
	return !first.After(from) && !last.Before(LatestDue(s.sources[i], s.now().Add(-grace))), nil
}
