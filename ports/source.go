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
	// (an exchange holiday); it is recorded, not an error of the run.
	ErrNoPublication = errors.New("source published nothing for the day")
	// ErrSourceFailed: the source could not be read, or what it served
	// failed the checks (a body cut short, a truncated archive, an HTML
	// page in place of a file); nothing of it was stored and the next run
	// fetches it again.
	ErrSourceFailed = errors.New("source failed")
	// ErrSourceStopped: the source refuses to serve this client until an
	// operator acts (a token out of points); retrying does not help.
	ErrSourceStopped = errors.New("source stopped serving")
)

// SourceFile is one whole file a source served, checked as far as its
// format allows before a dataset's reader parses it.
type SourceFile struct {
	// Dataset is the ingest dataset that reads the file, as `quarry
	// ingest` names it (india_prices).
	Dataset string
	// Name is the file's name as a reader reports it: the last element of
	// its URL path.
	Name string
	// URL is where it was fetched from, for the logs.
	URL string
	// Body is the whole file, unless Path is set.
	Body []byte
	// Path, when set, is where the whole file lies on disk: an inbox's
	// delivery, read in place rather than copied into memory.
	Path string
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
	// not yet due is not fetched; one due and answered with nothing is a
	// holiday.
	Due(day time.Time) time.Time
	// Fetch returns the whole files the source published for day, or
	// ErrNoPublication, ErrSourceFailed or ErrSourceStopped (wrapped).
	Fetch(ctx context.Context, day time.Time) ([]SourceFile, error)
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
