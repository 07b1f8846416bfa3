package form13f

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
)

// The columns CheckDataSet reads from the SEC's Form 13F data
// sets. Other columns may be present and are ignored; these must be.
var (
	submissionColumns = []string{"ACCESSION_NUMBER", "FILING_DATE", "SUBMISSIONTYPE", "CIK", "PERIODOFREPORT"}
	coverPageColumns  = []string{"ACCESSION_NUMBER", "FILINGMANAGER_NAME"}
	infoTableColumns  = []string{"ACCESSION_NUMBER", "INFOTABLE_SK", "NAMEOFISSUER", "TITLEOFCLASS", "CUSIP",
		"VALUE", "SSHPRNAMT", "SSHPRNAMTTYPE", "PUTCALL", "INVESTMENTDISCRETION"}
)

// dataSetDate is the DD-MON-YYYY form the data sets write dates in.
const dataSetDate = "02-Jan-2006"

// tsvReader reads a data-set table row by row. The files are not quoted,
// so a line is split on tabs only; every line must have as many fields as
// the header, so a file cut short in the middle of a line is refused.
type tsvReader struct {
	file  string
	index map[string]int
	sc    *bufio.Scanner
	// line is the line number of row; bytes counts the lines read, their
	// line ends included.
	line  int
	row   []string
	bytes int64
}

// maxLineBytes bounds a line of a data-set table or a full submission:
// wider than source.MaxLineBytes, since a full submission may carry a
// whole information table on one line.
const maxLineBytes = 16 << 20

// newTSVReader reads a table's header, which must name the required columns.
func newTSVReader(file string, r io.Reader, required []string) (*tsvReader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLineBytes)
	t := &tsvReader{file: file, index: map[string]int{}, sc: sc}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, source.AtLine(file, 1, "%v", lineError(err))
		}
		return nil, source.AtLine(file, 1, "empty file: no header")
	}
	t.line, t.bytes = 1, int64(len(sc.Bytes())+1)
	for i, name := range strings.Split(strings.TrimSuffix(sc.Text(), "\r"), "\t") {
		t.index[strings.TrimPrefix(strings.TrimSpace(name), "\ufeff")] = i
	}
	for _, c := range required {
		if _, ok := t.index[c]; !ok {
			return nil, source.AtLine(file, 1, "header lacks column %s", c)
		}
	}
	return t, nil
}

// next reads the next row, skipping empty lines; false at the end.
func (t *tsvReader) next() (bool, error) {
	for t.sc.Scan() {
		t.line++
		t.bytes += int64(len(t.sc.Bytes()) + 1)
		fields := strings.Split(strings.TrimSuffix(t.sc.Text(), "\r"), "\t")
		if len(fields) == 1 && fields[0] == "" {
			continue
		}
		if len(fields) != len(t.index) {
			return false, source.AtLine(t.file, t.line, "%d fields, the header has %d (truncated or malformed line)", len(fields), len(t.index))
		}
		t.row = fields
		return true, nil
	}
	if err := t.sc.Err(); err != nil {
		return false, source.AtLine(t.file, t.line+1, "%v", lineError(err))
	}
	return false, nil
}

func (t *tsvReader) get(col string) string { return strings.TrimSpace(t.row[t.index[col]]) }

// opt reads a column the table may lack; a missing column reads as empty.
func (t *tsvReader) opt(col string) string {
	if _, ok := t.index[col]; !ok {
		return ""
	}
	return t.get(col)
}

// eachRow calls row for every row of the table file in r.
func eachRow(file string, r io.Reader, required []string, row func(*tsvReader) error) error {
	t, err := newTSVReader(file, r, required)
	if err != nil {
		return err
	}
	for {
		more, err := t.next()
		if !more || err != nil {
			return err
		}
		if err := row(t); err != nil {
			return err
		}
	}
}

// IsDataSet reports whether names are a whole Form 13F data set and
// nothing else: its SUBMISSION.tsv, COVERPAGE.tsv and INFOTABLE.tsv.
func IsDataSet(names []string) bool {
	set, rest, err := splitDataSet(names)
	return err == nil && len(rest) == 0 && set.InfoTable != ""
}

// DataSet is a Form 13F data set checked by CheckDataSet and not yet
// read into holdings: its filings' headers by accession number, and how
// many INFOTABLE.tsv rows each has, which is what WriteBatches needs to
// hand on each filing whole while reading the table again.
type DataSet struct {
	open  OpenFile
	names dataSetNames
	// filings maps a notice to nil, so its other rows are recognised.
	filings map[string]*holdings.Filing
	rows    map[string]int
}

// CheckDataSet reads the SUBMISSION, COVERPAGE and INFOTABLE tables of a
// Form 13F data set (names, opened with open) and checks every row, as
// ParseFiles does, keeping of INFOTABLE.tsv only each filing's row count
// and the prices its rows imply, so memory holds the filings' headers,
// not their rows. Only 13F-HR and 13F-HR/A submissions carry holdings;
// notices (13F-NT) are skipped. Each filing's VALUE unit is checked
// against the prices it implies (holdings.CheckPrices); the first bad row
// or filing refuses the whole set. Without INFOTABLE.tsv every filing has
// no rows.
func CheckDataSet(open OpenFile, names []string) (*DataSet, error) {
	set, rest, err := splitDataSet(names)
	if err != nil {
		return nil, err
	}
	if set.Submission == "" || len(rest) > 0 {
		return nil, fmt.Errorf("%w: a Form 13F data set is SUBMISSION.tsv, COVERPAGE.tsv and INFOTABLE.tsv", source.ErrBadInput)
	}
	d := &DataSet{open: open, names: set, rows: map[string]int{}}
	lines, err := d.readHeaders()
	if err != nil {
		return nil, err
	}
	prices := map[string][]float64{}
	err = d.eachInfoRow(func(f *holdings.Filing, h holdings.Holding, _ int64) error {
		d.rows[f.Accession]++
		if p, ok := holdings.SharePrice(h); ok {
			prices[f.Accession] = append(prices[f.Accession], p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, acc := range slices.Sorted(maps.Keys(d.filings)) {
		if f := d.filings[acc]; f != nil {
			if f.FundName == "" {
				return nil, source.AtLine(set.Submission, lines[acc], "%s has no row in %s", acc, set.CoverPage)
			}
			if err := holdings.CheckPrices(*f, prices[acc]); err != nil {
				return nil, source.LineError(set.Submission, lines[acc], fmt.Errorf("%w (rows in %s)", err, d.infoTableName()))
			}
			delete(prices, acc)
		}
	}
	return d, nil
}

// readHeaders reads SUBMISSION.tsv and COVERPAGE.tsv into d.filings and
// returns the SUBMISSION.tsv line of each filing.
func (d *DataSet) readHeaders() (map[string]int, error) {
	var lines map[string]int
	err := d.read(d.names.Submission, func(name string, r io.Reader) (err error) {
		d.filings, lines, err = parseSubmissions(name, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return lines, d.read(d.names.CoverPage, func(name string, r io.Reader) error {
		return parseCoverPages(name, r, d.filings)
	})
}

// read opens a table and hands it to parse.
func (d *DataSet) read(name string, parse func(string, io.Reader) error) error {
	rc, err := d.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	return parse(name, rc)
}

// infoTableName is the name errors give INFOTABLE.tsv.
func (d *DataSet) infoTableName() string {
	if d.names.InfoTable == "" {
		return "INFOTABLE.tsv"
	}
	return d.names.InfoTable
}

// eachInfoRow reads INFOTABLE.tsv, checking each row and handing it on as
// a holding of its filing with the bytes of its line.
func (d *DataSet) eachInfoRow(row func(*holdings.Filing, holdings.Holding, int64) error) error {
	if d.names.InfoTable == "" {
		return nil
	}
	return d.read(d.names.InfoTable, func(name string, r io.Reader) error {
		read := int64(0)
		return eachRow(name, r, infoTableColumns, func(t *tsvReader) error {
			f, h, err := infoTableRow(t, d.filings)
			if err != nil {
				return err
			}
			bytes := t.bytes - read
			read = t.bytes
			return row(f, h, bytes)
		})
	})
}

// WriteBatches reads INFOTABLE.tsv again and hands write the filings,
// each whole, in batches of about limit bytes of rows: a batch is handed
// on once the filings completed in it weigh limit (a filing is complete
// when its last row is read; filings without rows come first). A filing
// whose rows are not contiguous in the table stays in memory until its last
// row, so such a table holds more at once, and one holding every filing's
// rows interleaved holds them all. The filings of a batch are in
// accession number order, their holdings in the table's. A table that
// changed since CheckDataSet read it is refused, after the batches
// before.
func (d *DataSet) WriteBatches(limit int64, write func([]holdings.Filing) error) error {
	var batch []holdings.Filing
	var held int64
	add := func(f *holdings.Filing, bytes int64) error {
		batch, held = append(batch, *f), held+bytes
		if held < limit {
			return nil
		}
		err := writeSorted(batch, write)
		batch, held = nil, 0
		return err
	}
	for _, acc := range slices.Sorted(maps.Keys(d.filings)) {
		if f := d.filings[acc]; f != nil && d.rows[acc] == 0 {
			if err := add(f, 0); err != nil {
				return err
			}
		}
	}
	open, weight := map[string]*holdings.Filing{}, map[string]int64{}
	err := d.eachInfoRow(func(header *holdings.Filing, h holdings.Holding, bytes int64) error {
		acc := header.Accession
		f := open[acc]
		if f == nil {
			f = &holdings.Filing{}
			*f = *header
			f.Holdings = make([]holdings.Holding, 0, d.rows[acc])
			open[acc] = f
		}
		if len(f.Holdings) == d.rows[acc] {
			return source.Whole(d.names.InfoTable, "filing %s has more rows than when the table was checked: it changed while read", acc)
		}
		f.Holdings, weight[acc] = append(f.Holdings, h), weight[acc]+bytes
		if len(f.Holdings) < d.rows[acc] {
			return nil
		}
		w := weight[acc]
		delete(open, acc)
		delete(weight, acc)
		return add(f, w)
	})
	if err == nil && len(open) > 0 {
		err = source.Whole(d.names.InfoTable, "filing %s has fewer rows than when the table was checked: it changed while read", slices.Min(slices.Collect(maps.Keys(open))))
	}
	if err != nil || len(batch) == 0 {
		return err
	}
	return writeSorted(batch, write)
}

// writeSorted hands write a batch of filings in accession number order.
func writeSorted(batch []holdings.Filing, write func([]holdings.Filing) error) error {
	slices.SortFunc(batch, func(a, b holdings.Filing) int { return strings.Compare(a.Accession, b.Accession) })
	return write(batch)
}

// parseDataSetFiles reads a data set whole, as one batch.
func parseDataSetFiles(open OpenFile, names []string) ([]holdings.Filing, error) {
	d, err := CheckDataSet(open, names)
	if err != nil {
		return nil, err
	}
	var out []holdings.Filing
	err = d.WriteBatches(math.MaxInt64, func(fs []holdings.Filing) error {
		out = fs
		return nil
	})
	return out, err
}

// parseSubmissions returns the filings by accession number, and the line
// of each; a notice maps to nil so its other rows are recognised and skipped.
func parseSubmissions(name string, r io.Reader) (map[string]*holdings.Filing, map[string]int, error) {
	out, lines := map[string]*holdings.Filing{}, map[string]int{}
	err := eachRow(name, r, submissionColumns, func(t *tsvReader) error {
		f, err := submissionRow(t)
		if err != nil {
			return source.AtLine(t.file, t.line, "%v", err)
		}
		if _, dup := out[f.Accession]; dup {
			return source.AtLine(t.file, t.line, "duplicate accession number %s", f.Accession)
		}
		lines[f.Accession] = t.line
		if f.FormType != "13F-HR" && f.FormType != "13F-HR/A" {
			out[f.Accession] = nil
			return nil
		}
		out[f.Accession] = &f
		return nil
	})
	return out, lines, err
}

func submissionRow(t *tsvReader) (holdings.Filing, error) {
	acc, err := edgar.ParseAccession(t.get("ACCESSION_NUMBER"))
	if err != nil {
		return holdings.Filing{}, err
	}
	filed, err := dataSetDay("FILING_DATE", t.get("FILING_DATE"))
	if err != nil {
		return holdings.Filing{}, err
	}
	period, err := dataSetDay("PERIODOFREPORT", t.get("PERIODOFREPORT"))
	if err != nil {
		return holdings.Filing{}, err
	}
	cik, err := edgar.ParseCIK(t.get("CIK"))
	if err != nil {
		return holdings.Filing{}, err
	}
	return holdings.Filing{
		Accession: acc, FormType: strings.ToUpper(t.get("SUBMISSIONTYPE")), FundCIK: cik,
		ReportPeriod: period, FilingDate: filed,
	}, nil
}

func dataSetDay(col, raw string) (string, error) {
	d, err := time.Parse(dataSetDate, raw)
	if err != nil {
		return "", fmt.Errorf("%s %s is not DD-MON-YYYY", col, source.Quote(raw))
	}
	return d.Format(time.DateOnly), nil
}

// submittedFiling resolves a data-set row's accession number to the filing
// SUBMISSION.tsv listed; nil stands for a notice, which holds no positions.
func submittedFiling(t *tsvReader, filings map[string]*holdings.Filing) (string, *holdings.Filing, error) {
	acc, err := edgar.ParseAccession(t.get("ACCESSION_NUMBER"))
	if err != nil {
		return "", nil, source.AtLine(t.file, t.line, "%v", err)
	}
	f, known := filings[acc]
	if !known {
		return "", nil, source.AtLine(t.file, t.line, "accession number %s is not in the submissions", acc)
	}
	return acc, f, nil
}

func parseCoverPages(name string, r io.Reader, filings map[string]*holdings.Filing) error {
	return eachRow(name, r, coverPageColumns, func(t *tsvReader) error {
		_, f, err := submittedFiling(t, filings)
		if err != nil {
			return err
		}
		name := t.get("FILINGMANAGER_NAME")
		if f == nil {
			return nil
		}
		if name == "" {
			return source.AtLine(t.file, t.line, "FILINGMANAGER_NAME is empty")
		}
		f.FundName = name
		if f.Amendment, err = holdings.ParseAmendment(f.FormType, t.opt("AMENDMENTTYPE")); err != nil {
			return source.AtLine(t.file, t.line, "%s: %v (column AMENDMENTTYPE)", f.Accession, err)
		}
		return nil
	})
}

// infoTableRow checks the INFOTABLE.tsv row t has read and returns its
// filing and the row as a holding of it.
func infoTableRow(t *tsvReader, filings map[string]*holdings.Filing) (*holdings.Filing, holdings.Holding, error) {
	acc, f, err := submittedFiling(t, filings)
	if err != nil {
		return nil, holdings.Holding{}, err
	}
	if f == nil {
		return nil, holdings.Holding{}, source.AtLine(t.file, t.line, "accession number %s is a notice, which reports no holdings", acc)
	}
	sk, err := strconv.ParseInt(t.get("INFOTABLE_SK"), 10, 64)
	if err != nil || sk <= 0 {
		return nil, holdings.Holding{}, source.AtLine(t.file, t.line, "INFOTABLE_SK %s is not a positive integer", source.Quote(t.get("INFOTABLE_SK")))
	}
	h, err := infoRow{
		Issuer: t.get("NAMEOFISSUER"), Class: t.get("TITLEOFCLASS"), CUSIP: t.get("CUSIP"),
		Value: t.get("VALUE"), Shares: t.get("SSHPRNAMT"), ShareType: t.get("SSHPRNAMTTYPE"),
		PutCall: t.get("PUTCALL"), Discretion: t.get("INVESTMENTDISCRETION"),
	}.holding(f, sk)
	if err != nil {
		return nil, holdings.Holding{}, source.AtLine(t.file, t.line, "%v", err)
	}
	return f, h, nil
}

// infoRow is one information-table row as text, whichever form it came in.
type infoRow struct {
	Issuer     string `xml:"nameOfIssuer"`
	Class      string `xml:"titleOfClass"`
	CUSIP      string `xml:"cusip"`
	Value      string `xml:"value"`
	Shares     string `xml:"shrsOrPrnAmt>sshPrnamt"`
	ShareType  string `xml:"shrsOrPrnAmt>sshPrnamtType"`
	PutCall    string `xml:"putCall"`
	Discretion string `xml:"investmentDiscretion"`
}

// holding checks the row and returns it as a holding of filing f.
func (r infoRow) holding(f *holdings.Filing, row int64) (holdings.Holding, error) {
	cusip, err := filedCUSIP(r.CUSIP)
	if err != nil {
		return holdings.Holding{}, err
	}
	issuer := strings.TrimSpace(r.Issuer)
	if issuer == "" {
		return holdings.Holding{}, fmt.Errorf("name of issuer is empty")
	}
	shares, err := strconv.ParseInt(strings.TrimSpace(r.Shares), 10, 64)
	if err != nil || shares < 0 {
		return holdings.Holding{}, fmt.Errorf("shares or principal amount %s is not a whole number", source.Quote(r.Shares))
	}
	shareType := strings.ToUpper(strings.TrimSpace(r.ShareType))
	if shareType != "SH" && shareType != "PRN" {
		return holdings.Holding{}, fmt.Errorf("share type %s is not SH or PRN", source.Quote(r.ShareType))
	}
	value, err := r.dollars(f.FilingDate)
	if err != nil {
		return holdings.Holding{}, err
	}
	putCall, err := holdings.ParsePutCall(r.PutCall)
	if err != nil {
		return holdings.Holding{}, err
	}
	disc, err := holdings.ParseDiscretion(r.Discretion)
	if err != nil {
		return holdings.Holding{}, err
	}
	return holdings.Holding{
		Accession: f.Accession, Row: row, FundCIK: f.FundCIK, FundName: f.FundName, ReportPeriod: f.ReportPeriod,
		FilingDate: f.FilingDate, CUSIP: cusip, Issuer: issuer, Class: strings.TrimSpace(r.Class), Shares: shares,
		ShareType: shareType, Value: value, PutCall: putCall, Discretion: disc,
	}, nil
}

// dollars reads VALUE and scales it to whole dollars by the filing date.
func (r infoRow) dollars(filingDate string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(r.Value), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("value %s is not a whole number", source.Quote(r.Value))
	}
	filed, err := time.Parse(time.DateOnly, filingDate)
	if err != nil {
		return 0, fmt.Errorf("filing date %s is not a date", source.Quote(filingDate))
	}
	return holdings.ValueInDollars(v, filed)
}

// filedCUSIP normalises a CUSIP as filers report it: upper case, without
// spaces or dashes, nine letters and digits. The check digit is not
// enforced here: the SEC publishes what the filer reported, and a filing
// with one mistyped CUSIP still reports every other position truly.
func filedCUSIP(raw string) (string, error) {
	c := strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(raw))
	if len(c) != 9 {
		return "", fmt.Errorf("CUSIP %s is not 9 characters", source.Quote(raw))
	}
	for i := 0; i < len(c); i++ {
		if !(c[i] >= '0' && c[i] <= '9' || c[i] >= 'A' && c[i] <= 'Z') {
			return "", fmt.Errorf("CUSIP %s has a character other than a letter or digit", source.Quote(raw))
		}
	}
	return c, nil
}
