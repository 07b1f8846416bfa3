package bootstrap

import (
	"context"
	"fmt"

	"github.com/quarrydata/quarry/ingest"

	"go.uber.org/fx"
	"go.uber.org/zap"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/judgmentpdf"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

// judgmentIngestDeps are what the judgments' ingester is built from: the
// store and the configuration. The vault key and connection are read from
// the configuration when a run starts, never provided to the graph, so
// the serving process's graph holds no vault type (vaultgraph_test.go); in
// it they are unset, and loading judgment files refuses to start.
type judgmentIngestDeps struct {
	fx.In
	Config Config
	Store  ports.JudgmentStore
}

// indiaJudgments is the India judgments, their PDFs and India search
// slice: the store (memory or MongoDB, read through the shared cache on
// MongoDB), the bleve index, the PDF renderer (each judgment's PDF kept
// once rendered), the use case, its probes, handlers and export
// (india.judgments), and a start hook that loads the sample when asked and
// builds the search index from the store.
func indiaJudgments() wiring {
	stores, served := documents(
		func() ports.JudgmentStore { return memory.NewJudgments() },
		DocumentStores.Judgments,
		func(s ports.JudgmentStore, c *readcache.Cache) ports.JudgmentStore {
			return indiajudgments.NewCache(s, c)
		})
	return wiring{
		name:    string(dataset.IndiaJudgments),
		alias:   "india-judgments",
		fills:   []dataset.ID{dataset.IndiaJudgments, dataset.IndiaSearch},
		sources: "Indian court judgments: a metadata file (JSON lines or CSV: court, case number, parties with roles, judges, decision date, citations, text file) and the text files beside it; needs QUARRY_VAULT_KEY",
		stores:  stores,
		served:  served,
		provide: []any{
			fx.Annotate(judgmentpdf.New, fx.As(new(ports.JudgmentRenderer))),
			indiajudgments.New,
			probe((*indiajudgments.Service).JudgmentsProbe),
			probe((*indiajudgments.Service).SearchProbe),
			handlers(httpadapter.IndiaJudgmentHandlers),
			exportDataset((*indiajudgments.Service).ExportDataset),
		},
		extra: func(cfg Config) fx.Option {
			return fx.Options(
				judgmentIndex(cfg),
				renderCache(cfg, func(r ports.JudgmentRenderer, c *readcache.Cache) ports.JudgmentRenderer {
					return indiajudgments.NewRenderCache(r, c)
				}),
				fx.Invoke(func(lc fx.Lifecycle, u *indiajudgments.Service, w searchWriters, log *zap.Logger) {
					lc.Append(fx.StartHook(func(ctx context.Context) error { return startJudgments(ctx, cfg, u, w.judgments, log) }))
					if cfg.OnMongo() {
						catchingUp(lc, cfg.MongoRefresh, func(ctx context.Context) {
							n, err := w.judgments.refresh(ctx, false, u.Forget, u.Refresh)
							switch {
							case err != nil && ctx.Err() == nil:
								log.Warn("India judgment search index not refreshed", zap.Error(err))
							case n > 0:
								log.Info("India judgments indexed", zap.Int("judgments", n))
							}
						})
					}
				}),
			)
		},
		search: func(name string, cfg Config) fx.Option {
			return fx.Options(judgmentIndex(cfg), fx.Provide(indexingJudgments), searched(name, "judgments", func(w searchWriters) searchWriter { return w.judgments }, (*indiajudgments.Service).Forget, (*indiajudgments.Service).Refresh))
		},
		ingester: skippingIngester(func(d judgmentIngestDeps) func(context.Context, *ingest.Files) (ingest.Outcome, error) {
			return func(ctx context.Context, files *ingest.Files) (ingest.Outcome, error) {
				if files != nil && files.Retokenize {
					return retokenizeJudgments(ctx, d.Config, d.Store)
				}
				return ingestJudgments(ctx, d.Config, d.Store, files.Given())
			}
		}),
	}
}

// judgmentIndex provides the search index of the judgments: the one every
// node shares in PostgreSQL, or bleve's in memory or kept on disk as
// "judgments".
func judgmentIndex(cfg Config) fx.Option {
	if cfg.sharedSearch() {
		return fx.Provide(func(s SharedSearch) ports.JudgmentIndex { return s.Judgments })
	}
	return searchIndex(cfg, "judgments", bleveadapter.NewJudgments, bleveadapter.OpenJudgments, new(ports.JudgmentIndex))
}

// indexingJudgments is the judgments' use case as `quarry ingest` needs
// it: to refresh the search index only, so its clock is the system's.
func indexingJudgments(s ports.JudgmentStore, x ports.JudgmentIndex) *indiajudgments.Service {
	return indiajudgments.New(s, x, judgmentpdf.New(), usecase.SystemClock)
}

func startJudgments(ctx context.Context, cfg Config, u *indiajudgments.Service, w searchWriter, log *zap.Logger) error {
	if cfg.samples(string(dataset.IndiaJudgments)) {
		js, err := ingest.LoadJudgmentsSample()
		if err != nil {
			return fmt.Errorf("load India judgments sample: %w", err)
		}
		if _, err := u.Store(ctx, js); err != nil {
			return fmt.Errorf("store India judgments sample: %w", err)
		}
	}
	resumed, err := u.Resume(ctx)
	if err != nil {
		return fmt.Errorf("resume the India judgment search index: %w", err)
	}
	n := 0
	if !resumed {
		// As for US filings: a first start builds the index before serving.
		if n, err = w.refresh(ctx, true, u.Forget, u.Refresh); err != nil {
			return fmt.Errorf("build the India judgment search index: %w", err)
		}
	}
	held, err := u.Indexed(ctx)
	if err != nil {
		return fmt.Errorf("count the India judgment search index: %w", err)
	}
	log.Info("India judgment search index ready", zap.Int64("judgments", held), zap.Int("newly_indexed", n), zap.Bool("resumed", resumed))
	return nil
}

// errNoVaultKey refuses to ingest judgment files without the key: nothing
// could be tokenized, and storing names in clear is never the fallback.
var errNoVaultKey = fmt.Errorf("%s is not set: judgments are tokenized with the vault key before anything is stored, so ingesting judgment files needs it (openssl rand -hex 32 makes one; keep it: the same key gives the same tokens)", EnvVaultKey)

// retokenizeJudgments brings the stored judgments up to the current rules
// of tokenization with the vault key, the new tokens' mapping going to the
// vault when QUARRY_VAULT_POSTGRES_URL is set.
func retokenizeJudgments(ctx context.Context, cfg Config, store ports.JudgmentStore) (ingest.Outcome, error) {
	key, err := vaultKey(cfg)
	if err != nil {
		return ingest.Outcome{}, err
	}
	var got ingest.JudgmentCounts
	if cfg.VaultPostgresURL == "" {
		got, err = ingest.RetokenizeJudgments(ctx, key, store, nil)
		note := fmt.Sprintf("%d new tokens not kept: %s is not set, so no vault holds what they replaced", got.Tokens, EnvVaultURL)
		return ingest.Outcome{Read: got.Read, Records: got.Records, Skipped: note}, err
	}
	err = WithVault(ctx, cfg, func(v ports.Vault, _ string) error {
		got, err = ingest.RetokenizeJudgments(ctx, key, store, v)
		return err
	})
	return ingest.Outcome{Read: got.Read, Records: got.Records, Skipped: fmt.Sprintf("%d new tokens in the vault", got.Tokens)}, err
}

// vaultKey is the key judgments are tokenized with, or errNoVaultKey.
func vaultKey(cfg Config) (pii.Key, error) {
	if len(cfg.VaultKey) == 0 {
		return pii.Key{}, errNoVaultKey
	}
	return pii.NewKey(cfg.VaultKey)
}

// ingestJudgments loads metadata files and their text files, or, without
// arguments, the bundled tokenized sample. Every file is read and every
// judgment checked before anything is written, so a bad file writes
// nothing; then the judgments are tokenized and written in batches
// (ingest.IngestJudgmentFiles), each batch's token mapping going to the
// vault (when QUARRY_VAULT_POSTGRES_URL is set) before its documents, so
// every token served can be revealed. Running servers pick the judgments
// up within Config.MongoRefresh.
func ingestJudgments(ctx context.Context, cfg Config, store ports.JudgmentStore, args []string) (ingest.Outcome, error) {
	if len(args) == 0 {
		js, err := ingest.LoadJudgmentsSample()
		if err != nil {
			return ingest.Outcome{}, err
		}
		n, err := store.UpsertJudgments(ctx, js)
		return ingest.Outcome{Read: len(js), Records: n}, err
	}
	key, err := vaultKey(cfg)
	if err != nil {
		return ingest.Outcome{}, err
	}
	var got ingest.JudgmentCounts
	if cfg.VaultPostgresURL == "" {
		got, err = ingest.IngestJudgmentFiles(ctx, key, store, nil, args)
		note := fmt.Sprintf("%d tokens not kept: %s is not set, so no vault holds what they replaced", got.Tokens, EnvVaultURL)
		return ingest.Outcome{Read: got.Read, Records: got.Records, Skipped: note}, err
	}
	err = WithVault(ctx, cfg, func(v ports.Vault, _ string) error {
		got, err = ingest.IngestJudgmentFiles(ctx, key, store, v, args)
		return err
	})
	return ingest.Outcome{Read: got.Read, Records: got.Records, Skipped: fmt.Sprintf("%d tokens in the vault", got.Tokens)}, err
}
