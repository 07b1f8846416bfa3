package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/adapters/edgarfiling"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// sampleRetrievedAt is when the bundled filing excerpts were taken from
// their sources; embedded files carry no modification time to say it.
var sampleRetrievedAt = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)

func init() {
	register(wiring{
		name:    string(dataset.USFilingIndexes),
		alias:   "us-filings",
		fills:   []dataset.ID{dataset.USFilingIndexes, dataset.USSearch, dataset.AskRetrieval},
		sources: "EDGAR filing folders: index.json, the filing's files and the company's submissions JSON",
		serve:   usFilings,
		stores:  usFilingStores,
		// Filing folders are hashed file by file as they are read; they
		// draw no bar.
		ingester: ingester(func(s filingStores) func(context.Context, *IngestFiles) (int, error) {
			return func(ctx context.Context, files *IngestFiles) (int, error) {
				return ingestUSFilings(ctx, s.FilingStore, s.SectionStore, files.names())
			}
		}),
	})
}

// filingStores are the two ports of the US filings store.
type filingStores struct {
	fx.In
	ports.FilingStore
	ports.SectionStore
}

// usFilings wires the US filing index and filing-text search: the filing
// and section stores (memory, or MongoDB with the sections behind a read
// cache), the bleve index, the use case,
// its probes and handlers, and a start hook that loads the sample when
// asked and then builds the search index from the stored sections.
func usFilings(cfg Config) fx.Option {
	return fx.Options(
		usFilingStores(cfg),
		documentCache(cfg, func(s ports.SectionStore, c *readcache.Cache) ports.SectionStore {
			return usfilings.NewSectionCache(s, c)
		}),
		searchIndex(cfg, "sections", bleveadapter.New, bleveadapter.Open, new(ports.SectionIndex)),
		fx.Provide(
			usfilings.New,
			probe((*usfilings.Service).IndexProbe),
			probe((*usfilings.Service).SearchProbe),
			handlers(httpadapter.USFilingHandlers),
		),
		fx.Invoke(func(lc fx.Lifecycle, f *usfilings.Service, log *zap.Logger) {
			lc.Append(fx.StartHook(func(ctx context.Context) error { return startUSFilings(ctx, cfg, f, log) }))
			if cfg.onMongo() {
				refreshSearch(lc, cfg.MongoRefresh, f, log)
			}
		}),
	)
}

// refreshSearch looks every period for sections that `quarry ingest` wrote
// to the shared store since it last looked, and indexes those in the
// background, from start until stop. The
// period is the one the document caches keep, so newly ingested data of
// every kind is served within it.
func refreshSearch(lc fx.Lifecycle, every time.Duration, f *usfilings.Service, log *zap.Logger) {
	periodic(lc, every, func(ctx context.Context) {
		n, err := f.Refresh(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("US filing search index not refreshed", zap.Error(err))
		case n > 0:
			log.Info("US filing sections indexed", zap.Int("sections", n))
		}
	})
}

func usFilingStores(cfg Config) fx.Option {
	as := []fx.Annotation{fx.As(new(ports.FilingStore)), fx.As(new(ports.SectionStore))}
	if !cfg.onMongo() {
		return fx.Provide(fx.Annotate(memory.NewFilings, as...))
	}
	return fx.Provide(fx.Annotate(mongo.NewFilings, as...))
}

func startUSFilings(ctx context.Context, cfg Config, f *usfilings.Service, log *zap.Logger) error {
	if cfg.samples(string(dataset.USFilingIndexes)) {
		filings, sections, err := LoadUSFilingsSample()
		if err != nil {
			return fmt.Errorf("load US filings sample: %w", err)
		}
		if err := f.Store(ctx, filings, sections); err != nil {
			return fmt.Errorf("store US filings sample: %w", err)
		}
	}
	n, err := f.Refresh(ctx)
	if err != nil {
		return fmt.Errorf("build the US filing search index: %w", err)
	}
	held, err := f.Indexed(ctx)
	if err != nil {
		return fmt.Errorf("count the US filing search index: %w", err)
	}
	log.Info("US filing search index ready", zap.Int64("sections", held), zap.Int("newly_indexed", n))
	return nil
}

// LoadUSFilingsSample reads every bundled filing folder.
func LoadUSFilingsSample() ([]filing.Filing, []filing.Section, error) {
	entries, err := fs.ReadDir(sampledata.USFilings, sampledata.USFilingsDir)
	if err != nil {
		return nil, nil, err
	}
	var srcs []filingFolder
	for _, e := range entries {
		dir := path.Join(sampledata.USFilingsDir, e.Name())
		sub, err := fs.Sub(sampledata.USFilings, dir)
		if err != nil {
			return nil, nil, err
		}
		srcs = append(srcs, filingFolder{label: dir, fsys: sub, retrievedAt: sampleRetrievedAt, excerpts: sampledata.USFilingsExcerpts[e.Name()]})
	}
	return loadFilingFolders(srcs)
}

// filingFolder is one downloaded filing to load.
type filingFolder struct {
	label       string
	fsys        fs.FS
	retrievedAt time.Time
	// excerpts are held files known to be trimmed (the bundled sample's
	// only); a user's folder has none.
	excerpts []string
}

// loadFilingFolders parses every folder before anything is written, so a
// bad one leaves the stores as they were.
func loadFilingFolders(folders []filingFolder) ([]filing.Filing, []filing.Section, error) {
	var filings []filing.Filing
	var sections []filing.Section
	for _, d := range folders {
		subs, err := fs.Glob(d.fsys, "CIK*.json")
		if err != nil || len(subs) != 1 {
			return nil, nil, fmt.Errorf("%w: %s: expected one submissions file CIK##########.json next to index.json, found %d", source.ErrBadInput, d.label, len(subs))
		}
		f, secs, err := edgarfiling.LoadFiling(edgarfiling.FilingSource{Label: d.label, Dir: d.fsys, Index: "index.json", Submissions: subs[0], Excerpts: d.excerpts}, d.retrievedAt)
		if err != nil {
			return nil, nil, err
		}
		filings, sections = append(filings, f), append(sections, secs...)
	}
	return filings, sections, nil
}

// ingestUSFilings loads filing folders (each holding index.json, the
// company's submissions JSON and the fetched files; a path to index.json
// names its folder) or, without arguments, the bundled sample. Running
// servers pick the new sections up within Config.MongoRefresh.
func ingestUSFilings(ctx context.Context, fs ports.FilingStore, ss ports.SectionStore, args []string) (int, error) {
	var filings []filing.Filing
	var sections []filing.Section
	var err error
	if len(args) == 0 {
		filings, sections, err = LoadUSFilingsSample()
	} else {
		filings, sections, err = loadFilingArgs(args)
	}
	if err != nil {
		return 0, err
	}
	if err := fs.UpsertFilings(ctx, filings); err != nil {
		return 0, err
	}
	return len(filings) + len(sections), ss.UpsertSections(ctx, sections)
}

// loadFilingArgs reads filing folders from disk; a folder's retrieval time
// is its index.json's modification time, so ingesting it again changes
// nothing.
func loadFilingArgs(args []string) ([]filing.Filing, []filing.Section, error) {
	folders := make([]filingFolder, 0, len(args))
	for _, a := range args {
		dir := a
		if filepath.Base(a) == "index.json" {
			dir = filepath.Dir(a)
		}
		st, err := os.Stat(filepath.Join(dir, "index.json"))
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %s: %w", source.ErrBadInput, dir, errors.Unwrap(err))
		}
		folders = append(folders, filingFolder{label: dir, fsys: os.DirFS(dir), retrievedAt: st.ModTime().UTC().Truncate(time.Millisecond)})
	}
	return loadFilingFolders(folders)
}
