package sourcesync_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// weekdays publishes one file each weekday, due at 15:00 UTC.
type weekdays struct{}

func (weekdays) Name() string               { return "test" }
func (weekdays) Publishes(d time.Time) bool { return feed.Weekday(d) }
func (weekdays) Due(d time.Time) time.Time  { return d.Add(15 * time.Hour) }
func (weekdays) Holiday(time.Time) bool     { return false }
func (weekdays) Fetch(_ context.Context, d time.Time) ([]ports.SourceFile, error) {
	return []ports.SourceFile{{Dataset: "x", Name: d.Format("20060102")}}, nil
}

type counting struct{ files int }

func (c *counting) Load(_ context.Context, files []ports.SourceFile) (int, error) {
	c.files += len(files)
	return len(files), nil
}

func TestAnUnconfiguredSourceIsRefusedNamingItsSetting(t *testing.T) {
	s := sourcesync.New([]ports.Source{weekdays{}}, []sourcesync.Unconfigured{{Name: "tushare", Remedy: "set QUARRY_TUSHARE_TOKEN"}},
		memory.NewSyncStates(), &counting{}, sourcesync.NewMeter(), time.Now)
	_, err := s.Sync(t.Context(), []string{"tushare"}, sourcesync.Range{})
	if !errors.Is(err, sourcesync.ErrNotConfigured) || !strings.Contains(err.Error(), "QUARRY_TUSHARE_TOKEN") {
		t.Fatalf("sync of an unconfigured source: %v", err)
	}
	if _, err := s.Sync(t.Context(), []string{"nope"}, sourcesync.Range{}); !errors.Is(err, sourcesync.ErrUnknownSource) {
		t.Fatalf("sync of an unknown source: %v", err)
	}
	st, err := s.Statuses(t.Context())
	if err != nil || len(st) != 2 || st[0].Source != "test" || !st[0].Configured || st[1].Configured || st[1].Remedy == "" {
		t.Fatalf("statuses %+v, %v", st, err)
	}
}

// TestARunStopsAtTheLatestDueDayAndReportsItsLag runs on Saturday
// 2025-06-28 with nothing held and no range: the latest due day is Friday
// the 27th; three days later, with nothing new fetched, the lag runs from
// Monday's due time.
func TestARunStopsAtTheLatestDueDayAndReportsItsLag(t *testing.T) {
	now := time.Date(2025, 6, 28, 12, 0, 0, 0, time.UTC)
	load := &counting{}
	s := sourcesync.New([]ports.Source{weekdays{}}, nil, memory.NewSyncStates(), load, sourcesync.NewMeter(), func() time.Time { return now })
	if _, err := s.Sync(t.Context(), nil, sourcesync.Range{}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Statuses(t.Context())
	if err != nil || st[0].State.First != "2025-06-27" || st[0].State.Last != "2025-06-27" || load.files != 1 || st[0].Lag != 0 {
		t.Fatalf("statuses %+v, %v, %d files", st, err, load.files)
	}
	now = time.Date(2025, 7, 1, 15, 0, 0, 0, time.UTC)
	st, _ = s.Statuses(t.Context())
	if st[0].Lag != 24*time.Hour {
		t.Fatalf("lag %v, want a day (Monday the 30th due a day ago)", st[0].Lag)
	}
}

// TestByDatasetGivesEachFilledDatasetItsSourcesStatus: each dataset a
// source fills has that source's state and lag, configured or not; a
// dataset no source fills is absent.
func TestByDatasetGivesEachFilledDatasetItsSourcesStatus(t *testing.T) {
	now := time.Date(2025, 7, 1, 15, 0, 0, 0, time.UTC)
	states := memory.NewSyncStates()
	if err := states.SaveState(t.Context(), feed.State{Source: "test", First: "2025-06-23", Last: "2025-06-27"}); err != nil {
		t.Fatal(err)
	}
	s := sourcesync.New([]ports.Source{weekdays{}}, []sourcesync.Unconfigured{{Name: "tushare", Remedy: "set QUARRY_TUSHARE_TOKEN"}},
		states, &counting{}, sourcesync.NewMeter(), func() time.Time { return now },
		sourcesync.Fills(map[string][]dataset.ID{"test": {dataset.IndiaPrices, dataset.IndiaExports}, "tushare": {dataset.ChinaPrices}}))
	by, err := s.ByDataset(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(by) != 3 {
		t.Fatalf("%d datasets, want 3: %+v", len(by), by)
	}
	for _, id := range []dataset.ID{dataset.IndiaPrices, dataset.IndiaExports} {
		if st := by[id]; st.Source != "test" || st.State.First != "2025-06-23" || st.State.Last != "2025-06-27" || st.Lag != 24*time.Hour {
			t.Errorf("%s: %+v", id, st)
		}
	}
	if st := by[dataset.ChinaPrices]; st.Source != "tushare" || st.Configured || st.State.First != "" {
		t.Errorf("china_prices: %+v", st)
	}
}
