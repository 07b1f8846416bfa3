package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/edgarfiling"
	"github.com/quarrydata/quarry/adapters/form13f"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/adapters/securitymaster"
	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// SecuritiesMaster is the name `quarry ingest` takes for the securities
// master the fund-holders lookup resolves identifiers through: the one
// dataset that fills no catalog dataset of its own, so no catalog id names
// it (B66).
const SecuritiesMaster = "us_securities"

func init() {
	register(wiring{
		name:    string(dataset.USFundHolders),
		alias:   "us-holdings",
		fills:   []dataset.ID{dataset.USFundHolders},
		sources: "SEC Form 13F data sets, 13F-HR full submissions, information-table XMLs in their EDGAR folders",
		sample:  sampleOf(loadSampleHoldings),
		serve:   fundHolders,
		stores:  fundHoldingStore,
		ingester: ingester(func(s ports.FundHoldingStore) func(context.Context, *IngestFiles) (int, error) {
			return func(ctx context.Context, files *IngestFiles) (int, error) {
				return ingestUSHoldings(ctx, s, files)
			}
		}),
	})
	// The securities master the holder lookup resolves identifiers
	// through is ingested on its own, into the same store, and its sample
	// is loaded on its own: a test may give holdings files and keep the
	// sample master, or the other way round.
	register(wiring{
		name:    SecuritiesMaster,
		alias:   "us-securities",
		sources: "SEC company_tickers.json plus a cusip,ticker CSV",
		serve:   func(Config) fx.Option { return fx.Options() },
		sample:  sampleOf(loadSampleMaster),
		ingester: ingester(func(s ports.FundHoldingStore) func(context.Context, *IngestFiles) (int, error) {
			return func(ctx context.Context, files *IngestFiles) (int, error) {
				return ingestUSSecurities(ctx, s, files)
			}
		}),
	})
}

// fundHolders wires the funds-holding-a-security dataset: its store (memory
// or MongoDB), use case, availability probe and handler.
func fundHolders(cfg Config) fx.Option {
	return fx.Options(
		fundHoldingStore(cfg),
		documentCache(cfg, func(s ports.FundHoldingStore, c *readcache.Cache) ports.FundHoldingStore {
			return fundholders.NewCache(s, c)
		}),
		fx.Provide(
			fundholders.New,
			probe((*fundholders.Service).Probe),
			handlers(httpadapter.FundHoldersHandlers),
		),
	)
}

func fundHoldingStore(cfg Config) fx.Option {
	return documentStore(cfg,
		func() ports.FundHoldingStore { return memory.NewFundHoldings() },
		func(db *mongodrv.Database) ports.FundHoldingStore { return mongo.NewFundHoldings(db) })
}

// LoadFundHoldersSample loads the bundled securities master and 13F
// filings into s and returns how many filings it loaded.
func LoadFundHoldersSample(ctx context.Context, s ports.FundHoldingStore) (int, error) {
	if _, err := loadSampleMaster(ctx, s); err != nil {
		return 0, err
	}
	return loadSampleHoldings(ctx, s)
}

func loadSampleMaster(ctx context.Context, s ports.FundHoldingStore) (int, error) {
	files := []string{sampledata.FundHoldersTickers, sampledata.FundHoldersCUSIPs}
	return ingestSecuritiesMaster(ctx, s, embeddedOpener(sampledata.FundHolders), files)
}

func loadSampleHoldings(ctx context.Context, s ports.FundHoldingStore) (int, error) {
	return ingestHoldings(ctx, s, embeddedOpener(sampledata.FundHolders), sampledata.FundHoldersFilings)
}

func embeddedOpener(fsys fs.FS) usecase.OpenFile {
	return func(name string) (io.ReadCloser, error) { return fsys.Open(name) }
}

// ingestUSSecurities is `quarry ingest us_securities company_tickers.json cusip_map.csv`:
// the SEC's company_tickers.json and a cusip,ticker CSV, in either order.
// Without files it loads the bundled sample master.
func ingestUSSecurities(ctx context.Context, s ports.FundHoldingStore, files *IngestFiles) (int, error) {
	if files.none() {
		return loadSampleMaster(ctx, s)
	}
	in, err := files.expand(func(string) (bool, error) { return true, nil })
	if err != nil {
		return 0, err
	}
	defer in.close()
	return ingestSecuritiesMaster(ctx, s, in.open, in.names())
}

// form13fSkipped are the files of a Form 13F data set archive (the SEC's
// quarterly <period>_form13f.zip) that holder lookups do not need: its
// other tables, its metadata and its readme.
var form13fSkipped = []string{"OTHERMANAGER.TSV", "OTHERMANAGER2.TSV", "SIGNATURE.TSV", "SUMMARYPAGE.TSV",
	"FORM13F_METADATA.JSON", "FORM13F_README.HTM"}

// form13fEntry is the rule for a Form 13F data set archive: SUBMISSION.tsv,
// COVERPAGE.tsv and INFOTABLE.tsv are read, the data set's other files
// (form13fSkipped) skipped, and anything else refuses the archive, which
// is then not a data set.
func form13fEntry(entry string) (bool, error) {
	base := strings.ToUpper(path.Base(entry))
	switch {
	case base == "SUBMISSION.TSV" || base == "COVERPAGE.TSV" || base == "INFOTABLE.TSV":
		return true, nil
	case slices.Contains(form13fSkipped, base):
		return false, nil
	}
	return false, errors.New("not a file of a Form 13F data set (SUBMISSION.tsv, COVERPAGE.tsv, INFOTABLE.tsv and the tables, metadata and readme beside them)")
}

// ingestUSHoldings is `quarry ingest us_security_fund_holders FILE...` (see
// form13f.ParseFiles for the forms); a Form 13F data set may be given as
// the SEC's zip, read entry by entry without unpacking (form13fEntry).
// Without files it loads the bundled sample filings; their securities come
// from us_securities.
func ingestUSHoldings(ctx context.Context, s ports.FundHoldingStore, files *IngestFiles) (int, error) {
	if files.none() {
		return loadSampleHoldings(ctx, s)
	}
	in, err := files.expand(form13fEntry)
	if err != nil {
		return 0, err
	}
	defer in.close()
	return ingestHoldings(ctx, s, in.open, in.names())
}

func ingestSecuritiesMaster(ctx context.Context, s ports.FundHoldingStore, open usecase.OpenFile, files []string) (int, error) {
	if len(files) != 2 {
		return 0, fmt.Errorf("%w: the securities master takes two files, company_tickers.json and the cusip,ticker CSV", source.ErrBadInput)
	}
	tickers, cusips := files[0], files[1]
	if strings.EqualFold(path.Ext(tickers), ".csv") {
		tickers, cusips = cusips, tickers
	}
	tf, err := open(tickers)
	if err != nil {
		return 0, err
	}
	defer tf.Close()
	cf, err := open(cusips)
	if err != nil {
		return 0, err
	}
	defer cf.Close()
	secs, err := securitymaster.Parse(tickers, tf, cusips, cf)
	if err != nil {
		return 0, err
	}
	return len(secs), s.UpsertMasterSecurities(ctx, secs)
}

func ingestHoldings(ctx context.Context, s ports.FundHoldingStore, open usecase.OpenFile, files []string) (int, error) {
	filings, err := form13f.ParseFiles(open, files, edgarfiling.ParseSubmissions)
	if err != nil {
		return 0, err
	}
	return len(filings), s.ReplaceThirteenFFilings(ctx, filings)
}
