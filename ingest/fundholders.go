package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/adapters/edgarfiling"
	"github.com/quarrydata/quarry/adapters/form13f"
	"github.com/quarrydata/quarry/adapters/securitymaster"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// LoadFundHoldersSample loads the bundled securities master and 13F
// filings into s and returns how many filings it loaded.
func LoadFundHoldersSample(ctx context.Context, s ports.FundHoldingStore) (int, error) {
	if _, err := LoadSampleMaster(ctx, s); err != nil {
		return 0, err
	}
	return LoadSampleHoldings(ctx, s)
}

func LoadSampleMaster(ctx context.Context, s ports.FundHoldingStore) (int, error) {
	files := []string{sampledata.FundHoldersTickers, sampledata.FundHoldersCUSIPs}
	return ingestSecuritiesMaster(ctx, s, embeddedOpener(sampledata.FundHolders), files)
}

func LoadSampleHoldings(ctx context.Context, s ports.FundHoldingStore) (int, error) {
	return ingestHoldings(ctx, s, embeddedOpener(sampledata.FundHolders), sampledata.FundHoldersFilings)
}

func embeddedOpener(fsys fs.FS) usecase.OpenFile {
	return func(name string) (io.ReadCloser, error) { return fsys.Open(name) }
}

// ingestUSSecurities is `quarry ingest us_securities company_tickers.json cusip_map.csv`:
// the SEC's company_tickers.json and a cusip,ticker CSV, in either order.
// Without files it loads the bundled sample master.
func IngestUSSecurities(ctx context.Context, s ports.FundHoldingStore, files *Files) (int, error) {
	if files.none() {
		return LoadSampleMaster(ctx, s)
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

// HoldingsBatchBytes bounds the full submission text files, or the
// INFOTABLE.tsv rows of a Form 13F data set, one write of IngestUSHoldings
// reads: a generated 13F-HR of the benchmark is about 5 KiB, so a batch is
// some six thousand filings, and a run of any size holds one batch's rows,
// not every file it was given.
const HoldingsBatchBytes = 32 << 20

// IngestUSHoldings is `quarry ingest us_security_fund_holders FILE...` (see
// form13f.ParseFiles for the forms); a Form 13F data set may be given as
// the SEC's zip, read entry by entry without unpacking (form13fEntry).
// A run of full submission text files (*.txt) alone is written in batches
// of files weighing HoldingsBatchBytes, in the order given, each batch one
// FundHoldingStore.ReplaceThirteenFFilings (each filing seen whole): a bad
// file stops the run after the batches before its own, its own not
// written, and running it again once the file is fixed completes it. A
// Form 13F data set alone (its SUBMISSION.tsv, COVERPAGE.tsv and
// INFOTABLE.tsv, or its zip) is checked whole first, so a bad row writes
// nothing, then written in batches of HoldingsBatchBytes of INFOTABLE.tsv
// rows (writeDataSet). Any other run (a data set with information tables,
// submissions JSON, or files.OneBatch, as `quarry sync` asks) is read
// whole, then written as one batch, so a bad file writes nothing. Without
// files it loads the bundled sample filings; their securities come from
// us_securities.
func IngestUSHoldings(ctx context.Context, s ports.FundHoldingStore, files *Files) (int, error) {
	if files.none() {
		return LoadSampleHoldings(ctx, s)
	}
	in, err := files.expand(form13fEntry)
	if err != nil {
		return 0, err
	}
	defer in.close()
	switch {
	case files.OneBatch:
		return ingestHoldings(ctx, s, in.open, in.names())
	case form13f.IsDataSet(in.names()):
		return writeDataSet(ctx, s, in.open, in.names(), HoldingsBatchBytes)
	case !fullSubmissionsOnly(in.files):
		return ingestHoldings(ctx, s, in.open, in.names())
	}
	return writeHoldingBatches(ctx, s, in.open, holdingBatches(in.files, HoldingsBatchBytes))
}

// writeDataSet checks a Form 13F data set whole, reading INFOTABLE.tsv
// once keeping only each filing's row count and prices, so a bad row
// writes nothing; then reads it again and writes its filings, each whole,
// in batches of limit bytes of rows (form13f.DataSet.WriteBatches).
func writeDataSet(ctx context.Context, s ports.FundHoldingStore, open usecase.OpenFile, names []string, limit int64) (int, error) {
	set, err := form13f.CheckDataSet(open, names)
	if err != nil {
		return 0, err
	}
	n := 0
	err = set.WriteBatches(limit, func(filings []holdings.Filing) error {
		if err := s.ReplaceThirteenFFilings(ctx, filings); err != nil {
			return err
		}
		n += len(filings)
		return nil
	})
	return n, err
}

// fullSubmissionsOnly reports whether every file is a full submission text
// file, which alone gives a whole filing.
func fullSubmissionsOnly(files []input) bool {
	for _, f := range files {
		if !strings.EqualFold(path.Ext(f.name), ".txt") {
			return false
		}
	}
	return true
}

// holdingBatches splits the files, in order, into batches that each reach
// limit bytes (the last may weigh less).
func holdingBatches(files []input, limit int64) [][]string {
	var out [][]string
	var batch []string
	var held int64
	for _, f := range files {
		batch, held = append(batch, f.name), held+f.size
		if held >= limit {
			out, batch, held = append(out, batch), nil, 0
		}
	}
	if len(batch) > 0 {
		out = append(out, batch)
	}
	return out
}

// writeHoldingBatches parses and writes each batch of files in turn,
// stopping at the first that cannot be read; a filing given in two
// batches refuses the second.
func writeHoldingBatches(ctx context.Context, s ports.FundHoldingStore, open usecase.OpenFile, batches [][]string) (int, error) {
	n := 0
	seen := map[string]bool{}
	for _, names := range batches {
		filings, err := form13f.ParseFiles(open, names, edgarfiling.ParseSubmissions)
		if err != nil {
			return n, err
		}
		for _, f := range filings {
			if seen[f.Accession] {
				return n, fmt.Errorf("%w: filing %s is given twice", source.ErrBadInput, f.Accession)
			}
			seen[f.Accession] = true
		}
		if err := s.ReplaceThirteenFFilings(ctx, filings); err != nil {
			return n, err
		}
		n += len(filings)
	}
	return n, nil
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
