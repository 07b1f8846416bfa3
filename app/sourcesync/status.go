package sourcesync

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/dataset"
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
		st, err := s.state(ctx, src)
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
	held := st.LastHeld()
	if held == "" {
		return 0
	}
	day, _ := feed.Day(held)
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
// the latest day due grace ago (feed.State.Holds: no gap, no day missing
// still asked for): grace is the schedule's interval, so a day just due is
// not counted missing before the next run could fetch it. It reads the
// state this process last saved, else the store's.
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
		if st, err = s.state(ctx, s.sources[i]); err != nil {
			return false, err
		}
	}
	return st.Holds(from.Format(feed.DayLayout), LatestDue(s.sources[i], s.now().Add(-grace)).Format(feed.DayLayout)), nil
}

// Notes are the lines `quarry sync status` adds under a source: each gap
// of its range ("gap: 2024-11-04..2025-02-25 not fetched"), and each day
// missing with its attempts and next try, or that it was given up.
func (st Status) Notes() []string {
	var out []string
	for _, g := range st.State.Gaps {
		out = append(out, fmt.Sprintf("gap: %s..%s not fetched", g.First, g.Last))
	}
	for _, m := range st.State.Missing {
		next := "next try " + m.NextTry.UTC().Format(time.RFC3339)
		if m.GaveUp() {
			next = "given up; a run naming it in --from/--to asks again"
		}
		out = append(out, fmt.Sprintf("missing: %s (%d attempts, %s)", m.Day, m.Attempts, next))
	}
	return out
}

// Fills names, by source, the catalog datasets its runs fill, for
// ByDataset.
func Fills(by map[string][]dataset.ID) Option { return func(s *Syncer) { s.fills = by } }

// ByDataset returns, for each dataset a source fills (Fills), that
// source's status, as `quarry sync status` shows it: the catalog's
// coverage, last sync and lag. A dataset no source fills is not in it.
func (s *Syncer) ByDataset(ctx context.Context) (map[dataset.ID]Status, error) {
	statuses, err := s.Statuses(ctx)
	if err != nil {
		return nil, err
	}
	out := map[dataset.ID]Status{}
	for _, st := range statuses {
		for _, id := range s.fills[st.Source] {
			out[id] = st
		}
	}
	return out, nil
}
