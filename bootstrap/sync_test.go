package bootstrap

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/nsesource"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
	"github.com/quarrydata/quarry/sampledata"
)

// nseDays are the eight real UDiFF days the replay server holds.
var nseDays = []string{"2025-06-18", "2025-06-19", "2025-06-20", "2025-06-23", "2025-06-24", "2025-06-25", "2025-06-26", "2025-06-27"}

// syncRig is the sync use case on memory stores, its sources at a replay
// server.
type syncRig struct {
	syncer *sourcesync.Syncer
	prices ports.IndiaPriceStore
	states ports.SyncStates
	meter  *sourcesync.Meter
	load   ports.SourceLoader
	server *replay.Server
}

func newSyncRig(t *testing.T, srv *replay.Server) *syncRig {
	t.Helper()
	if srv == nil {
		srv = replay.New(t)
		srv.AddNSE(t)
	}
	cfg := Config{Sync: SyncConfig{NSEBaseURL: srv.URL, RetryBackoff: time.Millisecond}}
	r := &syncRig{server: srv}
	startSync(t, cfg, &r.syncer, &r.prices, &r.states, &r.meter, &r.load)
	return r
}

// startSync starts the graph of `quarry sync` for cfg on memory, stopped
// when the test ends, and populates targets from it.
func startSync(t *testing.T, cfg Config, targets ...any) {
	t.Helper()
	app := fxtest.New(t, fx.NopLogger, fx.Supply(zap.NewNop()), ingestion(cfg), syncGraph(cfg), fx.Populate(targets...))
	app.RequireStart()
	t.Cleanup(app.RequireStop)
}

// syncOne runs one source over the days from..to and returns its outcome.
func syncOne(t *testing.T, s *sourcesync.Syncer, source, from, to string) (sourcesync.Outcome, error) {
	t.Helper()
	out, err := s.Sync(t.Context(), []string{source}, sourcesync.Range{From: day(t, from), To: day(t, to)})
	if len(out) != 1 {
		t.Fatalf("Sync returned %d outcomes, %v", len(out), err)
	}
	return out[0], err
}

func day(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := feed.Day(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func (r *syncRig) sync(t *testing.T, from, to string) (sourcesync.Outcome, error) {
	t.Helper()
	return syncOne(t, r.syncer, nsesource.Name, from, to)
}

// rowsByDay counts the versions held per day.
func (r *syncRig) rowsByDay(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, d := range nseDays {
		rows, err := r.prices.OnDate(t.Context(), d)
		if err != nil {
			t.Fatal(err)
		}
		out[d] = len(rows)
	}
	return out
}

func (r *syncRig) state(t *testing.T) feed.State {
	t.Helper()
	st, err := r.states.State(t.Context(), nsesource.Name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSyncBackfillsNSEDaysFromTheReplayServer(t *testing.T) {
	r := newSyncRig(t, nil)
	o, err := r.sync(t, "2025-06-18", "2025-06-27")
	if err != nil {
		t.Fatal(err)
	}
	if o.Days != 10 || o.Files != 8 || o.Holidays != 0 || o.Rows < 8*2900 {
		t.Fatalf("outcome %+v, want 10 days, 8 files, no holiday, every row", o)
	}
	for d, n := range r.rowsByDay(t) {
		if n < 2900 {
			t.Errorf("%s: %d rows held, want the whole day", d, n)
		}
	}
	st := r.state(t)
	if st.First != "2025-06-18" || st.Last != "2025-06-27" || st.Files != 8 || st.LastSuccess.IsZero() || st.LastError != "" {
		t.Fatalf("state %+v", st)
	}
	for _, req := range r.server.Requests() {
		if !strings.HasPrefix(req.Path, "/content/cm/BhavCopy_NSE_CM_0_0_0_202506") || req.UserAgent == "" || strings.HasPrefix(req.UserAgent, "Go-http-client") {
			t.Errorf("request %s with User-Agent %q", req.Path, req.UserAgent)
		}
	}
	if got := r.meter.Snapshot()[nsesource.Name]; got.Requests != 8 || got.Bytes < 8*160_000 || got.LastSuccess.IsZero() {
		t.Errorf("meter %+v", got)
	}
	held := r.rowsByDay(t)
	again, err := r.sync(t, "2025-06-18", "2025-06-27")
	if err != nil || again.Days != 10 || again.Files != 8 || len(r.server.Requests()) != 16 {
		t.Fatalf("a second run over held days: %+v, %v; want every day named fetched again", again, err)
	}
	if got := r.rowsByDay(t); !equalCounts(got, held) {
		t.Fatalf("after fetching the held days again %v, before %v", got, held)
	}
}

// TestSyncRecordsAWeekday404AsMissing is the probe of issue 35: NSE
// answers 2025-06-30, a trading day on NSE's list, with 404. The day is
// missing, not a holiday, and a run naming it again asks for it again.
func TestSyncRecordsAWeekday404AsMissing(t *testing.T) {
	r := newSyncRig(t, nil)
	o, err := r.sync(t, "2025-06-27", "2025-06-30")
	if err != nil {
		t.Fatal(err)
	}
	if o.Holidays != 0 || o.Missing != 1 || o.Files != 1 || o.Days != 3 {
		t.Fatalf("outcome %+v, want 2025-06-30 (not served) missing, the weekend skipped", o)
	}
	st := r.state(t)
	if st.Last != "2025-06-30" || st.Holidays != 0 || st.Covers("2025-06-30") || len(st.Missing) != 1 || st.Missing[0].Attempts != 1 {
		t.Fatalf("state %+v", st)
	}
	if _, err := r.sync(t, "2025-06-30", "2025-06-30"); err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, req := range r.server.Requests() {
		if strings.Contains(req.Path, "20250630") {
			asked++
		}
	}
	if st := r.state(t); asked != 2 || st.Missing[0].Attempts != 2 {
		t.Fatalf("2025-06-30 asked %d times, state %+v; want it asked again", asked, st)
	}
}

// TestSyncStoresNothingOfAFaultyDayAndTheNextRunCompletes injects each
// fault on 2025-06-24: the run keeps the days before it, stores nothing of
// it, records the reason, and the next run completes to the same store a
// clean run makes.
func TestSyncStoresNothingOfAFaultyDayAndTheNextRunCompletes(t *testing.T) {
	clean := newSyncRig(t, nil)
	if _, err := clean.sync(t, "2025-06-18", "2025-06-27"); err != nil {
		t.Fatal(err)
	}
	want := clean.rowsByDay(t)
	faulty := "content/cm/BhavCopy_NSE_CM_0_0_0_20250624_F_0000.csv.zip"
	cases := []struct {
		name   string
		faults []replay.Fault
		reason string
	}{
		{"body cut mid-stream", []replay.Fault{replay.Cut, replay.Cut, replay.Cut, replay.Cut}, "body cut"},
		{"truncated zip", []replay.Fault{replay.Truncated}, "not a whole zip"},
		{"HTML page with 200", []replay.Fault{replay.HTML}, "HTML page"},
		{"503 on every attempt", []replay.Fault{replay.Unavailable, replay.Unavailable, replay.Unavailable, replay.Unavailable}, "HTTP 503"},
		{"a file the parser refuses", nil, "bad input"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := replay.New(t)
			srv.AddNSE(t)
			if c.faults == nil {
				srv.Add(faulty, cutInsideLastNumber(t, srv, faulty))
			}
			srv.Fail(faulty, c.faults...)
			r := newSyncRig(t, srv)
			o, err := r.sync(t, "2025-06-18", "2025-06-27")
			if err == nil || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("run over the faulty day: %v, want %q", err, c.reason)
			}
			if o.Files != 4 {
				t.Errorf("outcome %+v, want the four days before the fault", o)
			}
			got := r.rowsByDay(t)
			if got["2025-06-24"] != 0 || got["2025-06-25"] != 0 || got["2025-06-23"] != want["2025-06-23"] {
				t.Fatalf("held after the fault: %v", got)
			}
			if st := r.state(t); st.Last != "2025-06-23" || !strings.Contains(st.LastError, "2025-06-24") {
				t.Fatalf("state %+v", st)
			}
			if c.faults == nil {
				srv.AddNSE(t) // the source serves the whole file again
			}
			if _, err := r.sync(t, "2025-06-18", "2025-06-27"); err != nil {
				t.Fatalf("next run: %v", err)
			}
			if got := r.rowsByDay(t); !equalCounts(got, want) {
				t.Fatalf("after the next run %v, a clean run %v", got, want)
			}
			if st := r.state(t); st.Last != "2025-06-27" || st.LastError != "" {
				t.Fatalf("state %+v", st)
			}
		})
	}
}

func TestSyncRetriesA429AndA503(t *testing.T) {
	srv := replay.New(t)
	srv.AddNSE(t)
	srv.Fail("content/cm/BhavCopy_NSE_CM_0_0_0_20250618_F_0000.csv.zip", replay.TooMany, replay.Unavailable)
	r := newSyncRig(t, srv)
	o, err := r.sync(t, "2025-06-18", "2025-06-18")
	if err != nil || o.Files != 1 {
		t.Fatalf("outcome %+v, %v", o, err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3 (two refused, one served)", n)
	}
}

// TestSyncResumesAfterAnInterruptedRun stops a run after its third day,
// as a kill would, and resumes: the store equals a clean run's.
func TestSyncResumesAfterAnInterruptedRun(t *testing.T) {
	clean := newSyncRig(t, nil)
	if _, err := clean.sync(t, "2025-06-18", "2025-06-27"); err != nil {
		t.Fatal(err)
	}
	r := newSyncRig(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	stop := &stopAfter{SyncStates: r.states, days: 3, cancel: cancel}
	s := sourcesync.New(pickNSE(t, r), nil, stop, r.load, sourcesync.NewMeter(), time.Now, sourcesync.BatchDays(1))
	if _, err := s.Sync(ctx, nil, sourcesync.Range{From: day(t, "2025-06-18"), To: day(t, "2025-06-27")}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	if st := r.state(t); st.Last != "2025-06-20" {
		t.Fatalf("state after the interruption %+v", st)
	}
	if _, err := r.sync(t, "2025-06-18", "2025-06-27"); err != nil {
		t.Fatal(err)
	}
	if got, want := r.rowsByDay(t), clean.rowsByDay(t); !equalCounts(got, want) {
		t.Fatalf("resumed %v, clean %v", got, want)
	}
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// cutInsideLastNumber returns the zip at urlPath with its CSV cut inside
// the last row's figures, zipped whole again: a file every check but the
// parser's passes.
func cutInsideLastNumber(t *testing.T, srv *replay.Server, urlPath string) []byte {
	t.Helper()
	name := path.Base(urlPath)
	body, err := fs.ReadFile(sampledata.NSEUDiFF, path.Join(sampledata.NSEUDiFFDir, name))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	csv, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	last := bytes.LastIndex(bytes.TrimRight(csv, "\n"), []byte("\n"))
	cut := csv[:last+1+bytes.Index(csv[last+1:], []byte(",F1,"))-3] // inside the trade count
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	w, err := zw.Create(zr.File[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(cut); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// stopAfter cancels the run once it has saved days days, as a kill would
// stop it between two days.
type stopAfter struct {
	ports.SyncStates
	days   int
	saved  int
	cancel context.CancelFunc
}

func (s *stopAfter) SaveState(ctx context.Context, st feed.State) error {
	if err := s.SyncStates.SaveState(ctx, st); err != nil {
		return err
	}
	if s.saved++; s.saved == s.days {
		s.cancel()
	}
	return nil
}

func pickNSE(t *testing.T, r *syncRig) []ports.Source {
	t.Helper()
	src, err := r.syncer.Pick([]string{nsesource.Name})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestSyncCommandWiresTheLeasesOfEachStorage proves `quarry sync`'s graph
// complete without connecting: with PostgreSQL it takes the leases there,
// shared with the serving nodes, else the process's own.
func TestSyncCommandWiresTheLeasesOfEachStorage(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"mongo":          {EnvMongoURI: "mongodb://db:27017"},
		"postgres+mongo": {EnvPostgresURL: "postgres://u:p@db/quarry", EnvMongoURI: "mongodb://db:27017"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := LoadConfig(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			var s *sourcesync.Syncer
			if err := fx.ValidateApp(fx.NopLogger, fx.Supply(zap.NewNop()), syncCommand(cfg, &s)); err != nil {
				t.Fatalf("wiring: %v", err)
			}
		})
	}
}
