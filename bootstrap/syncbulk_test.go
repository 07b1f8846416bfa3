package bootstrap

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/edgarsource"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// bulkServer serves EDGAR with a companyfacts.zip built from the sample's
// real companyfacts at the SEC's path.
func bulkServer(t *testing.T) *replay.Server {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Add(edgarsource.BulkPath, replay.CompanyFactsZip(t))
	return srv
}

// TestSyncBulkBackfillsEDGAR loads the archive: every filer in it is
// stored; a second run asks if it changed, is answered 304 and loads
// nothing.
func TestSyncBulkBackfillsEDGAR(t *testing.T) {
	srv := bulkServer(t)
	r := newEDGARRig(t, srv, testSECUserAgent)
	o, err := r.syncer.Bulk(t.Context(), edgarsource.Name)
	if err != nil || o.NotModified || o.Files != 2 || o.Rows == 0 {
		t.Fatalf("bulk: %+v, %v", o, err)
	}
	for _, cik := range []string{"0000320193", "0000789019", "0001045810"} {
		if c, err := r.fin.Company(t.Context(), cik); err != nil || len(c.Facts) == 0 {
			t.Fatalf("CIK %s after the bulk load: %d facts, %v", cik, len(c.Facts), err)
		}
	}
	st, err := r.states.State(t.Context(), sourcesync.BulkCheckpoint(edgarsource.Name))
	if err != nil || st.ETag == "" || st.Rows != int64(o.Rows) {
		t.Fatalf("bulk checkpoint %+v, %v", st, err)
	}
	again, err := r.syncer.Bulk(t.Context(), edgarsource.Name)
	reqs := srv.Requests()
	if err != nil || !again.NotModified || again.Rows != 0 || !reqs[len(reqs)-1].Conditional {
		t.Fatalf("second bulk run: %+v, %v", again, err)
	}
}

// TestSyncBulkRefusesATruncatedArchive: an archive served cut short (as
// if whole) is refused before anything is written, and the next run
// loads it.
func TestSyncBulkRefusesATruncatedArchive(t *testing.T) {
	srv := bulkServer(t)
	srv.Fail(edgarsource.BulkPath, replay.Truncated)
	r := newEDGARRig(t, srv, testSECUserAgent)
	if _, err := r.syncer.Bulk(t.Context(), edgarsource.Name); !errors.Is(err, ports.ErrSourceFailed) {
		t.Fatalf("truncated archive: %v", err)
	}
	if _, err := r.fin.Company(t.Context(), "0000320193"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("a company stored from a truncated archive: %v", err)
	}
	st, err := r.states.State(t.Context(), sourcesync.BulkCheckpoint(edgarsource.Name))
	if err != nil || st.ETag != "" || st.LastError == "" {
		t.Fatalf("checkpoint after the refusal: %+v, %v", st, err)
	}
	if o, err := r.syncer.Bulk(t.Context(), edgarsource.Name); err != nil || o.NotModified || o.Rows == 0 {
		t.Fatalf("next run: %+v, %v", o, err)
	}
	if c, err := r.fin.Company(t.Context(), "0000320193"); err != nil || len(c.Facts) == 0 {
		t.Fatalf("Apple after the next run: %v", err)
	}
}

// TestSyncBulkBoundsTheArchive: an archive over QUARRY_INGEST_MAX_FILE_BYTES
// is refused and nothing is stored.
func TestSyncBulkBoundsTheArchive(t *testing.T) {
	srv := bulkServer(t)
	cfg := Config{IngestMaxFileBytes: 1024, Sync: SyncConfig{SECUserAgent: testSECUserAgent, SECBaseURL: srv.URL,
		SECDataBaseURL: srv.URL, NSEBaseURL: srv.URL, RetryBackoff: time.Millisecond}}
	r := &edgarRig{}
	startSync(t, cfg, &r.syncer, &r.fin, &r.funds, &r.states, &r.filed, &r.secs)
	if _, err := r.syncer.Bulk(t.Context(), edgarsource.Name); !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "larger than 1024") {
		t.Fatalf("archive over the bound: %v", err)
	}
	if _, err := r.fin.Company(t.Context(), "0000320193"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("a company stored from a refused archive: %v", err)
	}
}
