package form13f

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
)

// The columns ParseDataSet reads from the SEC's Form 13F data
// sets. Other columns may be present and are ignored; these must be.
var (
	submissionColumns = []string{"ACCESSION_NUMBER", "FILING_DATE", "SUBMISSIONTYPE", "CIK", "PERIODOFREPORT"}
	coverPageColumns  = []string{"ACCESSION_NUMBER", "FILINGMANAGER_NAME"}
	infoTableColumns  = []string{"ACCESSION_NUMBER", "INFOTABLE_SK", "NAMEOFISSUER", "TITLEOFCLASS", "CUSIP",
		"VALUE", "SSHPRNAMT", "SSHPRNAMTTYPE", "PUTCALL", "INVESTMENTDISCRETION"}
)

// dataSetDate is the DD-MON-YYYY form the data sets write dates in.
const dataSetDate = "02-Jan-2006"

// tsvTable is a tab-separated file read whole: its column positions and
// rows, each with its line number.
type tsvTable struct {
	file  string
	index map[string]int
	rows  [][]string
	lines []int
}

func (t *tsvTable) get(row []string, col string) string { return strings.TrimSpace(row[t.index[col]]) }

// opt reads a column the table may lack; a missing column reads as empty.
func (t *tsvTable) opt(row []string, col string) string {
	if _, ok := t.index[col]; !ok {
		return ""
	}
	return t.get(row, col)
}

// maxLineBytes bounds a line of a data-set table or a full submission:
// wider than source.MaxLineBytes, since a full submission may carry a
// whole information table on one line.
const maxLineBytes = 16 << 20

// readTSV reads a data-set table. The files are not quoted, so a line is
// split on tabs only; every line must have as many fields as the header, so
// a file cut short in the middle of a line is refused.
func readTSV(file string, r io.Reader, required []string) (*tsvTable, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLineBytes)
	t := &tsvTable{file: file, index: map[string]int{}}
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Split(strings.TrimSuffix(sc.Text(), "\r"), "\t")
		if line == 1 {
			for i, name := range fields {
				t.index[strings.TrimPrefix(strings.TrimSpace(name), "\ufeff")] = i
			}
			for _, c := range required {
				if _, ok := t.index[c]; !ok {
					return nil, source.AtLine(file, 1, "header lacks column %s", c)
				}
			}
			continue
		}
		if len(fields) == 1 && fields[0] == "" {
			continue
		}
		if len(fields) != len(t.index) {
			return nil, source.AtLine(file, line, "%d fields, the header has %d (truncated or malformed line)", len(fields), len(t.index))
		}
		t.rows, t.lines = append(t.rows, fields), append(t.lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, source.AtLine(file, line+1, "%v", lineError(err))
	}
	if line == 0 {
		return nil, source.AtLine(file, 1, "empty file: no header")
	}
	return t, nil
}

// DataSetFiles are the readers of one Form 13F data set's tables.
type DataSetFiles struct {
	Submission, CoverPage, InfoTable NamedReader
}

// NamedReader is a reader with the file name errors should cite.
type NamedReader struct {
	Name string
	R    io.Reader
}

// ParseDataSet reads the SUBMISSION, COVERPAGE and INFOTABLE
// tables of a Form 13F data set into filings. Only 13F-HR and 13F-HR/A
// submissions carry holdings; notices (13F-NT) are skipped. Every row is
// checked, and so is each filing's VALUE unit against the prices it implies
// (holdings.CheckPriceBand); the first bad one refuses the whole set.
func ParseDataSet(files DataSetFiles) ([]holdings.Filing, error) {
	filings, lines, err := parseSubmissions(files.Submission)
	if err != nil {
		return nil, err
	}
	if err := parseCoverPages(files.CoverPage, filings); err != nil {
		return nil, err
	}
	if err := parseInfoTable(files.InfoTable, filings); err != nil {
		return nil, err
	}
	out := make([]holdings.Filing, 0, len(filings))
	for _, acc := range slices.Sorted(maps.Keys(filings)) {
		if f := filings[acc]; f != nil {
			if f.FundName == "" {
				return nil, source.AtLine(files.Submission.Name, lines[acc], "%s has no row in %s", acc, files.CoverPage.Name)
			}
			if err := holdings.CheckPriceBand(*f); err != nil {
				return nil, source.LineError(files.Submission.Name, lines[acc], fmt.Errorf("%w (rows in %s)", err, files.InfoTable.Name))
			}
			out = append(out, *f)
		}
	}
	return out, nil
}

// parseSubmissions returns the filings by accession number, and the line
// of each; a notice maps to nil so its other rows are recognised and skipped.
func parseSubmissions(nr NamedReader) (map[string]*holdings.Filing, map[string]int, error) {
	t, err := readTSV(nr.Name, nr.R, submissionColumns)
	if err != nil {
		return nil, nil, err
	}
	out, lines := map[string]*holdings.Filing{}, map[string]int{}
	for i, row := range t.rows {
		f, err := submissionRow(t, row)
		if err != nil {
			return nil, nil, source.AtLine(t.file, t.lines[i], "%v", err)
		}
		if _, dup := out[f.Accession]; dup {
			return nil, nil, source.AtLine(t.file, t.lines[i], "duplicate accession number %s", f.Accession)
		}
		lines[f.Accession] = t.lines[i]
		if f.FormType != "13F-HR" && f.FormType != "13F-HR/A" {
			out[f.Accession] = nil
			continue
		}
		out[f.Accession] = &f
	}
	return out, lines, nil
}

func submissionRow(t *tsvTable, row []string) (holdings.Filing, error) {
	acc, err := edgar.ParseAccession(t.get(row, "ACCESSION_NUMBER"))
	if err != nil {
		return holdings.Filing{}, err
	}
	filed, err := dataSetDay("FILING_DATE", t.get(row, "FILING_DATE"))
	if err != nil {
		return holdings.Filing{}, err
	}
	period, err := dataSetDay("PERIODOFREPORT", t.get(row, "PERIODOFREPORT"))
	if err != nil {
		return holdings.Filing{}, err
	}
	cik, err := edgar.ParseCIK(t.get(row, "CIK"))
	if err != nil {
		return holdings.Filing{}, err
	}
	return holdings.Filing{
		Accession: acc, FormType: strings.ToUpper(t.get(row, "SUBMISSIONTYPE")), FundCIK: cik,
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
func submittedFiling(t *tsvTable, row []string, i int, filings map[string]*holdings.Filing) (string, *holdings.Filing, error) {
	acc, err := edgar.ParseAccession(t.get(row, "ACCESSION_NUMBER"))
	if err != nil {
		return "", nil, source.AtLine(t.file, t.lines[i], "%v", err)
	}
	f, known := filings[acc]
	if !known {
		return "", nil, source.AtLine(t.file, t.lines[i], "accession number %s is not in the submissions", acc)
	}
	return acc, f, nil
}

func parseCoverPages(nr NamedReader, filings map[string]*holdings.Filing) error {
	t, err := readTSV(nr.Name, nr.R, coverPageColumns)
	if err != nil {
		return err
	}
	for i, row := range t.rows {
		_, f, err := submittedFiling(t, row, i, filings)
		if err != nil {
			return err
		}
		name := t.get(row, "FILINGMANAGER_NAME")
		if f == nil {
			continue
		}
		if name == "" {
			return source.AtLine(t.file, t.lines[i], "FILINGMANAGER_NAME is empty")
		}
		f.FundName = name
		if f.Amendment, err = holdings.ParseAmendment(f.FormType, t.opt(row, "AMENDMENTTYPE")); err != nil {
			return source.AtLine(t.file, t.lines[i], "%s: %v (column AMENDMENTTYPE)", f.Accession, err)
		}
	}
	return nil
}

func parseInfoTable(nr NamedReader, filings map[string]*holdings.Filing) error {
	t, err := readTSV(nr.Name, nr.R, infoTableColumns)
	if err != nil {
		return err
	}
	for i, row := range t.rows {
		acc, f, err := submittedFiling(t, row, i, filings)
		if err != nil {
			return err
		}
		if f == nil {
			return source.AtLine(t.file, t.lines[i], "accession number %s is a notice, which reports no holdings", acc)
		}
		sk, err := strconv.ParseInt(t.get(row, "INFOTABLE_SK"), 10, 64)
		if err != nil || sk <= 0 {
			return source.AtLine(t.file, t.lines[i], "INFOTABLE_SK %s is not a positive integer", source.Quote(t.get(row, "INFOTABLE_SK")))
		}
		h, err := infoRow{
			Issuer: t.get(row, "NAMEOFISSUER"), Class: t.get(row, "TITLEOFCLASS"), CUSIP: t.get(row, "CUSIP"),
			Value: t.get(row, "VALUE"), Shares: t.get(row, "SSHPRNAMT"), ShareType: t.get(row, "SSHPRNAMTTYPE"),
			PutCall: t.get(row, "PUTCALL"), Discretion: t.get(row, "INVESTMENTDISCRETION"),
		}.holding(f, sk)
		if err != nil {
			return source.AtLine(t.file, t.lines[i], "%v", err)
		}
		f.Holdings = append(f.Holdings, h)
	}
	return nil
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
