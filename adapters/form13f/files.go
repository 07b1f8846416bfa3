// Package form13f reads Form 13F holdings in the forms people download them
// in: the SEC's Form 13F data sets (SUBMISSION, COVERPAGE and INFOTABLE
// tables), a filing's full submission text file, and information-table XML
// documents identified by the filer's submissions JSON or a data set and,
// for an amendment, the filing's cover page. Rows become the filings and
// holdings of domain/holdings; the rules they obey there (the unit VALUE is
// reported in, how amendments apply, what price per share is plausible)
// are the domain's. Every problem refuses the files, naming the file, the
// line and the reason.
package form13f

import (
	"fmt"
	"io"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
)

// OpenFile opens a named input file.
type OpenFile = func(name string) (io.ReadCloser, error)

// SubmissionsReader reads a filer's SEC submissions JSON
// (CIK##########.json) into what it says of each filing, by accession
// number. The reader of EDGAR filing folders has one; the caller passes
// it in, so that one format has one reader.
type SubmissionsReader = func(file string, r io.Reader) (map[string]edgar.Submission, error)

// accessionInPath finds an accession number in an EDGAR archive path, dashed
// or as the 18-digit folder name (.../1067983/000095012324002518/...).
var accessionInPath = regexp.MustCompile(`\d{10}-\d{2}-\d{6}|\d{18}`)

// ParseFiles reads 13F holdings in the forms people download,
// recognised by file name:
//   - SUBMISSION.tsv, COVERPAGE.tsv and INFOTABLE.tsv of a Form 13F data set
//     (INFOTABLE.tsv may be left out when XML tables supply the rows);
//   - *.txt: a filing's full submission text file;
//   - *.xml: a filing's information table alone. The XML carries no filing
//     identity, so its path must contain the accession number (as EDGAR's
//     archive path does), and the filing must be in the data set given with
//     it or in a filer's submissions JSON (CIK##########.json) given with
//     it; a 13F-HR/A also needs its cover page (primary_doc.xml, in a path
//     naming the accession number) for the amendment type.
//
// Every file is parsed before anything is returned; the first bad one
// refuses them all.
func ParseFiles(open OpenFile, names []string, submissions SubmissionsReader) ([]holdings.Filing, error) {
	set, rest, err := splitDataSet(names)
	if err != nil {
		return nil, err
	}
	p := holdingsFiles{open: open, byAcc: map[string]holdings.Filing{}, fromTSV: set.InfoTable != ""}
	if set.Submission != "" {
		fs, err := parseDataSetFiles(open, set.list())
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			p.byAcc[f.Accession] = f
		}
	}
	if p.edgar, rest, err = readEdgarSources(open, rest, submissions); err != nil {
		return nil, err
	}
	for _, name := range rest {
		if err := p.add(name); err != nil {
			return nil, err
		}
	}
	out := make([]holdings.Filing, 0, len(p.byAcc))
	for _, acc := range slices.Sorted(maps.Keys(p.byAcc)) {
		out = append(out, p.byAcc[acc])
	}
	return out, nil
}

// holdingsFiles gathers the filings of one ingestion run by accession number.
type holdingsFiles struct {
	open  OpenFile
	byAcc map[string]holdings.Filing
	// fromTSV is set when INFOTABLE.tsv gives the data set's rows.
	fromTSV bool
	edgar   edgarSources
}

// accessionOfPath finds the accession number a path names.
func accessionOfPath(name string) (string, bool) {
	m := accessionInPath.FindString(name)
	if m == "" {
		return "", false
	}
	acc := strings.ReplaceAll(m, "-", "")
	return acc[:10] + "-" + acc[10:12] + "-" + acc[12:], true
}

type dataSetNames struct{ Submission, CoverPage, InfoTable string }

func splitDataSet(names []string) (dataSetNames, []string, error) {
	var set dataSetNames
	var rest []string
	for _, n := range names {
		slot := map[string]*string{"SUBMISSION.TSV": &set.Submission, "COVERPAGE.TSV": &set.CoverPage, "INFOTABLE.TSV": &set.InfoTable}[strings.ToUpper(source.BaseName(n))]
		switch {
		case slot == nil:
			rest = append(rest, n)
		case *slot != "":
			return set, nil, source.Whole(n, "a second %s; give one data set per run", source.BaseName(n))
		default:
			*slot = n
		}
	}
	if (set.Submission == "") != (set.CoverPage == "") || (set.InfoTable != "" && set.Submission == "") {
		return set, nil, fmt.Errorf("%w: a Form 13F data set needs SUBMISSION.tsv and COVERPAGE.tsv together (INFOTABLE.tsv with them)", source.ErrBadInput)
	}
	return set, rest, nil
}

// list is the tables given, in the order SUBMISSION, COVERPAGE, INFOTABLE.
func (set dataSetNames) list() []string {
	var out []string
	for _, n := range []string{set.Submission, set.CoverPage, set.InfoTable} {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// add parses one .txt or .xml filing file.
func (p holdingsFiles) add(name string) error {
	rc, err := p.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	switch strings.ToLower(path.Ext(name)) {
	case ".txt":
		f, err := ParseFullSubmission(name, rc)
		if err != nil {
			return err
		}
		if _, dup := p.byAcc[f.Accession]; dup {
			return source.AtLine(name, 1, "filing %s is given twice", f.Accession)
		}
		p.byAcc[f.Accession] = f
	case ".xml":
		return p.addInformationTable(name, rc)
	default:
		return source.Whole(name, "not a 13F file (SUBMISSION.tsv, COVERPAGE.tsv, INFOTABLE.tsv, a full submission .txt, an information table .xml, a submissions CIK##########.json or a cover page primary_doc.xml)")
	}
	return nil
}

func (p holdingsFiles) addInformationTable(name string, r io.Reader) error {
	acc, ok := accessionOfPath(name)
	if !ok {
		return source.AtLine(name, 1, "the path names no accession number, so the filing of this information table is unknown")
	}
	f, known := p.byAcc[acc]
	switch {
	case !known:
		var err error
		if f, err = p.edgar.filing(name, acc); err != nil {
			return err
		}
	case p.fromTSV && len(f.Holdings) > 0, !p.fromTSV && f.Holdings != nil:
		return source.AtLine(name, 1, "the rows of filing %s are given twice", acc)
	}
	rows, err := ParseInformationTable(name, r, f, 0)
	if err != nil {
		return err
	}
	f.Holdings = append([]holdings.Holding{}, rows...)
	if err := holdings.CheckPriceBand(f); err != nil {
		return source.LineError(name, 1, err)
	}
	p.byAcc[acc] = f
	return nil
}
