package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/feed"
)

// SyncArgs are `quarry sync`'s arguments: the sources (all configured
// when none) and the range, or Bulk: backfill from the sources' bulk
// archives instead of day by day.
type SyncArgs struct {
	Sources  []string
	From, To time.Time
	Bulk     bool
}

// ParseSyncArgs reads `quarry sync [SOURCE…] [--from DATE] [--to DATE]`
// and `quarry sync SOURCE… --bulk`.
func ParseSyncArgs(args []string) (SyncArgs, error) {
	out, err := parseSyncArgs(args)
	switch {
	case err != nil || !out.Bulk:
		return out, err
	case len(out.Sources) == 0:
		return out, errors.New("sync: --bulk needs the source whose archive to load (edgar)")
	case !out.From.IsZero() || !out.To.IsZero():
		return out, errors.New("sync: --bulk loads an archive as a whole, with no --from or --to")
	}
	return out, nil
}

func parseSyncArgs(args []string) (SyncArgs, error) {
	var out SyncArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--bulk" {
			out.Bulk = true
			continue
		}
		if a != "--from" && a != "--to" {
			if strings.HasPrefix(a, "-") {
				return out, fmt.Errorf("sync: unknown flag %s", a)
			}
			out.Sources = append(out.Sources, a)
			continue
		}
		if i+1 == len(args) {
			return out, fmt.Errorf("sync: %s needs a date (YYYY-MM-DD)", a)
		}
		i++
		d, err := feed.Day(args[i])
		if err != nil {
			return out, fmt.Errorf("sync: %s: %w", a, err)
		}
		if a == "--from" {
			out.From = d
		} else {
			out.To = d
		}
	}
	if !out.From.IsZero() && !out.To.IsZero() && out.To.Before(out.From) {
		return out, fmt.Errorf("sync: --to %s is before --from %s", out.To.Format(feed.DayLayout), out.From.Format(feed.DayLayout))
	}
	return out, nil
}

// Sync runs `quarry sync`: each source over the range, into MongoDB or the
// data directory, reporting each source's outcome on out.
func Sync(ctx context.Context, cfg bootstrap.Config, args SyncArgs, out io.Writer) error {
	if args.Bulk {
		return syncBulk(ctx, cfg, args.Sources, out)
	}
	return withSyncer(ctx, cfg, func(s *sourcesync.Syncer) error {
		outcomes, err := s.Sync(ctx, args.Sources, sourcesync.Range{From: args.From, To: args.To})
		var stopped []string
		for _, o := range outcomes {
			writeOutcome(out, o)
			if o.Err != nil {
				stopped = append(stopped, o.Source)
			}
		}
		if len(stopped) > 0 {
			// Each error is on its source's line: the exit status says
			// the run failed without printing it again.
			return fmt.Errorf("sync: %s did not finish; the reason is on its line above", strings.Join(stopped, ", "))
		}
		return err
	})
}

// syncBulk runs `quarry sync SOURCE… --bulk`: each source's archive,
// loaded whole unless it is the version last loaded.
func syncBulk(ctx context.Context, cfg bootstrap.Config, sources []string, out io.Writer) error {
	return withSyncer(ctx, cfg, func(s *sourcesync.Syncer) error {
		for _, name := range sources {
			o, err := s.Bulk(ctx, name)
			if err != nil {
				return fmt.Errorf("%s --bulk: %w (nothing of the archive was loaded; the next run fetches it again)", name, err)
			}
			if o.NotModified {
				fmt.Fprintf(out, "%s --bulk: the archive is unchanged since the last load (304); nothing loaded, %.1f s\n", name, o.Elapsed.Seconds())
				continue
			}
			fmt.Fprintf(out, "%s --bulk: %d files (%d bytes), %d records, %.1f s\n", name, o.Files, o.Bytes, o.Rows, o.Elapsed.Seconds())
		}
		return nil
	})
}

// SyncStatus runs `quarry sync status`: every source, configured or not,
// its coverage, last success, last error and lag, and a line for each gap
// of its range and each day missing.
func SyncStatus(ctx context.Context, cfg bootstrap.Config, out io.Writer) error {
	return withSyncer(ctx, cfg, func(s *sourcesync.Syncer) error {
		statuses, err := s.Statuses(ctx)
		if err != nil {
			return err
		}
		for _, st := range statuses {
			writeStatus(out, st)
		}
		return nil
	})
}

// writeOutcome writes what a run did: days for a source, deliveries for
// an inbox.
func writeOutcome(out io.Writer, o sourcesync.Outcome) {
	if o.Inbox {
		fmt.Fprintf(out, "%s: %d files, %d records, %d refused", o.Source, o.Files, o.Rows, o.Refused)
	} else {
		fmt.Fprintf(out, "%s: %d days (%d holidays%s), %d files, %d rows", o.Source, o.Days, o.Holidays, missing(o.Missing), o.Files, o.Rows)
	}
	switch {
	case errors.Is(o.Err, sourcesync.ErrLeaseHeld):
		fmt.Fprint(out, "; not run: another node holds the source's lease (its schedule is running it); try again once it is done")
	case o.Inbox && o.Err != nil:
		fmt.Fprintf(out, "; %v (refused files are in the inbox's refused/ with their reason; others are left for the next run)", o.Err)
	case o.Err != nil:
		fmt.Fprintf(out, "; stopped: %v (the next run resumes here)", o.Err)
	}
	fmt.Fprintln(out)
}

// missing writes how many days a run found missing, when any were.
func missing(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d missing: not served, asked again later", n)
}

func writeStatus(out io.Writer, st sourcesync.Status) {
	if !st.Configured {
		fmt.Fprintf(out, "%s: not configured (%s)\n", st.Source, st.Remedy)
		return
	}
	if st.Inbox {
		fmt.Fprintf(out, "%s: configured; inbox; %d files, %d records, %d refused; last success %s\n",
			st.Source, st.State.Files, st.State.Rows, st.State.Refused, when(st.State.LastSuccess))
		writeLastError(out, st)
		return
	}
	cov := "nothing held"
	if held := st.State.LastHeld(); held != "" {
		cov = st.State.First + " to " + held
	}
	fmt.Fprintf(out, "%s: configured; coverage %s; %d files, %d rows, %d holidays; last success %s; lag %s\n",
		st.Source, cov, st.State.Files, st.State.Rows, st.State.Holidays, when(st.State.LastSuccess), lag(st.Lag))
	for _, n := range st.Notes() {
		fmt.Fprintf(out, "%s: %s\n", st.Source, n)
	}
	writeLastError(out, st)
}

func writeLastError(out io.Writer, st sourcesync.Status) {
	if st.State.LastError != "" {
		fmt.Fprintf(out, "%s: last error at %s: %s\n", st.Source, when(st.State.LastErrorAt), st.State.LastError)
	}
}

// lag writes a lag in days and hours past two days, else in minutes.
func lag(d time.Duration) string {
	if d < 48*time.Hour {
		return d.Round(time.Minute).String()
	}
	return fmt.Sprintf("%dd%dh", d/(24*time.Hour), d%(24*time.Hour)/time.Hour)
}

func when(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

// withSyncer runs fn with the sources' use case on the configured document
// store.
func withSyncer(ctx context.Context, cfg bootstrap.Config, fn func(*sourcesync.Syncer) error) error {
	if !cfg.OnMongo() {
		return errors.New("neither " + bootstrap.EnvMongoURI + " nor " + bootstrap.EnvDataDir + " is set: sync writes to MongoDB or to the data directory")
	}
	return bootstrap.WithSyncer(ctx, cfg, fn)
}
