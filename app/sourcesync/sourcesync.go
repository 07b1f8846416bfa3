// Package sourcesync is the use case that keeps datasets current from
// their outside sources: `quarry sync` backfills a date range, and `quarry
// serve` runs it on a schedule. A source advances one whole day at a time:
// the day's files are fetched whole and checked, loaded all or nothing,
// and only then is the day added to the source's checkpoint. A run that is
// killed resumes at the first day not saved; loading a day again changes
// nothing, as ingestion is idempotent.
package sourcesync

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// Unconfigured is a source the binary knows but the configuration does
// not enable, and the setting that would.
type Unconfigured struct {
	Name string
	// Remedy says what an operator sets, such as "set QUARRY_SEC_USER_AGENT".
	Remedy string
}

// Syncer runs the sources.
type Syncer struct {
	sources []ports.Source
	missing []Unconfigured
	states  ports.SyncStates
	load    ports.SourceLoader
	meter   *Meter
	now     func() time.Time
}

// New returns the use case over the configured sources; missing lists
// the sources that are not configured, for status and for a clear refusal.
// The meter, which the sources count their requests on too, records each
// run that succeeds.
func New(sources []ports.Source, missing []Unconfigured, states ports.SyncStates, load ports.SourceLoader, meter *Meter, now func() time.Time) *Syncer {
	slices.SortFunc(sources, func(a, b ports.Source) int { return strings.Compare(a.Name(), b.Name()) })
	return &Syncer{sources: sources, missing: missing, states: states, load: load, meter: meter, now: now}
}

// Range bounds a run's days, inclusive; a zero bound is the default: From
// is the day after the last held (the latest due day on an empty store),
// To the latest day whose publication is due.
type Range struct{ From, To time.Time }

// Outcome is what one source's run did.
type Outcome struct {
	Source string
	// Days counts the days added to the checkpoint, Holidays those of
	// them the source published nothing for.
	Days, Holidays, Files, Rows int
	// Err is why the run stopped early; the days before it are kept.
	Err error
}

// ErrUnknownSource names a source the binary does not know.
var ErrUnknownSource = errors.New("unknown source")

// ErrNotConfigured names a source the configuration does not enable.
var ErrNotConfigured = errors.New("source not configured")

// Configured lists the names of the configured sources.
func (s *Syncer) Configured() []string {
	out := make([]string, len(s.sources))
	for i, src := range s.sources {
		out[i] = src.Name()
	}
	return out
}

// Pick returns the sources names asks for, every configured one when it
// is empty. A name unknown, or not configured, is refused before any
// fetch, naming the setting that would enable it.
func (s *Syncer) Pick(names []string) ([]ports.Source, error) {
	if len(names) == 0 {
		return s.sources, nil
	}
	var out []ports.Source
	for _, n := range names {
		i := slices.IndexFunc(s.sources, func(src ports.Source) bool { return src.Name() == n })
		if i >= 0 {
			out = append(out, s.sources[i])
			continue
		}
		if j := slices.IndexFunc(s.missing, func(u Unconfigured) bool { return u.Name == n }); j >= 0 {
			return nil, fmt.Errorf("%w: %s: %s", ErrNotConfigured, n, s.missing[j].Remedy)
		}
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownSource, n, strings.Join(s.names(), ", "))
	}
	return out, nil
}

func (s *Syncer) names() []string {
	out := s.Configured()
	for _, u := range s.missing {
		out = append(out, u.Name)
	}
	slices.Sort(out)
	return out
}

// Sync runs each source names asks for over r, one after the other, and
// says what each did; the error joins those of the sources that stopped.
func (s *Syncer) Sync(ctx context.Context, names []string, r Range) ([]Outcome, error) {
	picked, err := s.Pick(names)
	if err != nil {
		return nil, err
	}
	var out []Outcome
	var errs []error
	for _, src := range picked {
		o := s.Run(ctx, src, r)
		out = append(out, o)
		if o.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", src.Name(), o.Err))
		}
	}
	return out, errors.Join(errs...)
}

// Run syncs one source over r.
func (s *Syncer) Run(ctx context.Context, src ports.Source, r Range) Outcome {
	o := Outcome{Source: src.Name()}
	st, err := s.states.State(ctx, src.Name())
	if err != nil {
		o.Err = err
		return o
	}
	from, to := s.bounds(src, st, r)
	for _, day := range st.Plan(from, to) {
		err := ctx.Err()
		if err == nil {
			err = s.day(ctx, src, &st, day, &o)
		}
		if err != nil {
			o.Err = err
			st.LastError, st.LastErrorAt = fmt.Sprintf("%s: %v", day.Format(feed.DayLayout), err), s.now()
			_ = s.states.SaveState(context.WithoutCancel(ctx), st)
			return o
		}
	}
	st.LastSuccess, st.LastError, st.LastErrorAt = s.now(), "", time.Time{}
	if o.Err = s.states.SaveState(ctx, st); o.Err == nil {
		s.meter.succeeded(src.Name(), st.LastSuccess)
	}
	return o
}

// day fetches, loads and checkpoints one day.
func (s *Syncer) day(ctx context.Context, src ports.Source, st *feed.State, day time.Time, o *Outcome) error {
	if src.Publishes(day) {
		files, err := src.Fetch(ctx, day)
		switch {
		case errors.Is(err, ports.ErrNoPublication):
			st.Holidays++
			o.Holidays++
		case err != nil:
			return err
		default:
			n, err := s.load.Load(ctx, files)
			if err != nil {
				return err
			}
			st.Files += int64(len(files))
			st.Rows += int64(n)
			o.Files += len(files)
			o.Rows += n
		}
	}
	if err := st.Cover(day.Format(feed.DayLayout)); err != nil {
		return err
	}
	o.Days++
	return s.states.SaveState(ctx, *st)
}

// bounds resolves a run's range: To at most the latest due day.
func (s *Syncer) bounds(src ports.Source, st feed.State, r Range) (from, to time.Time) {
	due := LatestDue(src, s.now())
	to = r.To
	if to.IsZero() || to.After(due) {
		to = due
	}
	from = r.From
	if from.IsZero() {
		from = to
		if st.Last != "" {
			last, _ := feed.Day(st.Last)
			from = last.AddDate(0, 0, 1)
		}
	}
	return from, to
}

// LatestDue returns the latest day whose publication is due at now.
func LatestDue(src ports.Source, now time.Time) time.Time {
	day := now.UTC().Truncate(24 * time.Hour)
	for src.Due(day).After(now) {
		day = day.AddDate(0, 0, -1)
	}
	return day
}
