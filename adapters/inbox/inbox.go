// Package inbox is an outside source that is handed files: a folder where
// licensed deliveries are dropped (the India judgments' is
// QUARRY_JUDGMENTS_INBOX). A run takes each whole delivery and then moves
// it aside, into done/ once loaded, or into refused/ with a
// <name>.reason.txt beside it when its reader refused it; each moved file
// gets a UTC timestamp prefix, so a redelivery of the same name is kept
// apart from the first.
//
// A file is whole, and a delivery, when its name ends in the inbox's
// suffix (.zip), does not start with "." and does not end in ".part" or
// ".tmp", and it has not been modified for the settle time: a writer that
// copies under a temporary name and renames when done (rsync, most SFTP
// clients with a temporary-name option) is never seen half-written, and
// one that writes in place is waited for while it writes. Other files are
// left where they are and named in the log.
package inbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/quarrydata/quarry/ports"
)

// Folders a run moves deliveries into, under the inbox.
const (
	DoneDir    = "done"
	RefusedDir = "refused"
)

// ReasonSuffix ends the name of the file beside a refused delivery that
// says why it was refused.
const ReasonSuffix = ".reason.txt"

// DefaultSettle is how long a delivery must be left unmodified before a
// run takes it, unless Config.Settle says otherwise.
const DefaultSettle = time.Minute

// Config configures an inbox.
type Config struct {
	// Name is the inbox's name on the command line (judgments).
	Name string
	// Dataset is the ingest dataset that reads the deliveries.
	Dataset string
	// Dir is the folder deliveries are dropped into.
	Dir string
	// Suffix ends the name of every delivery, compared without case.
	Suffix string
	// Settle is how long a delivery must be left unmodified; zero is
	// DefaultSettle, a negative value none.
	Settle time.Duration
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	Log *zap.Logger
}

// Inbox is a folder of deliveries.
type Inbox struct{ cfg Config }

var _ ports.Inbox = (*Inbox)(nil)

// New returns the inbox of cfg, creating its folders when they are missing.
func New(cfg Config) (*Inbox, error) {
	if cfg.Settle == 0 {
		cfg.Settle = DefaultSettle
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	for _, d := range []string{cfg.Dir, filepath.Join(cfg.Dir, DoneDir), filepath.Join(cfg.Dir, RefusedDir)} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, fmt.Errorf("inbox %s: %w", cfg.Name, err)
		}
	}
	return &Inbox{cfg: cfg}, nil
}

// Name returns the inbox's name.
func (in *Inbox) Name() string { return in.cfg.Name }

// Waiting lists the whole deliveries in the folder, by name.
func (in *Inbox) Waiting(ctx context.Context) ([]ports.SourceFile, error) {
	entries, err := os.ReadDir(in.cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("inbox %s: %w", in.cfg.Name, err)
	}
	var out []ports.SourceFile
	var others []string
	for _, e := range entries {
		if e.IsDir() || Partial(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("inbox %s: %w", in.cfg.Name, err)
		}
		if !info.Mode().IsRegular() || !strings.HasSuffix(strings.ToLower(e.Name()), strings.ToLower(in.cfg.Suffix)) {
			others = append(others, e.Name())
			continue
		}
		if in.cfg.Now().Sub(info.ModTime()) < in.cfg.Settle {
			continue // still being written, or just written: the next run takes it
		}
		out = append(out, ports.SourceFile{Dataset: in.cfg.Dataset, Name: e.Name(), URL: filepath.Join(in.cfg.Dir, e.Name()),
			Path: filepath.Join(in.cfg.Dir, e.Name()), RetrievedAt: info.ModTime().UTC()})
	}
	if len(others) > 0 {
		in.cfg.Log.Warn("inbox files left where they are: not deliveries", zap.String("source", in.cfg.Name),
			zap.String("want", "*"+in.cfg.Suffix), zap.Strings("files", others))
	}
	slices.SortFunc(out, func(a, b ports.SourceFile) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Partial reports whether a file's name marks it as still being written
// (or hidden): it starts with "." or ends in ".part" or ".tmp".
func Partial(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(name, ".") || strings.HasSuffix(lower, ".part") || strings.HasSuffix(lower, ".tmp")
}

// Taken moves a loaded delivery into done/.
func (in *Inbox) Taken(_ context.Context, f ports.SourceFile) error {
	return os.Rename(f.Path, filepath.Join(in.cfg.Dir, DoneDir, in.stamped(f.Name)))
}

// Refused writes the reason beside the delivery in refused/, then moves
// the delivery there.
func (in *Inbox) Refused(_ context.Context, f ports.SourceFile, reason error) error {
	name := in.stamped(f.Name)
	text := fmt.Sprintf("%s refused at %s\n%v\n", f.Name, in.cfg.Now().UTC().Format(time.RFC3339), reason)
	if err := os.WriteFile(filepath.Join(in.cfg.Dir, RefusedDir, name+ReasonSuffix), []byte(text), 0o640); err != nil {
		return err
	}
	return os.Rename(f.Path, filepath.Join(in.cfg.Dir, RefusedDir, name))
}

// stamped prefixes name with the UTC time to the nanosecond, so that no
// two deliveries of one name meet in a folder.
func (in *Inbox) stamped(name string) string {
	return in.cfg.Now().UTC().Format("20060102T150405.000000000Z") + "-" + name
}
