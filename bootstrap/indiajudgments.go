package bootstrap

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"
	"go.uber.org/zap"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/judgmentfiles"
	"github.com/quarrydata/quarry/adapters/judgmentpdf"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/adapters/postgres/vault"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

func init() {
	register(wiring{
		name:    string(dataset.IndiaJudgments),
		alias:   "india-judgments",
		fills:   []dataset.ID{dataset.IndiaJudgments, dataset.IndiaSearch},
		sources: "Indian court judgments: a metadata file (JSON lines or CSV: court, case number, parties with roles, judges, decision date, citations, text file) and the text files beside it; needs QUARRY_VAULT_KEY",
		serve:   indiaJudgments,
		stores:  judgmentStore,
		ingester: skippingIngester(func(d judgmentIngestDeps) func(context.Context, *IngestFiles) (Ingested, error) {
			return func(ctx context.Context, files *IngestFiles) (Ingested, error) {
				return ingestJudgments(ctx, d.Config, d.Store, files.names())
			}
		}),
	})
}

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

// indiaJudgments wires the India judgments, their PDFs and India search:
// the store (memory or MongoDB, read through the shared cache on MongoDB),
// the bleve index, the PDF renderer (each judgment's PDF kept once
// rendered), the use case, its probes, handlers and export
// (india.judgments), and a start hook that loads the sample when asked and
// builds the search index from the store.
func indiaJudgments(cfg Config) fx.Option {
	return fx.Options(
		judgmentStore(cfg),
		searchIndex(cfg, "judgments", bleveadapter.NewJudgments, bleveadapter.OpenJudgments, new(ports.JudgmentIndex)),
		fx.Provide(
			fx.Annotate(judgmentpdf.New, fx.As(new(ports.JudgmentRenderer))),
			indiajudgments.New,
			probe((*indiajudgments.Service).JudgmentsProbe),
			probe((*indiajudgments.Service).SearchProbe),
			handlers(httpadapter.IndiaJudgmentHandlers),
			exportDataset((*indiajudgments.Service).ExportDataset),
		),
		documentCache(cfg, func(s ports.JudgmentStore, c *readcache.Cache) ports.JudgmentStore {
			return indiajudgments.NewCache(s, c)
		}),
		renderCache(cfg, func(r ports.JudgmentRenderer, c *readcache.Cache) ports.JudgmentRenderer {
			return indiajudgments.NewRenderCache(r, c)
		}),
		fx.Invoke(func(lc fx.Lifecycle, u *indiajudgments.Service, log *zap.Logger) {
			lc.Append(fx.StartHook(func(ctx context.Context) error { return startJudgments(ctx, cfg, u, log) }))
			if cfg.onMongo() {
				periodic(lc, cfg.MongoRefresh, func(ctx context.Context) {
					n, err := u.Refresh(ctx)
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
}

func judgmentStore(cfg Config) fx.Option {
	return documentStore(cfg,
		func() ports.JudgmentStore { return memory.NewJudgments() },
		func(db *mongodrv.Database) ports.JudgmentStore { return mongo.NewJudgments(db) })
}

func startJudgments(ctx context.Context, cfg Config, u *indiajudgments.Service, log *zap.Logger) error {
	if cfg.samples(string(dataset.IndiaJudgments)) {
		js, err := LoadJudgmentsSample()
		if err != nil {
			return fmt.Errorf("load India judgments sample: %w", err)
		}
		if _, err := u.Store(ctx, js); err != nil {
			return fmt.Errorf("store India judgments sample: %w", err)
		}
	}
	n, err := u.Refresh(ctx)
	if err != nil {
		return fmt.Errorf("build the India judgment search index: %w", err)
	}
	held, err := u.Indexed(ctx)
	if err != nil {
		return fmt.Errorf("count the India judgment search index: %w", err)
	}
	log.Info("India judgment search index ready", zap.Int64("judgments", held), zap.Int("newly_indexed", n))
	return nil
}

// LoadJudgmentsSample reads the bundled judgments, tokenized when the
// sample was assembled (sampledata/README.md): they hold tokens only, and
// no mapping to the originals exists.
func LoadJudgmentsSample() ([]judgment.Judgment, error) {
	data, err := fs.ReadFile(sampledata.IndiaJudgments, sampledata.IndiaJudgmentsFile)
	if err != nil {
		return nil, err
	}
	return judgmentfiles.ParseTokenized(sampledata.IndiaJudgmentsFile, data)
}

// errNoVaultKey refuses to ingest judgment files without the key: nothing
// could be tokenized, and storing names in clear is never the fallback.
var errNoVaultKey = fmt.Errorf("%s is not set: judgments are tokenized with the vault key before anything is stored, so ingesting judgment files needs it (openssl rand -hex 32 makes one; keep it: the same key gives the same tokens)", EnvVaultKey)

// ingestJudgments loads metadata files and their text files, or, without
// arguments, the bundled tokenized sample. Every file is read and every
// judgment tokenized before anything is written, so a bad file writes
// nothing; then the token mapping goes to the vault (when
// QUARRY_VAULT_POSTGRES_URL is set) before the documents, so every token
// served can be revealed. Running servers pick the judgments up within
// Config.MongoRefresh.
func ingestJudgments(ctx context.Context, cfg Config, store ports.JudgmentStore, args []string) (Ingested, error) {
	if len(args) == 0 {
		js, err := LoadJudgmentsSample()
		if err != nil {
			return Ingested{}, err
		}
		n, err := store.UpsertJudgments(ctx, js)
		return Ingested{Read: len(js), Records: n}, err
	}
	if len(cfg.VaultKey) == 0 {
		return Ingested{}, errNoVaultKey
	}
	key, err := pii.NewKey(cfg.VaultKey)
	if err != nil {
		return Ingested{}, err
	}
	js, entries, err := tokenizeJudgmentFiles(key, args)
	if err != nil {
		return Ingested{}, err
	}
	note := fmt.Sprintf("%d tokens not kept: %s is not set, so no vault holds what they replaced", len(entries), EnvVaultURL)
	if cfg.VaultPostgresURL != "" {
		err := withVault(ctx, cfg, func(pool *pgxpool.Pool) error { return vault.New(pool).Put(ctx, entries) })
		if err != nil {
			return Ingested{}, fmt.Errorf("write the vault: %w", err)
		}
		note = fmt.Sprintf("%d tokens in the vault", len(entries))
	}
	n, err := store.UpsertJudgments(ctx, js)
	return Ingested{Read: len(js), Records: n, Skipped: note}, err
}

// tokenizeJudgmentFiles reads every metadata file and tokenizes every
// judgment, returning the judgments and the vault entries of all their
// tokens. A metadata file's retrieval time is its modification time.
func tokenizeJudgmentFiles(key pii.Key, metaFiles []string) ([]judgment.Judgment, []pii.Entry, error) {
	var js []judgment.Judgment
	byToken := map[string]pii.Entry{}
	for _, name := range metaFiles {
		st, err := os.Stat(name)
		if err != nil {
			return nil, nil, err
		}
		srcs, err := judgmentfiles.Load(filepath.ToSlash(name), st.ModTime().UTC().Truncate(time.Millisecond), readBounded)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range srcs {
			j, entries, err := judgment.Tokenize(key, s)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %s %s: %w", name, s.Court, s.CaseNumber, err)
			}
			js = append(js, j)
			for _, e := range entries {
				byToken[e.Token] = e
			}
		}
	}
	entries := make([]pii.Entry, 0, len(byToken))
	for _, e := range byToken {
		entries = append(entries, e)
	}
	return js, entries, nil
}

// readBounded reads a metadata or text file whole, refusing one larger
// than source.MaxDocumentBytes before more of it is read.
func readBounded(name string) ([]byte, error) {
	f, err := os.Open(filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return source.ReadAll(name, f, source.MaxDocumentBytes)
}
