// Package sourcesync is the use case that keeps datasets current from
// their outside sources: `quarry sync` fetches the days it is asked for,
// and `quarry serve` runs it on a schedule. A source advances one whole
// day at a time: the day's files are fetched whole and checked, loaded all
// or nothing, and only then is the day added to the source's checkpoint.
// A day answered with nothing is a holiday only when the source's trusted
// calendar says so; otherwise it is missing, asked again with backoff. A
// run that is killed resumes at the first day not saved; loading a day
// again changes nothing, as ingestion is idempotent.
package sourcesync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/quarrydata/quarry/domain/dataset"
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
	inboxes []ports.Inbox
	missing []Unconfigured
	states  ports.SyncStates
	load    ports.SourceLoader
	meter   *Meter
	now     func() time.Time
	batch   int
	// lease, when set, is taken before each run (Leases).
	lease *lease
	// spoolRoot holds each run's spool, a folder of its own; budget
	// bounds the bytes a run fetches, named by budgetSetting (Spooling).
	spoolRoot, budgetSetting string
	budget                   int64
	// fills names, by source, the catalog datasets it fills (Fills).
	fills map[string][]dataset.ID
	// last holds the state each source last saved, for Current.
	mu   sync.Mutex
	last map[string]feed.State
}

// save saves a source's checkpoint and keeps it for Current.
func (s *Syncer) save(ctx context.Context, st feed.State) error {
	if err := s.states.SaveState(ctx, st); err != nil {
		return err
	}
	s.mu.Lock()
	s.last[st.Source] = st
	s.mu.Unlock()
	return nil
}

// DefaultBatch is how many days a run loads at once unless BatchDays says
// otherwise: a month of trading days.
const DefaultBatch = 20

// Option adjusts a Syncer.
type Option func(*Syncer)

// BatchDays sets how many days a run loads at once (at least one).
func BatchDays(n int) Option { return func(s *Syncer) { s.batch = max(n, 1) } }

// New returns the use case over the configured sources; missing lists
// the sources that are not configured, for status and for a clear refusal.
// The meter, which the sources count their requests on too, records each
// run that succeeds.
func New(sources []ports.Source, missing []Unconfigured, states ports.SyncStates, load ports.SourceLoader, meter *Meter, now func() time.Time, opts ...Option) *Syncer {
	slices.SortFunc(sources, func(a, b ports.Source) int { return strings.Compare(a.Name(), b.Name()) })
	s := &Syncer{sources: sources, missing: missing, states: states, load: load, meter: meter, now: now, batch: DefaultBatch,
		last: map[string]feed.State{}, spoolRoot: filepath.Join(os.TempDir(), "quarry-sync"), budget: DefaultRunBytes, budgetSetting: "the run's budget"}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Range says which days a run fetches. From or To set is an explicit
// range (`quarry sync --from --to`): every day of it is fetched, held or
// not, and no other; a zero From is then the day after the last held (To
// on an empty store), a zero To the latest day due. Without either, a run
// fetches the days after the last held up to the latest due, or with
// Since (QUARRY_SYNC_FROM) every day from Since not held, gaps included;
// and either way the days missing whose next try is due.
type Range struct{ From, To, Since time.Time }

// explicit reports whether the range names its days.
func (r Range) explicit() bool { return !r.From.IsZero() || !r.To.IsZero() }

// Outcome is what one source's run did.
type Outcome struct {
	Source string
	// Inbox marks an inbox's outcome: deliveries taken, no days.
	Inbox bool
	// Days counts the days added to the checkpoint, Holidays those of
	// them the source published nothing for on a trusted calendar's
	// holiday, Missing the days it did not serve otherwise (not added);
	// Refused counts the deliveries an inbox moved aside unread.
	Days, Holidays, Missing, Files, Rows, Refused int
	// Err is why the run stopped early; the days before it are kept.
	Err error
}

// ErrUnknownSource names a source the binary does not know.
var ErrUnknownSource = errors.New("unknown source")

// ErrNotConfigured names a source the configuration does not enable.
var ErrNotConfigured = errors.New("source not configured")

// Configured lists the names of the configured sources and inboxes.
func (s *Syncer) Configured() []string {
	out := make([]string, 0, len(s.sources)+len(s.inboxes))
	for _, src := range s.sources {
		out = append(out, src.Name())
	}
	for _, in := range s.inboxes {
		out = append(out, in.Name())
	}
	return out
}

// Pick returns the sources publishing by day names asks for, every
// configured one when it is empty. A name unknown, not configured, or of
// an inbox, is refused before any fetch, naming the setting that would
// enable it.
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
		if s.inbox(n) != nil {
			return nil, fmt.Errorf("%w: %s is an inbox, taking deliveries rather than days", ErrUnknownSource, n)
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

// Sync runs each source and inbox names asks for (every configured one
// when it is empty), the sources over r, one after the other, and says
// what each did; the error joins those of the runs that stopped.
func (s *Syncer) Sync(ctx context.Context, names []string, r Range) ([]Outcome, error) {
	picked, inboxes, err := s.pickAll(names)
	if err != nil {
		return nil, err
	}
	var out []Outcome
	for _, src := range picked {
		out = append(out, s.Run(ctx, src, r))
	}
	for _, in := range inboxes {
		out = append(out, s.Take(ctx, in))
	}
	var errs []error
	for _, o := range out {
		if o.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", o.Source, o.Err))
		}
	}
	return out, errors.Join(errs...)
}

// pickAll splits names into sources and inboxes, all of each when names
// is empty.
func (s *Syncer) pickAll(names []string) ([]ports.Source, []ports.Inbox, error) {
	if len(names) == 0 {
		return s.sources, s.inboxes, nil
	}
	var byDay []string
	var inboxes []ports.Inbox
	for _, n := range names {
		if in := s.inbox(n); in != nil {
			inboxes = append(inboxes, in)
		} else {
			byDay = append(byDay, n)
		}
	}
	if len(byDay) == 0 {
		return nil, inboxes, nil
	}
	picked, err := s.Pick(byDay)
	return picked, inboxes, err
}

// Run syncs one source over r. Days are fetched one at a time and loaded
// in batches of up to the batch size (one ingestion per batch: a store that
// keeps a security's year together writes it once per batch, not once per
// day), and the checkpoint is saved after each batch. A day that fails to
// fetch stops the run once the days before it are loaded; a batch the
// loader refuses is loaded again day by day, keeping the days before the
// refused one. With Leases, the run first takes the source's lease, and
// skips the source with ErrLeaseHeld when another runner holds it. What
// the run fetches lies in its spool (Spooling) until it ends; a run that
// fetches more than its budget stops at the day that passed it, once the
// days before are loaded.
func (s *Syncer) Run(ctx context.Context, src ports.Source, r Range) Outcome {
	return s.held(ctx, src, func(ctx context.Context) Outcome {
		return s.spooled(ctx, src.Name(), func(ctx context.Context) Outcome { return s.run(ctx, src, r) })
	})
}

// run syncs one source over r, as Run says.
func (s *Syncer) run(ctx context.Context, src ports.Source, r Range) Outcome {
	o := Outcome{Source: src.Name()}
	st, err := s.state(ctx, src)
	if err != nil {
		o.Err = err
		return o
	}
	var pending []fetched
	for _, day := range s.plan(src, st, r) {
		f, err := s.fetch(ctx, src, day)
		if err == nil {
			pending = append(pending, f)
			if len(pending) < s.batch {
				continue
			}
			err = s.flush(ctx, src, &st, pending, &o)
			pending = nil
		} else if ferr := s.flush(ctx, src, &st, pending, &o); ferr != nil {
			err = ferr
		}
		if err != nil {
			return s.stopped(ctx, st, o, err)
		}
	}
	if err := s.flush(ctx, src, &st, pending, &o); err != nil {
		return s.stopped(ctx, st, o, err)
	}
	st.LastSuccess, st.LastError, st.LastErrorAt = s.now(), "", time.Time{}
	if o.Err = s.save(ctx, st); o.Err == nil {
		s.meter.succeeded(src.Name(), st.LastSuccess)
	}
	return o
}

// stopped records why a run stopped, even when its context is done; a run
// that lost its lease records nothing, the source being another runner's.
func (s *Syncer) stopped(ctx context.Context, st feed.State, o Outcome, err error) Outcome {
	if cause := context.Cause(ctx); errors.Is(cause, ErrLeaseLost) {
		o.Err = cause
		return o
	}
	o.Err = err
	st.LastError, st.LastErrorAt = err.Error(), s.now()
	_ = s.save(context.WithoutCancel(ctx), st)
	return o
}

// fetched is one day fetched whole, not yet loaded: its files, or none
// on a holiday, or none and missing.
type fetched struct {
	day              time.Time
	files            []ports.SourceFile
	holiday, missing bool
}

// fetch fetches one day; a day the source does not publish needs no
// request, and one it published nothing for is a holiday if its calendar
// says so, else missing.
func (s *Syncer) fetch(ctx context.Context, src ports.Source, day time.Time) (fetched, error) {
	if ctx.Err() != nil {
		return fetched{}, context.Cause(ctx)
	}
	f := fetched{day: day}
	if !src.Publishes(day) {
		return f, nil
	}
	files, err := src.Fetch(ctx, day)
	switch {
	case errors.Is(err, ports.ErrNoPublication):
		f.holiday = src.Holiday(day)
		f.missing = !f.holiday
	case err != nil:
		return f, fmt.Errorf("%s: %w", day.Format(feed.DayLayout), err)
	}
	f.files = files
	return f, nil
}

// flush loads the days fetched, adds them to the checkpoint and saves it.
func (s *Syncer) flush(ctx context.Context, src ports.Source, st *feed.State, days []fetched, o *Outcome) error {
	if len(days) == 0 {
		return nil
	}
	if again, fresh := refetched(st, days); len(again) > 0 && len(fresh) > 0 {
		if err := s.flush(ctx, src, st, fresh, o); err != nil {
			return err
		}
		return s.flush(ctx, src, st, again, o)
	}
	held := st.Covers(days[0].day.Format(feed.DayLayout))
	var files []ports.SourceFile
	for _, d := range days {
		files = append(files, d.files...)
	}
	n, err := s.load.Load(ctx, files)
	if err != nil && len(days) > 1 {
		for _, d := range days {
			if err := s.flush(ctx, src, st, []fetched{d}, o); err != nil {
				return err
			}
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", days[0].day.Format(feed.DayLayout), err)
	}
	for _, d := range days {
		s.record(st, d, o)
	}
	if !held {
		// A day fetched again replaces its rows: the store holds them once.
		st.Files += int64(len(files))
		st.Rows += int64(n)
	}
	o.Files += len(files)
	o.Rows += n
	st.Trim(src.Publishes)
	return s.save(ctx, *st)
}

// refetched parts days into those the checkpoint holds already, fetched
// again by an explicit range, and the others.
func refetched(st *feed.State, days []fetched) (again, fresh []fetched) {
	for _, d := range days {
		if st.Covers(d.day.Format(feed.DayLayout)) {
			again = append(again, d)
		} else {
			fresh = append(fresh, d)
		}
	}
	return again, fresh
}

// record adds a day loaded to the checkpoint: held, a holiday (counted
// once, however often it is fetched), or missing, with its next try.
func (s *Syncer) record(st *feed.State, d fetched, o *Outcome) {
	day := d.day.Format(feed.DayLayout)
	if d.missing {
		st.Miss(day, s.now())
		o.Missing++
		return
	}
	if d.holiday {
		if !st.Covers(day) {
			st.Holidays++
		}
		o.Holidays++
	}
	st.Cover(day)
	o.Days++
}

// plan returns the days a run over r fetches, in order, as Range says:
// none past the latest day due.
func (s *Syncer) plan(src ports.Source, st feed.State, r Range) []time.Time {
	due := LatestDue(src, s.now())
	to := r.To
	if to.IsZero() || to.After(due) {
		to = due
	}
	from := r.From
	if !r.explicit() {
		from = r.Since
	}
	if from.IsZero() {
		from = to
		if st.Last != "" {
			last, _ := feed.Day(st.Last)
			from = last.AddDate(0, 0, 1)
		}
	}
	if !r.explicit() {
		return st.Plan(from, to, s.now())
	}
	var out []time.Time
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		out = append(out, d)
	}
	return out
}

// state reads a source's checkpoint, brought to the rules of feed.Version
// (feed.State.Migrate): the holidays it may trust are the days of its
// range the source's calendar names.
func (s *Syncer) state(ctx context.Context, src ports.Source) (feed.State, error) {
	st, err := s.states.State(ctx, src.Name())
	if err != nil || st.Version >= feed.Version || st.First == "" {
		st.Version = feed.Version
		return st, err
	}
	first, _ := feed.Day(st.First)
	last, _ := feed.Day(st.Last)
	trusted := 0
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		if src.Publishes(d) && src.Holiday(d) {
			trusted++
		}
	}
	st.Migrate(trusted)
	st.Trim(src.Publishes)
	return st, nil
}

// LatestDue returns the latest day whose publication is due at now.
func LatestDue(src ports.Source, now time.Time) time.Time {
	day := now.UTC().Truncate(24 * time.Hour)
	for src.Due(day).After(now) {
		day = day.AddDate(0, 0, -1)
	}
	return day
}
