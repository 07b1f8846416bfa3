package bootstrap_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/fx"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// TestIngestIndexesSearchForTheFirstStart ingests the US filings and the
// judgments into a fresh data directory, as an operator's first `quarry
// ingest` does: each run brings the search index in the data directory up
// to date with what it wrote. The first `quarry serve` after it then
// resumes both indexes and indexes nothing, before /readyz or after it,
// and search answers from what the ingest indexed. Before, that first
// start read and indexed every section and judgment before /readyz
// (32.6 s at 1% of the universe).
func TestIngestIndexesSearchForTheFirstStart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	env := map[string]string{bootstrap.EnvDataDir: dir, bootstrap.EnvHTTPAddr: "127.0.0.1:0"}
	cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ingestSamples(t, cfg, map[string]string{"us_filing_indexes": "sections", "india_judgments": "judgments"})

	// As the operator's `quarry serve` configures itself on the data
	// directory ingest wrote: no samples.
	if cfg, err = bootstrap.LoadConfig(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	var sections, judgments atomic.Int64
	var got struct {
		fx.In
		Filings   *usfilings.Service
		Judgments *indiajudgments.Service
		Server    *httpadapter.Server
	}
	start(t, cfg,
		fx.Decorate(func(x ports.SectionIndex) ports.SectionIndex { return countedSections{x, &sections} }),
		fx.Decorate(func(x ports.JudgmentIndex) ports.JudgmentIndex { return countedJudgments{x, &judgments} }),
		fx.Populate(&got))
	if n, m := sections.Load(), judgments.Load(); n != 0 || m != 0 {
		t.Errorf("the first start indexed %d sections and %d judgments before it was ready; want none, ingest indexed them", n, m)
	}
	ctx := context.Background()
	// Each Refresh waits for the one catching up in the background.
	if n, err := got.Filings.Refresh(ctx); n != 0 || err != nil {
		t.Errorf("catching up after start indexed %d sections (%v); want none", n, err)
	}
	if n, err := got.Judgments.Refresh(ctx); n != 0 || err != nil {
		t.Errorf("catching up after start indexed %d judgments (%v); want none", n, err)
	}

	_, key := signIn(t, got.Server)
	for route, query := range map[string]string{"/us/search": "smartphone", "/india/search": "Cenvat Credit place of removal"} {
		code, body := serveOnce(got.Server, "POST", route, `{"query":"`+query+`"}`, key)
		var res struct{ Results []json.RawMessage }
		if err := json.Unmarshal([]byte(body), &res); err != nil || code != 200 || len(res.Results) == 0 {
			t.Errorf("POST %s %q = %d %s; want what ingest indexed", route, query, code, body)
		}
	}
}

// ingestSamples runs `quarry ingest` of each dataset's bundled sample on
// cfg, in one run, and checks that each says it indexed what it holds in
// the data directory's search indexes.
func ingestSamples(t *testing.T, cfg bootstrap.Config, holds map[string]string) {
	t.Helper()
	err := bootstrap.WithIngesters(context.Background(), cfg, func(by map[string]bootstrap.Ingester) error {
		for name, what := range holds {
			got, err := by[name].Load(context.Background(), &ingest.Files{})
			if err != nil {
				return err
			}
			want := what + " indexed for search in " + filepath.Join(cfg.DataDir, "indexes")
			if got.Records == 0 || !strings.HasSuffix(got.Indexed, want) || strings.HasPrefix(got.Indexed, "0 ") {
				t.Errorf("ingest %s: %+v; want records written and %q", name, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestIngestLeavesAServersIndexDirectory: with QUARRY_INDEX_DIR held by a
// running server, `quarry ingest` writes as before and leaves the index
// to that server, which catches up with what it wrote, instead of failing
// on the directory's lock.
func TestIngestLeavesAServersIndexDirectory(t *testing.T) {
	indexes := filepath.Join(t.TempDir(), "indexes")
	served, err := bootstrap.LoadConfig(func(k string) string {
		return map[string]string{bootstrap.EnvDataDir: filepath.Join(t.TempDir(), "served"), bootstrap.EnvIndexDir: indexes, bootstrap.EnvHTTPAddr: "127.0.0.1:0"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	start(t, served)
	cfg, err := bootstrap.LoadConfig(func(k string) string {
		return map[string]string{bootstrap.EnvDataDir: t.TempDir(), bootstrap.EnvIndexDir: indexes}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	err = bootstrap.WithIngesters(context.Background(), cfg, func(by map[string]bootstrap.Ingester) error {
		got, err := by["us_filing_indexes"].Load(context.Background(), &ingest.Files{})
		if got.Records == 0 || got.Indexed != "" {
			t.Errorf("ingest beside a server: %+v; want records written and none indexed", got)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSyncIndexesSearchForTheFirstStart runs `quarry sync edgar` over the
// day Microsoft filed its 10-K into a fresh data directory: the sync
// indexes the filing's sections as it stores them, so the first start
// indexes none, and search finds the filing.
func TestSyncIndexesSearchForTheFirstStart(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	env := map[string]string{bootstrap.EnvDataDir: filepath.Join(t.TempDir(), "data"), bootstrap.EnvHTTPAddr: "127.0.0.1:0",
		bootstrap.EnvSECUserAgent: "Quarry test ops@example.org", bootstrap.EnvSECBaseURL: srv.URL, bootstrap.EnvSECDataBaseURL: srv.URL}
	cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2025, 7, 30, 0, 0, 0, 0, time.UTC)
	err = bootstrap.WithSyncer(t.Context(), cfg, func(s *sourcesync.Syncer) error {
		_, err := s.Sync(t.Context(), []string{"edgar"}, sourcesync.Range{From: day, To: day})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg.SampleData, cfg.MongoRefresh = false, time.Hour
	var sections atomic.Int64
	var h *httpadapter.Server
	start(t, cfg, fx.Decorate(func(x ports.SectionIndex) ports.SectionIndex { return countedSections{x, &sections} }), fx.Populate(&h))
	if n := sections.Load(); n != 0 {
		t.Errorf("the first start after the sync indexed %d sections; want none", n)
	}
	_, key := signIn(t, h)
	if _, body := serveOnce(h, "POST", "/us/search", `{"query":"productivity and collaboration"}`, key); !strings.Contains(body, "0000950170-25-100235") {
		t.Errorf("search does not find the synced filing: %s", body)
	}
}
