package sourcesync_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
)

// folder is an inbox in memory: what waits, and where each delivery went.
type folder struct{ waiting, taken, refused []string }

func (f *folder) Name() string { return "drops" }
func (f *folder) Waiting(context.Context) ([]ports.SourceFile, error) {
	out := make([]ports.SourceFile, len(f.waiting))
	for i, n := range f.waiting {
		out[i] = ports.SourceFile{Dataset: "x", Name: n}
	}
	return out, nil
}
func (f *folder) move(name string, to *[]string) {
	for i, n := range f.waiting {
		if n == name {
			f.waiting = append(f.waiting[:i], f.waiting[i+1:]...)
			*to = append(*to, name)
			return
		}
	}
}
func (f *folder) Taken(_ context.Context, sf ports.SourceFile) error {
	f.move(sf.Name, &f.taken)
	return nil
}
func (f *folder) Refused(_ context.Context, sf ports.SourceFile, _ error) error {
	f.move(sf.Name, &f.refused)
	return nil
}

// failing refuses "bad" as a reader does, and fails everything while down.
type failing struct{ down bool }

func (l *failing) Load(_ context.Context, files []ports.SourceFile) (int, error) {
	switch {
	case l.down:
		return 0, errors.New("store unreachable")
	case files[0].Name == "bad":
		return 0, fmt.Errorf("%w: bad: not a readable zip archive", source.ErrBadInput)
	}
	return 10, nil
}

// TestAnInboxLeavesADeliveryItCouldNotStore: a store failure stops the
// run and leaves the delivery waiting; the next run takes it, moves the
// refused one aside, and counts both.
func TestAnInboxLeavesADeliveryItCouldNotStore(t *testing.T) {
	in := &folder{waiting: []string{"a", "bad"}}
	load := &failing{down: true}
	s := sourcesync.New(nil, nil, memory.NewSyncStates(), load, sourcesync.NewMeter(), time.Now, sourcesync.Inboxes(in))
	if out, err := s.Sync(t.Context(), nil, sourcesync.Range{}); err == nil || len(out) != 1 || out[0].Files != 0 || len(in.waiting) != 2 {
		t.Fatalf("store down: %+v, %v, waiting %v", out, err, in.waiting)
	}
	load.down = false
	out, err := s.Sync(t.Context(), []string{"drops"}, sourcesync.Range{})
	if err == nil || out[0].Files != 1 || out[0].Rows != 10 || out[0].Refused != 1 || len(in.waiting) != 0 || len(in.taken) != 1 || len(in.refused) != 1 {
		t.Fatalf("store up: %+v, %v, %+v", out, err, in)
	}
	st, _ := s.Statuses(t.Context())
	if len(st) != 1 || !st[0].Inbox || st[0].State.Files != 1 || st[0].State.Refused != 1 || st[0].State.LastError == "" || !st[0].State.LastSuccess.IsZero() {
		t.Fatalf("status %+v", st)
	}
	if out, err := s.Sync(t.Context(), nil, sourcesync.Range{}); err != nil || out[0].Files != 0 {
		t.Fatalf("nothing waiting: %+v, %v", out, err)
	}
	if st, _ := s.Statuses(t.Context()); st[0].State.LastError != "" || st[0].State.LastSuccess.IsZero() {
		t.Fatalf("status after a clean run %+v", st)
	}
}
