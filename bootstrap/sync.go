package bootstrap

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/edgarsource"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/nsesource"
	"github.com/quarrydata/quarry/adapters/tusharesource"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

// sourceFills lists, by source, the catalog datasets its runs fill: a 503
// on one of them names `quarry sync` beside `quarry ingest`, and the
// catalog shows the source's coverage, last sync and lag on each.
var sourceFills = map[string][]dataset.ID{
	nsesource.Name:   {dataset.IndiaPrices, dataset.IndiaExports},
	edgarsource.Name: {dataset.USFinancials, dataset.USFilingIndexes, dataset.USSearch, dataset.USFundHolders},
	// The listings it fetches too are a snapshot, not a range of days.
	tusharesource.Name: {dataset.ChinaPrices},
}

// syncService wires the sources into the service: their checkpoints, the
// use case, and the schedule when QUARRY_SYNC names sources.
func syncService(cfg Config) fx.Option {
	return fx.Options(syncGraph(cfg), schedule(cfg), coverage(cfg), governJudgments(), governed(cfg), fx.Invoke(func(s *httpadapter.Server, m *sourcesync.Meter) error {
		return s.CollectSources(m)
	}))
}

// coverage makes the datasets of each scheduled source partial while the
// source does not hold the range from QUARRY_SYNC_FROM to the latest day
// due (a schedule's interval ago). Without QUARRY_SYNC_FROM there is no
// range to cover.
func coverage(cfg Config) fx.Option {
	if cfg.Sync.From.IsZero() {
		return fx.Options()
	}
	return fx.Invoke(func(a *usecase.Availability, s *sourcesync.Syncer) {
		for _, src := range cfg.Sync.Sources {
			for _, id := range sourceFills[src] {
				a.Cover(id, func(ctx context.Context) (bool, error) { return s.Current(ctx, src, cfg.Sync.From, cfg.Sync.Every) })
			}
		}
	})
}

// governed makes the datasets only a governed source fills source_required
// on an empty store while the source is not configured: china_prices
// without a Tushare token (china_securities also loads from the
// exchanges' public lists, so it is not governed).
func governed(cfg Config) fx.Option {
	if cfg.Sync.TushareToken != "" {
		return fx.Options()
	}
	return fx.Invoke(func(a *usecase.Availability) {
		a.GovernUntil(dataset.ChinaPrices, notConfigured, tushareRemedy+" and run `quarry sync "+tusharesource.Name+
			" --from YYYY-MM-DD`, or load Tushare daily files with `quarry ingest "+string(dataset.ChinaPrices)+"`")
	})
}

// notConfigured is the probe of a governed source this process's
// configuration leaves off: it stays off until a restart.
func notConfigured(context.Context) (bool, error) { return false, nil }

// syncGraph wires the sources, their checkpoint store and the use case,
// loading what they fetch through the datasets' Ingesters.
// syncGraph wires the sources, their checkpoint store, their leases
// unless PostgreSQL holds them, and the use case, loading what they fetch
// through the datasets' Ingesters.
func syncGraph(cfg Config) fx.Option {
	return fx.Options(
		processLeases(cfg),
		documentStore(cfg,
			func() ports.SyncStates { return memory.NewSyncStates() },
			DocumentStores.SyncStates),
		fx.Provide(sourcesync.NewMeter, newIngestLoader(cfg),
			func(load ports.SourceLoader, states ports.SyncStates, leases ports.SourceLeases, meter *sourcesync.Meter, log *zap.Logger) (*sourcesync.Syncer, error) {
				sources, missing, err := syncSources(cfg, meter, log)
				if err != nil {
					return nil, err
				}
				now := time.Now
				if cfg.Clock != nil {
					now = cfg.Clock
				}
				inboxes, unset, err := syncInboxes(cfg, now, log)
				if err != nil {
					return nil, err
				}
				holder, err := leaseHolder()
				if err != nil {
					return nil, err
				}
				return sourcesync.New(sources, append(missing, unset...), states, load, meter, now, sourcesync.Inboxes(inboxes...),
					sourcesync.Leases(leases, holder, leaseTTL), sourcesync.Fills(sourceFills),
					sourcesync.Spooling(spoolRoot(cfg), runBytes(cfg), EnvSyncMaxRunBytes)), nil
			}),
	)
}

// leaseTTL is how long a source's lease outlives a runner that stops
// renewing it: a node that dies mid-run holds the source no longer.
const leaseTTL = time.Minute

// leaseHolder names this process among the runners sharing the leases:
// its host, its process id and a random part, so that a restarted
// process is another holder.
func leaseHolder() (string, error) {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/%d/%x", host, os.Getpid(), b), nil
}

// processLeases provides the sources' leases where the process is the only
// runner (memory storage, a data directory). With PostgreSQL its module
// provides them, shared by every node.
func processLeases(cfg Config) fx.Option {
	if cfg.PostgresURL != "" {
		return fx.Options()
	}
	return fx.Provide(func() ports.SourceLeases { return memory.NewSourceLeases() })
}

// postgresLeases provides PostgreSQL's leases to `quarry sync`, which
// wires no account stores, when PostgreSQL is configured: a backfill and
// the serving nodes' schedule then never run a source together.
func postgresLeases(cfg Config) fx.Option {
	if cfg.PostgresURL == "" {
		return fx.Options()
	}
	return durableOption(EnvPostgresURL, func(s Storage) fx.Option { return s.SyncLeases(cfg) })
}

// syncSources builds the configured sources, and names those that are not
// with the setting that enables them.
func syncSources(cfg Config, meter *sourcesync.Meter, log *zap.Logger) ([]ports.Source, []sourcesync.Unconfigured, error) {
	nse, err := nsesource.New(nsesource.Config{BaseURL: cfg.Sync.NSEBaseURL, Backoff: cfg.Sync.RetryBackoff,
		MaxFileBytes: maxFileBytes(cfg), Meter: meter, Log: log})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", EnvNSEBaseURL, err)
	}
	sources := []ports.Source{nse}
	var missing []sourcesync.Unconfigured
	for _, build := range []func(Config, *sourcesync.Meter, *zap.Logger) (ports.Source, *sourcesync.Unconfigured, error){edgarSource, tushareSource} {
		src, off, err := build(cfg, meter, log)
		switch {
		case err != nil:
			return nil, nil, err
		case off != nil:
			missing = append(missing, *off)
		default:
			sources = append(sources, src)
		}
	}
	return sources, missing, nil
}

// edgarSource builds the edgar source, off without the SEC User-Agent.
func edgarSource(cfg Config, meter *sourcesync.Meter, log *zap.Logger) (ports.Source, *sourcesync.Unconfigured, error) {
	if cfg.Sync.SECUserAgent == "" {
		return nil, &sourcesync.Unconfigured{Name: edgarsource.Name, Remedy: "set " + EnvSECUserAgent +
			" to who fetches and a contact e-mail address (Example Corp ops@example.com), as the SEC's fair-access rules require"}, nil
	}
	edgar, err := edgarsource.New(edgarsource.Config{UserAgent: cfg.Sync.SECUserAgent, BaseURL: cfg.Sync.SECBaseURL,
		DataBaseURL: cfg.Sync.SECDataBaseURL, Backoff: cfg.Sync.RetryBackoff, MaxFileBytes: maxFileBytes(cfg), Meter: meter, Log: log})
	if err != nil {
		return nil, nil, fmt.Errorf("%s, %s, %s: %w", EnvSECUserAgent, EnvSECBaseURL, EnvSECDataBaseURL, err)
	}
	return edgar, nil, nil
}

// maxFileBytes bounds a file a source streams to disk (a day's archive,
// a submission, the SEC's bulk archive) as `quarry ingest` bounds a file:
// by QUARRY_INGEST_MAX_FILE_BYTES, else its default.
func maxFileBytes(cfg Config) int64 {
	if cfg.IngestMaxFileBytes > 0 {
		return cfg.IngestMaxFileBytes
	}
	return ingest.DefaultMaxFileBytes
}

// runBytes bounds what one run of a source fetches: QUARRY_SYNC_MAX_RUN_BYTES,
// else its default.
func runBytes(cfg Config) int64 {
	if cfg.Sync.MaxRunBytes > 0 {
		return cfg.Sync.MaxRunBytes
	}
	return sourcesync.DefaultRunBytes
}

// spoolName is the folder, in the data directory or else the system's
// temporary directory, that holds the spool of each run of a source.
const spoolName = "quarry-sync"

// spoolRoot is where each run of a source writes what it fetches: in the
// data directory when there is one (a disk the operator sized, never a
// memory-backed /tmp), else in the system's temporary directory.
func spoolRoot(cfg Config) string {
	if cfg.Sync.SpoolDir != "" {
		return cfg.Sync.SpoolDir
	}
	if cfg.DataDir != "" {
		return filepath.Join(cfg.DataDir, spoolName)
	}
	return filepath.Join(os.TempDir(), spoolName)
}

// tushareRemedy is what enables the tushare source.
const tushareRemedy = "set " + EnvTushareToken

// tushareSource builds the tushare source, off without a token.
func tushareSource(cfg Config, meter *sourcesync.Meter, log *zap.Logger) (ports.Source, *sourcesync.Unconfigured, error) {
	if cfg.Sync.TushareToken == "" {
		return nil, &sourcesync.Unconfigured{Name: tusharesource.Name, Remedy: tushareRemedy}, nil
	}
	src, err := tusharesource.New(tusharesource.Config{Token: cfg.Sync.TushareToken, BaseURL: cfg.Sync.TushareBaseURL,
		PerMinute: cfg.Sync.TusharePerMinute, Window: cfg.Sync.TushareWindow, Backoff: cfg.Sync.RetryBackoff, Meter: meter, Log: log})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", EnvTushareBaseURL, err)
	}
	return src, nil, nil
}

// ingestLoader loads what a source fetched through the ingest path: the
// files are laid out in a directory of their own in the run's spool, by
// name and dated by their retrieval, each in its folder when it has one
// (a filing's), and handed to their dataset's Ingester. The prices, whose
// runs are bounded in days, are read whole before anything is written;
// 13F submissions and filing folders, a day of which can weigh
// gigabytes, are written in the ingester's batches bounded in bytes.
type ingestLoader struct {
	byName   map[string]Ingester
	maxBytes int64
}

// newIngestLoader builds the loader from every dataset's Ingester.
func newIngestLoader(cfg Config) func(ingesterGroup) ports.SourceLoader {
	return func(in ingesterGroup) ports.SourceLoader {
		return &ingestLoader{byName: in.byName(), maxBytes: cfg.IngestMaxFileBytes}
	}
}

// Load ingests files, dataset by dataset, and returns the records read.
func (l *ingestLoader) Load(ctx context.Context, files []ports.SourceFile) (int, error) {
	if len(files) == 0 {
		return 0, nil
	}
	dir, err := os.MkdirTemp(spoolDir(ctx), "quarry-load-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	byDataset := map[string][]string{}
	for _, f := range files {
		in := f.Path // an inbox's delivery, read where it lies
		if in == "" || f.Spooled {
			var err error
			if in, err = writeFetched(dir, f); err != nil {
				return 0, err
			}
		}
		if !slices.Contains(byDataset[f.Dataset], in) {
			byDataset[f.Dataset] = append(byDataset[f.Dataset], in)
		}
	}
	read := 0
	for _, ds := range slices.Sorted(maps.Keys(byDataset)) {
		ing, ok := l.byName[ds]
		if !ok {
			return read, fmt.Errorf("no ingester for dataset %s", ds)
		}
		got, err := ing.Load(ctx, &ingest.Files{Names: byDataset[ds], MaxBytes: l.maxBytes, OneBatch: !slices.Contains(batchedBySize, ds)})
		read += got.Read
		if err != nil {
			return read, fmt.Errorf("ingest %s: %w", ds, err)
		}
	}
	return read, nil
}

// batchedBySize are the datasets a sync writes in the ingester's batches
// bounded in bytes rather than one batch a load: a day of 13F submissions
// or of filings can weigh gigabytes. Readers then see such a day batch by
// batch, each filing whole; a day stopped midway is fetched and written
// again by the next run, which changes nothing of the batches written.
var batchedBySize = []string{string(dataset.USFundHolders), string(dataset.USFilingIndexes)}

// spoolDir is the run's spool in ctx, or the system's temporary
// directory without one.
func spoolDir(ctx context.Context) string {
	if sp := ports.SpoolFrom(ctx); sp != nil {
		return sp.Dir()
	}
	return ""
}

// writeFetched lays a fetched file out under dir, in its dataset's
// directory and its folder if it has one, its modification time its
// retrieval, and returns what the dataset's reader is handed: the file,
// or its folder. A file in the spool is linked there, not copied.
func writeFetched(dir string, f ports.SourceFile) (string, error) {
	in := filepath.Join(dir, f.Dataset)
	if f.Folder != "" {
		if !filepath.IsLocal(f.Folder) {
			return "", fmt.Errorf("%s: folder %q is not a local path", f.URL, f.Folder)
		}
		in = filepath.Join(in, f.Folder)
	}
	name := filepath.Join(in, filepath.Base(f.Name))
	if f.Folder == "" {
		in = name
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return "", err
	}
	if err := place(name, f); err != nil {
		return "", err
	}
	return in, os.Chtimes(name, f.RetrievedAt, f.RetrievedAt)
}

// place writes f at name: its body, or its spooled file linked (a file
// in a spool on another file system than dir is copied).
func place(name string, f ports.SourceFile) error {
	if !f.Spooled {
		return os.WriteFile(name, f.Body, 0o600)
	}
	os.Remove(name) // a file of an earlier day of the batch, replaced as a body is
	if os.Link(f.Path, name) == nil {
		return nil
	}
	src, err := os.Open(f.Path)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

// schedule runs the sources QUARRY_SYNC names every QUARRY_SYNC_EVERY,
// from start until stop, one source after the other.
func schedule(cfg Config) fx.Option {
	if len(cfg.Sync.Sources) == 0 {
		return fx.Options()
	}
	return fx.Invoke(func(lc fx.Lifecycle, s *sourcesync.Syncer, log *zap.Logger) error {
		if slices.Contains(cfg.Sync.Sources, judgmentsInbox) {
			return fmt.Errorf("%s names %s: %w", EnvSync, judgmentsInbox, errInboxNotServed)
		}
		picked, err := s.Pick(cfg.Sync.Sources)
		if err != nil {
			return fmt.Errorf("%s: %w", EnvSync, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		lc.Append(fx.Hook{
			OnStart: func(context.Context) error {
				go func() {
					defer close(done)
					runSchedule(ctx, s, picked, sourcesync.Range{Since: cfg.Sync.From}, cfg.Sync.Every, log)
				}()
				return nil
			},
			OnStop: func(stop context.Context) error {
				cancel()
				select {
				case <-done:
					return nil
				case <-stop.Done():
					return stop.Err()
				}
			},
		})
		return nil
	})
}

// runSchedule runs each source now and then every interval until ctx ends.
func runSchedule(ctx context.Context, s *sourcesync.Syncer, sources []ports.Source, r sourcesync.Range, every time.Duration, log *zap.Logger) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		for _, src := range sources {
			o := s.Run(ctx, src, r)
			logOutcome(log, o)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func logOutcome(log *zap.Logger, o sourcesync.Outcome) {
	fields := []zap.Field{zap.String("source", o.Source), zap.Int("days", o.Days), zap.Int("holidays", o.Holidays), zap.Int("missing", o.Missing),
		zap.Int("files", o.Files), zap.Int("rows", o.Rows)}
	if errors.Is(o.Err, sourcesync.ErrLeaseHeld) {
		log.Info("source skipped: another node runs it; this one serves what it writes", zap.String("source", o.Source))
		return
	}
	if o.Err != nil && !errors.Is(o.Err, context.Canceled) {
		log.Warn("source sync stopped; the next run resumes at the first day not held", append(fields, zap.Error(o.Err))...)
		return
	}
	log.Info("source synced", fields...)
}

// WithSyncer wires the ingesters and the sources on the configured
// document store, with their leases, and runs fn with the use case.
func WithSyncer(ctx context.Context, cfg Config, fn func(*sourcesync.Syncer) error) error {
	var s *sourcesync.Syncer
	return withApp(ctx, cfg, func() error { return fn(s) }, syncCommand(cfg, &s))
}

// syncCommand is the graph of `quarry sync`: the ingesters, the sources and
// their leases, populating s, with the data directory's documents indexed
// by id as for `quarry ingest`.
func syncCommand(cfg Config, s **sourcesync.Syncer) fx.Option {
	return fx.Options(ingestion(cfg), syncGraph(cfg), postgresLeases(cfg), fx.Populate(s), indexDocumentIDs(cfg, writerIndexEvery))
}
