package sourcesync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
)

// DefaultRunBytes is how many bytes a run may fetch unless Spooling says
// otherwise: more than a busy EDGAR day's companyfacts, filings and 13F
// submissions, fetched whole, and a bound on the disk a run fills.
const DefaultRunBytes = 8 << 30

// spoolPrefix starts the name of a run's folder under the spool's root.
const spoolPrefix = "run-"

// lockName is the file a run holds locked in its folder while it runs.
const lockName = ".lock"

// unlockedAge is how old a run's folder without a lock file must be to be
// taken for one a run left as it was created: a run locks its folder at
// once.
const unlockedAge = time.Hour

// Spooling has each run write what it fetches in a folder of its own
// under root, removed when the run ends, and stop once it has fetched
// budget bytes; setting names the budget in that stop. A folder a run
// killed midway left under root is removed when the next run starts.
func Spooling(root string, budget int64, setting string) Option {
	return func(s *Syncer) { s.spoolRoot, s.budget, s.budgetSetting = root, budget, setting }
}

// spool is one run's folder and the bytes it fetched (ports.Spool).
type spool struct {
	dir     string
	lock    *os.File
	budget  int64
	setting string
	taken   atomic.Int64
}

// Dir is the run's folder.
func (sp *spool) Dir() string { return sp.dir }

// Take counts n bytes fetched, and fails once the run has fetched more
// than its budget.
func (sp *spool) Take(n int64) error {
	if sp.taken.Add(n) > sp.budget {
		return fmt.Errorf("the run fetched more than %s (%s); the days before are kept and the next run goes on from there: %w",
			source.Bytes(sp.budget), sp.setting, ports.ErrBudgetSpent)
	}
	return nil
}

// Left is how many bytes the run may still fetch.
func (sp *spool) Left() int64 { return max(sp.budget-sp.taken.Load(), 0) }

// close removes the run's folder with everything in it.
func (sp *spool) close() error {
	err := os.RemoveAll(sp.dir)
	if cerr := sp.lock.Close(); err == nil {
		err = cerr
	}
	return err
}

// spooled runs fn with a spool of its own in its context: a folder under
// the spool's root, locked while fn runs and removed after, the folders
// of runs that died first removed.
func (s *Syncer) spooled(ctx context.Context, name string, fn func(context.Context) Outcome) Outcome {
	sp, err := s.openSpool()
	if err != nil {
		return Outcome{Source: name, Err: fmt.Errorf("the run's spool under %s: %w", s.spoolRoot, err)}
	}
	defer sp.close()
	return fn(ports.WithSpool(ctx, sp))
}

func (s *Syncer) openSpool() (*spool, error) {
	if err := os.MkdirAll(s.spoolRoot, 0o700); err != nil {
		return nil, err
	}
	sweep(s.spoolRoot)
	dir, err := os.MkdirTemp(s.spoolRoot, spoolPrefix)
	if err != nil {
		return nil, err
	}
	lock, err := os.Create(filepath.Join(dir, lockName))
	if err == nil {
		err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &spool{dir: dir, lock: lock, budget: s.budget, setting: s.budgetSetting}, nil
}

// sweep removes the folders under root of runs no process holds: their
// lock can be taken, or they have had none for unlockedAge. A run's lock
// is let go by the system when its process dies, however it dies.
func sweep(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), spoolPrefix) && abandoned(filepath.Join(root, e.Name())) {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// abandoned reports whether no process holds the run folder dir.
func abandoned(dir string) bool {
	lock, err := os.Open(filepath.Join(dir, lockName))
	if os.IsNotExist(err) {
		st, serr := os.Stat(dir)
		return serr == nil && time.Since(st.ModTime()) > unlockedAge
	}
	if err != nil {
		return false
	}
	defer lock.Close()
	return syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
