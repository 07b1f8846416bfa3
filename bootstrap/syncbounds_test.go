package bootstrap

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/nsesource"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// TestSyncStopsAtItsRunBudgetAndTheNextRunGoesOn: each NSE day is about
// 165 KB; a run may fetch 400,000 bytes, so a backfill of four days stops
// at the third, keeping the two before it, records why with the setting
// to raise, and leaves no spooled file; the next run, naming the days
// not yet held (an explicit range fetches every day it names), goes on
// from the third. Before the budget a run fetched every day asked,
// whatever their weight.
func TestSyncStopsAtItsRunBudgetAndTheNextRunGoesOn(t *testing.T) {
	srv := replay.New(t)
	srv.AddNSE(t)
	spool := t.TempDir()
	cfg := Config{Sync: SyncConfig{NSEBaseURL: srv.URL, RetryBackoff: time.Millisecond, MaxRunBytes: 400_000, SpoolDir: spool}}
	r := &syncRig{server: srv}
	startSync(t, cfg, &r.syncer, &r.prices, &r.states, &r.meter, &r.load)
	o, err := r.sync(t, "2025-06-18", "2025-06-23")
	if !errors.Is(err, ports.ErrBudgetSpent) || o.Files != 2 || !strings.Contains(err.Error(), "QUARRY_SYNC_MAX_RUN_BYTES") {
		t.Fatalf("a run past its budget: %+v, %v", o, err)
	}
	st := r.state(t)
	if st.Last != "2025-06-19" || !strings.Contains(st.LastError, "more than 400000 bytes") {
		t.Fatalf("state %+v", st)
	}
	if left, _ := os.ReadDir(spool); len(left) != 0 {
		t.Fatalf("the spool holds %v after the run", left)
	}
	o, err = r.sync(t, "2025-06-20", "2025-06-23")
	if err != nil || o.Files != 2 || r.state(t).Last != "2025-06-23" {
		t.Fatalf("the next run: %+v, %v, state %+v", o, err, r.state(t))
	}
	rows := r.rowsByDay(t)
	for _, d := range nseDays[:4] {
		if rows[d] < 2900 {
			t.Errorf("%s: %d rows held, want the whole day", d, rows[d])
		}
	}
}

// TestSyncRefusesADayDeclaringMoreThanAFileMayHold: a day whose
// Content-Length declares 10 GiB, past QUARRY_INGEST_MAX_FILE_BYTES, is
// refused from its headers: the server sends 1 KiB and then waits for the
// client, so a client reading the body would wait until the test timed
// out. The source's bound of any body used to be a fixed 1 GiB, reached
// after a 2.75 GB peak, whatever the setting.
func TestSyncRefusesADayDeclaringMoreThanAFileMayHold(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.FormatInt(10<<30, 10))
		_, _ = w.Write(make([]byte, 1<<10))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	cfg := Config{IngestMaxFileBytes: 1 << 30, Sync: SyncConfig{NSEBaseURL: srv.URL, RetryBackoff: time.Millisecond, SpoolDir: t.TempDir()}}
	r := &syncRig{}
	startSync(t, cfg, &r.syncer, &r.prices, &r.states, &r.meter, &r.load)
	o, err := r.sync(t, "2025-06-18", "2025-06-18")
	if !errors.Is(err, ports.ErrSourceFailed) || o.Files != 0 || !strings.Contains(err.Error(), "Content-Length 10737418240 is larger than the bound of 1073741824 bytes; the body was not read") {
		t.Fatalf("a day over the file bound: %+v, %v", o, err)
	}
	if got := r.meter.Snapshot()[nsesource.Name]; got.Bytes != 0 || got.Requests != 1 {
		t.Fatalf("meter %+v: the body was read, or retried", got)
	}
}

// TestTheLoaderTakesSpooledFilesAndBatchesLargeDaysByBytes: the loader
// hands each ingester the files a source streamed to the spool, linked
// under their names (a filing's in its folder) and dated by their
// retrieval, never a body held in memory; the prices are read as one
// batch, while 13F submissions and filing folders go in the ingesters'
// batches bounded in bytes. A sync used to load every dataset as one
// batch, so an EDGAR day of 40 large 13F filings was parsed whole.
func TestTheLoaderTakesSpooledFilesAndBatchesLargeDaysByBytes(t *testing.T) {
	spool := replay.NewSpool(t, 1<<30)
	at := time.Date(2025, 6, 18, 16, 0, 0, 0, time.UTC)
	spooled := func(ds, name, folder string) ports.SourceFile {
		p, err := os.CreateTemp(spool.Dir(), "*-"+name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = p.WriteString(name)
		_ = p.Close()
		return ports.SourceFile{Dataset: ds, Name: name, Folder: folder, Path: p.Name(), Spooled: true, RetrievedAt: at}
	}
	oneBatch := map[string]bool{}
	handed := map[string][]string{}
	var index []byte
	record := func(ds string) Ingester {
		return Ingester{Dataset: ds, Load: func(_ context.Context, files *ingest.Files) (ingest.Outcome, error) {
			oneBatch[ds], handed[ds] = files.OneBatch, files.Names
			if ds == "us_filing_indexes" {
				index, _ = os.ReadFile(files.Names[0] + "/index.json")
			}
			for _, n := range files.Names {
				st, err := os.Stat(n)
				if err != nil || (!st.IsDir() && !st.ModTime().Equal(at)) {
					t.Errorf("%s handed %s: %v, %v", ds, n, st, err)
				}
			}
			return ingest.Outcome{Read: len(files.Names)}, nil
		}}
	}
	l := &ingestLoader{byName: map[string]Ingester{}}
	for _, ds := range []string{"india_prices", "us_security_fund_holders", "us_filing_indexes"} {
		l.byName[ds] = record(ds)
	}
	files := []ports.SourceFile{
		spooled("india_prices", "BhavCopy.csv.zip", ""),
		spooled("us_security_fund_holders", "0001816616-24-000001.txt", ""),
		spooled("us_filing_indexes", "index.json", "320193/000032019324000123"),
		spooled("us_filing_indexes", "aapl-20240928.htm", "320193/000032019324000123"),
	}
	if _, err := l.Load(ports.WithSpool(t.Context(), spool), files); err != nil {
		t.Fatal(err)
	}
	if !oneBatch["india_prices"] || oneBatch["us_security_fund_holders"] || oneBatch["us_filing_indexes"] {
		t.Fatalf("one batch by dataset: %v", oneBatch)
	}
	folder := handed["us_filing_indexes"]
	if len(folder) != 1 || !strings.HasPrefix(folder[0], spool.Dir()) || !strings.HasSuffix(folder[0], "us_filing_indexes/320193/000032019324000123") {
		t.Fatalf("the filing handed as %v, not its folder in the spool", folder)
	}
	if string(index) != "index.json" {
		t.Fatalf("the folder's index.json holds %q", index)
	}
}
