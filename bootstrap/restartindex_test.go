package bootstrap_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// countedSections counts the sections given to the index it wraps.
type countedSections struct {
	ports.SectionIndex
	n *atomic.Int64
}

func (c countedSections) Index(ctx context.Context, s []filing.Section) error {
	c.n.Add(int64(len(s)))
	return c.SectionIndex.Index(ctx, s)
}

// countedJudgments counts the judgments given to the index it wraps.
type countedJudgments struct {
	ports.JudgmentIndex
	n *atomic.Int64
}

func (c countedJudgments) Index(ctx context.Context, js []judgment.Judgment) error {
	c.n.Add(int64(len(js)))
	return c.JudgmentIndex.Index(ctx, js)
}

// indexRun is what one start of the service on a data directory indexed,
// and what its search indexes then held.
type indexRun struct {
	sections, judgments           int64
	heldSections, heldJudgments   int64
	refreshedSections, refreshedJ int
}

// startIndexing starts the service on cfg with its search indexes counted,
// refreshes both indexes once more after start (each Refresh waits for
// one running in the background) and stops it.
func startIndexing(t *testing.T, cfg bootstrap.Config) indexRun {
	t.Helper()
	var sections, judgments atomic.Int64
	var got struct {
		fx.In
		Filings   *usfilings.Service
		Judgments *indiajudgments.Service
	}
	app := fx.New(fx.NopLogger, bootstrap.Options(cfg, zap.NewNop()),
		fx.Decorate(func(x ports.SectionIndex) ports.SectionIndex { return countedSections{x, &sections} }),
		fx.Decorate(func(x ports.JudgmentIndex) ports.JudgmentIndex { return countedJudgments{x, &judgments} }),
		fx.Populate(&got))
	ctx := context.Background()
	if err := app.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := app.Stop(ctx); err != nil {
			t.Error(err)
		}
	}()
	var run indexRun
	var err error
	if run.refreshedSections, err = got.Filings.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if run.refreshedJ, err = got.Judgments.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if run.heldSections, err = got.Filings.Indexed(ctx); err != nil {
		t.Fatal(err)
	}
	if run.heldJudgments, err = got.Judgments.Indexed(ctx); err != nil {
		t.Fatal(err)
	}
	run.sections, run.judgments = sections.Load(), judgments.Load()
	return run
}

// TestRestartResumesSearchIndexes starts the service twice on one data
// directory, with the search indexes in QUARRY_INDEX_DIR beside it: the
// first start indexes the samples' sections and judgments there, the
// restart resumes both indexes from their checkpoints and indexes nothing
// again, at start or in the refresh that catches up after it.
func TestRestartResumesSearchIndexes(t *testing.T) {
	dir, indexes := filepath.Join(t.TempDir(), "data"), filepath.Join(t.TempDir(), "indexes")
	cfg, err := bootstrap.LoadConfig(func(k string) string {
		return map[string]string{bootstrap.EnvDataDir: dir, bootstrap.EnvIndexDir: indexes, bootstrap.EnvHTTPAddr: "127.0.0.1:0"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	first := startIndexing(t, cfg)
	if first.sections == 0 || first.judgments == 0 || first.heldSections == 0 || first.heldJudgments == 0 {
		t.Fatalf("first start: %+v; want the samples indexed", first)
	}
	for _, name := range []string{"sections", "judgments"} {
		if _, err := os.Stat(filepath.Join(indexes, name)); err != nil {
			t.Errorf("the %s index is not kept in %s: %v", name, bootstrap.EnvIndexDir, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "indexes")); err == nil {
		t.Errorf("the data directory holds indexes beside %s", bootstrap.EnvIndexDir)
	}

	cfg.SampleData = false // as LoadConfig decides for a data directory that holds documents
	again := startIndexing(t, cfg)
	if again.sections != 0 || again.judgments != 0 || again.refreshedSections != 0 || again.refreshedJ != 0 {
		t.Errorf("restart indexed %d sections and %d judgments (refresh: %d, %d); want none, the checkpoints hold them",
			again.sections, again.judgments, again.refreshedSections, again.refreshedJ)
	}
	if again.heldSections != first.heldSections || again.heldJudgments != first.heldJudgments {
		t.Errorf("restart holds %d sections and %d judgments, want %d and %d",
			again.heldSections, again.heldJudgments, first.heldSections, first.heldJudgments)
	}
}
