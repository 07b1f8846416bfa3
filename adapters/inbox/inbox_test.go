package inbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/inbox"
)

func TestWaitingListsOnlyWholeDeliveries(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
	for name, age := range map[string]time.Duration{
		"b.zip": time.Hour, "a.ZIP": 2 * time.Minute, "fresh.zip": 10 * time.Second,
		".hidden.zip": time.Hour, "c.zip.part": time.Hour, "d.zip.tmp": time.Hour, "notes.txt": time.Hour,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	in, err := inbox.New(inbox.Config{Name: "judgments", Dataset: "india_judgments", Dir: dir, Suffix: ".zip", Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	got, err := in.Waiting(t.Context())
	if err != nil || len(got) != 2 || got[0].Name != "a.ZIP" || got[1].Name != "b.zip" || got[1].Path != filepath.Join(dir, "b.zip") {
		t.Fatalf("Waiting = %+v, %v", got, err)
	}
	if err := in.Taken(t.Context(), got[1]); err != nil {
		t.Fatal(err)
	}
	if err := in.Refused(t.Context(), got[0], errors.New("bad input: a.ZIP: no metadata file")); err != nil {
		t.Fatal(err)
	}
	stamp := "20261127T040000.000000000Z-"
	if _, err := os.Stat(filepath.Join(dir, inbox.DoneDir, stamp+"b.zip")); err != nil {
		t.Fatal(err)
	}
	reason, err := os.ReadFile(filepath.Join(dir, inbox.RefusedDir, stamp+"a.ZIP"+inbox.ReasonSuffix))
	if err != nil || !strings.Contains(string(reason), "no metadata file") {
		t.Fatalf("reason %q, %v", reason, err)
	}
	if got, err := in.Waiting(t.Context()); err != nil || len(got) != 0 {
		t.Fatalf("after the run: %+v, %v", got, err)
	}
}
