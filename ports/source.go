package ports

import (
	"context"
	"errors"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
)

// Sentinel errors of the source port.
var (
	// ErrNoPublication: the source published nothing for the day asked
	// (a 404, an answer without rows); it is recorded, not an error of
	// the run: a holiday if the source's calendar says so, else a day
	// missing, asked again later.
	ErrNoPublication = errors.New("source published nothing for the day")
	// ErrSourceFailed: the source could not be read, or what it served
	// failed the checks (a body cut short, a truncated archive, an HTML
	// page in place of a file); nothing of it was stored and the next run
	// fetches it again.
	ErrSourceFailed = errors.New("source failed")
	// ErrSourceStopped: the source refuses to serve this client until an
	// operator acts (a token out of points); retrying does not help.
	ErrSourceStopped = errors.New("source stopped serving")
	// ErrBudgetSpent: a run of a source has fetched the most bytes a run
	// may; the days before are kept and the next run goes on from there.
	ErrBudgetSpent = errors.New("the run's byte budget is spent")
)

// Spool is where one run of a source writes the files it fetches, until
// the run has loaded them, and the count of the bytes it may still fetch.
// A run puts its spool in the context (WithSpool), where the sources and
// the loader find it (SpoolFrom).
type Spool interface {
	// Dir is the folder the run's files are written in; the run removes
	// it, with everything in it, when it ends.
	Dir() string
	// Take counts n more bytes fetched against the run's budget, and
	// fails wrapping ErrBudgetSpent once the run has fetched more.
	Take(n int64) error
	// Left is how many bytes the run may still fetch.
	Left() int64
}

type spoolKey struct{}

// WithSpool returns ctx carrying a run's spool.
func WithSpool(ctx context.Context, s Spool) context.Context {
	return context.WithValue(ctx, spoolKey{}, s)
}

// SpoolFrom returns the spool ctx carries, or nil.
func SpoolFrom(ctx context.Context) Spool {
	s, _ := ctx.Value(spoolKey{}).(Spool)
	return s
}

// SourceFile is one whole file a source served, checked as far as its
// format allows before a dataset's reader parses it.
type SourceFile struct {
	// Dataset is the ingest dataset that reads the file, as `quarry
	// ingest` names it (india_prices).
	Dataset string
	// Name is the file's name as a reader reports it: the last element of
	// its URL path.
	Name string
	// Folder, when set, is the folder the file belongs in with others
	// (a filing's, CIK/ACCESSION): the loader keeps the files of one
	// folder together in it and hands the reader the folder, as `quarry
	// ingest us_filing_indexes DIR` takes a filing. Files of two folders
	// may share a name (index.json).
	Folder string
	// URL is where it was fetched from, for the logs.
	URL string
	// Body is the whole file, unless Path is set.
	Body []byte
	// Path, when set, is where the whole file lies on disk: an inbox's
	// delivery, read in place rather than copied into memory, or, with
	// Spooled, a fetched file in the run's spool.
	Path string
	// Spooled: Path is a file a source fetched into the run's spool, under
	// a name of its own; the loader lays it out by Name and Folder, as
	// it does a Body.
	Spooled bool
	// RetrievedAt is when it was fetched: its rows are known from then.
	RetrievedAt time.Time
}

// Source is one outside source Quarry keeps current, publishing day by day.
type Source interface {
	// Name is the source's name on the command line (nse, edgar).
	Name() string
	// Publishes reports whether the source may publish for day: a weekday
	// for an exchange. Other days are covered without a fetch.
	Publishes(day time.Time) bool
	// Due is when the publication for day is expected to be out. A day
	// not yet due is not fetched.
	Due(day time.Time) time.Time
	// Holiday reports whether day is a holiday by a trusted calendar:
	// the exchange's trading calendar, or the days EDGAR does not
	// disseminate. A day answered with nothing is covered as a holiday
	// only then; otherwise it is missing.
	Holiday(day time.Time) bool
	// Fetch returns the whole files the source published for day, or
	// ErrNoPublication, ErrSourceFailed or ErrSourceStopped (wrapped).
	Fetch(ctx context.Context, day time.Time) ([]SourceFile, error)
}

// BulkSource is a Source that also publishes everything it holds as one
// archive, fetched whole for a backfill.
type BulkSource interface {
	Source
	// Bulk downloads the archive into dir, unless it is still the version
	// v identifies, and returns the files to load: the archive read where
	// it lies (Path), with what it needs beside it.
	Bulk(ctx context.Context, dir string, v Version) (Bulk, error)
}

// Version is what a server said identifies the version of a file: its
// ETag and Last-Modified.
type Version struct{ ETag, LastModified string }

// Bulk is what a BulkSource fetched: the files, or NotModified when the
// archive is still the version asked about, and the version served.
type Bulk struct {
	Files       []SourceFile
	NotModified bool
	Version     Version
}

// Inbox is an outside source that is handed files rather than publishing
// them day by day: licensed deliveries dropped into a folder. A run takes
// each delivery waiting, whole, and moves it aside once it is loaded or
// refused, so that no run takes it again; there are no days to cover.
type Inbox interface {
	// Name is the inbox's name on the command line (judgments).
	Name() string
	// Waiting lists the deliveries that are whole (none still being
	// written) and not yet taken, in the order a run takes them.
	Waiting(ctx context.Context) ([]SourceFile, error)
	// Taken moves a delivery that was loaded aside.
	Taken(ctx context.Context, f SourceFile) error
	// Refused moves aside a delivery its dataset's reader refused, with
	// the reason beside it.
	Refused(ctx context.Context, f SourceFile, reason error) error
}

// SourceLoader ingests what a source fetched for one day, all or nothing:
// a file its dataset's reader refuses leaves the store as it was. Loading
// files already held changes nothing. It returns how many records the
// files held.
type SourceLoader interface {
	Load(ctx context.Context, files []SourceFile) (int, error)
}

// SyncStates holds each source's checkpoint.
type SyncStates interface {
	// State returns the source's checkpoint; a source never synced has
	// the zero State with Source set.
	State(ctx context.Context, source string) (feed.State, error)
	// SaveState replaces the source's checkpoint.
	SaveState(ctx context.Context, st feed.State) error
}

// SourceMeter counts, per source, the requests a source adapter sends, the
// body bytes it receives and the fetches that fail, for the metrics.
type SourceMeter interface {
	Requested(source string)
	Received(source string, bytes int)
	Failed(source string)
}

// SourceLeases grants one runner at a time the right to run a source, so
// that of several nodes sharing the stores exactly one syncs each source
// while the others serve what it writes. A lease lasts ttl unless renewed:
// a runner that dies without releasing it holds it no longer than that.
type SourceLeases interface {
	// Acquire takes source's lease for holder until ttl from now, and
	// reports whether it did. A holder that already holds the lease
	// renews it; another holder's lease that has not run out is kept and
	// Acquire reports false.
	Acquire(ctx context.Context, source, holder string, ttl time.Duration) (bool, error)
	// Release gives up source's lease if holder holds it; another
	// holder's lease is left as it is.
	Release(ctx context.Context, source, holder string) error
}
