package bootstrap

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/tusharesource"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// tushareRig is the sync use case on memory stores, the tushare source at
// a replay server answering from the sample's real rows.
type tushareRig struct {
	syncer     *sourcesync.Syncer
	prices     ports.ChinaPriceStore
	securities ports.SecurityStore
	states     ports.SyncStates
	server     *replay.Server
}

func newTushareRig(t *testing.T) *tushareRig {
	t.Helper()
	srv := replay.New(t)
	srv.AddTushare(t)
	cfg := Config{Sync: SyncConfig{NSEBaseURL: srv.URL, TushareToken: "replay-token", TushareBaseURL: srv.URL,
		TusharePerMinute: 60_000, RetryBackoff: time.Millisecond}}
	r := &tushareRig{server: srv}
	startSync(t, cfg, &r.syncer, &r.prices, &r.securities, &r.states)
	return r
}

func (r *tushareRig) sync(t *testing.T, from, to string) (sourcesync.Outcome, error) {
	t.Helper()
	return syncOne(t, r.syncer, tusharesource.Name, from, to)
}

func (r *tushareRig) state(t *testing.T) feed.State {
	t.Helper()
	st, err := r.states.State(t.Context(), tusharesource.Name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// held counts the bar versions held for the sample's three listings.
func (r *tushareRig) held(t *testing.T) int {
	t.Helper()
	n := 0
	for _, code := range []string{"SZSE.000001", "SSE.600519", "BSE.830799"} {
		v, err := r.prices.Versions(t.Context(), code)
		if err != nil {
			t.Fatal(err)
		}
		n += len(v)
	}
	return n
}

// TestSyncBackfillsTushareDaysAndTheHoliday: two weeks from 2022-05-30,
// the 3rd of June (端午节) answered with no rows; the listings come with
// the first day.
func TestSyncBackfillsTushareDaysAndTheHoliday(t *testing.T) {
	r := newTushareRig(t)
	o, err := r.sync(t, "2022-05-30", "2022-06-10")
	if err != nil {
		t.Fatal(err)
	}
	if o.Days != 12 || o.Holidays != 1 || o.Files != 10 || o.Rows != 9*3+5524 {
		t.Fatalf("outcome %+v, want 12 days, 1 holiday, 9 daily files and the listings, 27 bars and 5,524 listings", o)
	}
	if n := r.held(t); n != 27 {
		t.Fatalf("%d bars held, want 27", n)
	}
	if n, err := r.securities.CountSecurities(t.Context()); err != nil || n != 5524 {
		t.Fatalf("%d listings held, %v", n, err)
	}
	if st := r.state(t); st.First != "2022-05-30" || st.Last != "2022-06-10" || st.Holidays != 1 || st.LastError != "" {
		t.Fatalf("state %+v", st)
	}
	if n := len(r.server.Requests()); n != 11 {
		t.Fatalf("%d requests, want 10 weekdays and stock_basic once", n)
	}
	again, err := r.sync(t, "2022-05-30", "2022-06-10")
	if err != nil || again.Days != 12 || again.Holidays != 1 || r.held(t) != 27 || r.state(t).Holidays != 1 {
		t.Fatalf("a second run over held days: %+v, %v; want them fetched again, the same bars held, the holiday counted once", again, err)
	}
}

// TestATushareWeekdayWithoutRowsOffTheCalendarIsMissing: 2024-01-02, a
// trading day the A-share calendar does not list as a holiday, answered
// with no rows (the replay holds none after 2023-12-21), is missing.
func TestATushareWeekdayWithoutRowsOffTheCalendarIsMissing(t *testing.T) {
	r := newTushareRig(t)
	o, err := r.sync(t, "2024-01-01", "2024-01-02")
	if err != nil {
		t.Fatal(err)
	}
	if o.Holidays != 1 || o.Missing != 1 || o.Days != 1 {
		t.Fatalf("outcome %+v, want 2024-01-01 (元旦) a holiday and 2024-01-02 missing", o)
	}
	if st := r.state(t); st.Covers("2024-01-02") || len(st.Missing) != 1 || st.Missing[0].Day != "2024-01-02" {
		t.Fatalf("state %+v", st)
	}
}

// TestATokenOutOfPointsStopsTheRunWithTheCheckpointUnchanged: the first
// day is refused with code 40203; the run stops after one request for it,
// saves no day, says why, and the next run completes.
func TestATokenOutOfPointsStopsTheRunWithTheCheckpointUnchanged(t *testing.T) {
	r := newTushareRig(t)
	r.server.FailTushare("daily", "20220601", replay.NoPermission)
	o, err := r.sync(t, "2022-06-01", "2022-06-02")
	if !errors.Is(err, ports.ErrSourceStopped) || o.Days != 0 {
		t.Fatalf("outcome %+v, %v; want a stop", o, err)
	}
	st := r.state(t)
	if st.First != "" || !strings.Contains(st.LastError, "code 40203") || !strings.Contains(st.LastError, "QUARRY_TUSHARE_TOKEN") {
		t.Fatalf("state %+v, want no day held and the refusal recorded", st)
	}
	if n := len(r.server.Requests()); n != 1 {
		t.Fatalf("%d requests, want one: a refusal for the token is not retried", n)
	}
	if o, err := r.sync(t, "2022-06-01", "2022-06-02"); err != nil || o.Days != 2 || r.held(t) != 6 {
		t.Fatalf("the run after the operator acted: %+v, %v", o, err)
	}
}

// TestTushareAnswersThatFailStoreNothing: a 429 and a 503 are retried at
// once; a malformed body (served whole) and a body cut mid-stream (on
// every attempt) store nothing, and the next run completes.
func TestTushareAnswersThatFailStoreNothing(t *testing.T) {
	r := newTushareRig(t)
	r.server.FailTushare("daily", "20220601", replay.TooMany, replay.Unavailable)
	if o, err := r.sync(t, "2022-06-01", "2022-06-01"); err != nil || o.Days != 1 {
		t.Fatalf("after a 429 and a 503: %+v, %v", o, err)
	}
	for _, faults := range [][]replay.Fault{{replay.Truncated}, {replay.Cut, replay.Cut, replay.Cut, replay.Cut}} {
		r.server.FailTushare("daily", "20220602", faults...)
		o, err := r.sync(t, "2022-06-02", "2022-06-02")
		if !errors.Is(err, ports.ErrSourceFailed) || o.Days != 0 || r.held(t) != 3 {
			t.Fatalf("fault %d: %+v, %v, %d bars held; want nothing of the 2nd stored", faults[0], o, err, r.held(t))
		}
		if st := r.state(t); st.Last != "2022-06-01" || st.LastError == "" {
			t.Fatalf("fault %d: state %+v", faults[0], st)
		}
	}
	if o, err := r.sync(t, "2022-06-02", "2022-06-02"); err != nil || o.Days != 1 || r.held(t) != 6 {
		t.Fatalf("the next run: %+v, %v, %d bars", o, err, r.held(t))
	}
}
