package porttest

import (
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// NewSyncStates returns an empty SyncStates for one test.
type NewSyncStates func(t *testing.T) ports.SyncStates

// RunSyncStates checks a SyncStates: a source never synced has an empty
// state, the last state saved is the one read back, and sources are kept
// apart, a bulk checkpoint's archive version with them.
func RunSyncStates(t *testing.T, s ports.SyncStates) {
	t.Helper()
	ctx := t.Context()
	st, err := s.State(ctx, "nse")
	must(t, "State", err)
	if st.Source != "nse" || st.First != "" || st.Files != 0 {
		t.Fatalf("a source never synced has state %+v", st)
	}
	at := time.Date(2025, 6, 27, 15, 0, 0, 0, time.UTC)
	want := feed.State{Source: "nse", First: "2025-06-18", Last: "2025-06-27", Files: 8, Rows: 24000, Holidays: 1, Refused: 2,
		LastSuccess: at, LastError: "fetch failed", LastErrorAt: at.Add(-time.Hour)}
	for _, w := range []feed.State{{Source: "nse", First: "2025-06-18", Last: "2025-06-18"}, want} {
		must(t, "SaveState", s.SaveState(ctx, w))
	}
	must(t, "SaveState", s.SaveState(ctx, feed.State{Source: "edgar", First: "2025-06-02", Last: "2025-06-02"}))
	got, err := s.State(ctx, "nse")
	must(t, "State", err)
	if got.First != want.First || got.Last != want.Last || got.Files != want.Files || got.Rows != want.Rows ||
		got.Holidays != want.Holidays || got.Refused != want.Refused || !got.LastSuccess.Equal(want.LastSuccess) || got.LastError != want.LastError ||
		!got.LastErrorAt.Equal(want.LastErrorAt) {
		t.Fatalf("State = %+v, want %+v", got, want)
	}
	runBulkState(t, s)
	runDaysState(t, s)
}

// runDaysState checks that a checkpoint keeps its version, its gaps and
// its days missing, the given up one's zero next try with them.
func runDaysState(t *testing.T, s ports.SyncStates) {
	t.Helper()
	next := time.Date(2025, 7, 1, 16, 0, 0, 0, time.UTC)
	want := feed.State{Source: "tushare", Version: feed.Version, First: "2025-06-18", Last: "2025-06-30",
		Gaps:    []feed.Span{{First: "2025-06-19", Last: "2025-06-20"}},
		Missing: []feed.Missing{{Day: "2025-06-27", Attempts: 8}, {Day: "2025-06-30", Attempts: 1, NextTry: next}}}
	must(t, "SaveState", s.SaveState(t.Context(), want))
	got, err := s.State(t.Context(), want.Source)
	must(t, "State", err)
	if got.Version != want.Version || !slices.Equal(got.Gaps, want.Gaps) || len(got.Missing) != 2 || got.Missing[0] != want.Missing[0] ||
		got.Missing[1].Day != "2025-06-30" || !got.Missing[1].NextTry.Equal(next) || got.Missing[1].Attempts != 1 || !got.Missing[0].GaveUp() {
		t.Fatalf("State = %+v, want %+v", got, want)
	}
}

// runBulkState checks that a bulk checkpoint keeps its archive's version.
func runBulkState(t *testing.T, s ports.SyncStates) {
	t.Helper()
	want := feed.State{Source: "edgar/bulk", Files: 2, Rows: 9000, ETag: `"5f3a-61c2"`, LastModified: "Thu, 26 Nov 2026 06:12:44 GMT"}
	must(t, "SaveState", s.SaveState(t.Context(), want))
	got, err := s.State(t.Context(), want.Source)
	must(t, "State", err)
	if got.ETag != want.ETag || got.LastModified != want.LastModified || got.Rows != want.Rows {
		t.Fatalf("bulk State = %+v, want %+v", got, want)
	}
}
