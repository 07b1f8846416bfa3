package sourcesync_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/ports"
)

// spooling writes each day's file into the run's spool, as a source's
// fetch does, and records the folder it wrote in.
type spooling struct {
	weekdays
	dirs []string
}

func (s *spooling) Fetch(ctx context.Context, d time.Time) ([]ports.SourceFile, error) {
	sp := ports.SpoolFrom(ctx)
	p := filepath.Join(sp.Dir(), d.Format("20060102"))
	if err := os.WriteFile(p, []byte("day"), 0o600); err != nil {
		return nil, err
	}
	s.dirs = append(s.dirs, sp.Dir())
	return []ports.SourceFile{{Dataset: "x", Name: d.Format("20060102"), Path: p, Spooled: true}}, nil
}

// runFolder makes a folder a run left under root, its lock held by this
// process when held is set, as a live run's is.
func runFolder(t *testing.T, root, name string, held bool) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.Create(filepath.Join(dir, ".lock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	if held {
		if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			t.Fatal(err)
		}
	} else {
		lock.Close()
	}
	return dir
}

// TestARunsSpoolIsRemovedAndAKilledRunsAtTheNextStart: a run writes what it
// fetches in a folder of its own, gone when it ends; a folder a killed run
// left (its lock no longer held) is removed when the next run starts, and
// one a live run holds is left alone. A killed sync used to leave its
// /tmp/quarry-sync-* folder for good.
func TestARunsSpoolIsRemovedAndAKilledRunsAtTheNextStart(t *testing.T) {
	root := t.TempDir()
	killed := runFolder(t, root, "run-killed", false)
	live := runFolder(t, root, "run-live", true)
	src := &spooling{}
	now := time.Date(2025, 6, 28, 12, 0, 0, 0, time.UTC)
	s := sourcesync.New([]ports.Source{src}, nil, memory.NewSyncStates(), &counting{}, sourcesync.NewMeter(), func() time.Time { return now },
		sourcesync.Spooling(root, 1<<30, "QUARRY_SYNC_MAX_RUN_BYTES"))
	if _, err := s.Sync(t.Context(), nil, sourcesync.Range{From: now.AddDate(0, 0, -7)}); err != nil {
		t.Fatal(err)
	}
	if len(src.dirs) == 0 || filepath.Dir(src.dirs[0]) != root {
		t.Fatalf("the run wrote in %v, not in a folder under %s", src.dirs, root)
	}
	for _, gone := range []string{killed, src.dirs[0]} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s is left: %v", gone, err)
		}
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live run's folder was removed: %v", err)
	}
}
