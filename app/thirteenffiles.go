package app

import (
	"fmt"
	"io"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/domain/holdings"
)

// OpenFile opens a named input file.
type OpenFile func(name string) (io.ReadCloser, error)

// accessionInPath finds an accession number in an EDGAR archive path, dashed
// or as the 18-digit folder name (.../1067983/000095012324002518/...).
var accessionInPath = regexp.MustCompile(`\d{10}-\d{2}-\d{6}|\d{18}`)

// ParseHoldingsFiles reads 13F holdings in either form people download,
// recognised by file name:
//   - SUBMISSION.tsv, COVERPAGE.tsv and INFOTABLE.tsv of a Form 13F data set
//     (INFOTABLE.tsv may be left out when XML tables supply the rows);
//   - *.txt: a filing's full submission text file;
//   - *.xml: a filing's information table alone. The XML carries no filing
//     identity, so its path must contain the accession number (as EDGAR's
//     archive path does) and that filing must be in the data set given with it.
//
// Every file is parsed before anything is returned; the first bad one
// refuses them all.
func ParseHoldingsFiles(open OpenFile, names []string) ([]holdings.Filing, error) {
	set, rest, err := splitDataSet(names)
	if err != nil {
		return nil, err
	}
	byAcc := map[string]holdings.Filing{}
	if set.Submission != "" {
		fs, err := parseDataSetFiles(open, set)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			byAcc[f.Accession] = f
		}
	}
	fromTSV := set.InfoTable != ""
	for _, name := range rest {
		if err := addFilingFile(open, name, byAcc, fromTSV); err != nil {
			return nil, err
		}
	}
	out := make([]holdings.Filing, 0, len(byAcc))
	for _, acc := range slices.Sorted(maps.Keys(byAcc)) {
		out = append(out, byAcc[acc])
	}
	return out, nil
}

type dataSetNames struct{ Submission, CoverPage, InfoTable string }

func splitDataSet(names []string) (dataSetNames, []string, error) {
	var set dataSetNames
	var rest []string
	for _, n := range names {
		slot := map[string]*string{"SUBMISSION.TSV": &set.Submission, "COVERPAGE.TSV": &set.CoverPage, "INFOTABLE.TSV": &set.InfoTable}[strings.ToUpper(path.Base(n))]
		switch {
		case slot == nil:
			rest = append(rest, n)
		case *slot != "":
			return set, nil, fmt.Errorf("%w: %s: a second %s; give one data set per run", ErrBadInput, n, path.Base(n))
		default:
			*slot = n
		}
	}
	if (set.Submission == "") != (set.CoverPage == "") || (set.InfoTable != "" && set.Submission == "") {
		return set, nil, fmt.Errorf("%w: a Form 13F data set needs SUBMISSION.tsv and COVERPAGE.tsv together (INFOTABLE.tsv with them)", ErrBadInput)
	}
	return set, rest, nil
}

func parseDataSetFiles(open OpenFile, set dataSetNames) ([]holdings.Filing, error) {
	var files DataSetFiles
	for _, p := range []struct {
		name string
		dst  *NamedReader
	}{{set.Submission, &files.Submission}, {set.CoverPage, &files.CoverPage}, {set.InfoTable, &files.InfoTable}} {
		if p.name == "" {
			*p.dst = NamedReader{Name: "INFOTABLE.tsv", R: strings.NewReader(strings.Join(infoTableColumns, "\t") + "\n")}
			continue
		}
		rc, err := open(p.name)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		*p.dst = NamedReader{Name: p.name, R: rc}
	}
	return ParseThirteenFDataSet(files)
}

// addFilingFile parses one .txt or .xml filing file into byAcc.
func addFilingFile(open OpenFile, name string, byAcc map[string]holdings.Filing, fromTSV bool) error {
	rc, err := open(name)
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
		if _, dup := byAcc[f.Accession]; dup {
			return badInput(name, 1, "filing %s is given twice", f.Accession)
		}
		byAcc[f.Accession] = f
	case ".xml":
		return addInformationTable(name, rc, byAcc, fromTSV)
	default:
		return fmt.Errorf("%w: %s: not a 13F file (SUBMISSION.tsv, COVERPAGE.tsv, INFOTABLE.tsv, a full submission .txt or an information table .xml)", ErrBadInput, name)
	}
	return nil
}

func addInformationTable(name string, r io.Reader, byAcc map[string]holdings.Filing, fromTSV bool) error {
	m := accessionInPath.FindString(name)
	if m == "" {
		return badInput(name, 1, "the path names no accession number, so the filing of this information table is unknown")
	}
	acc := strings.ReplaceAll(m, "-", "")
	acc = acc[:10] + "-" + acc[10:12] + "-" + acc[12:]
	f, ok := byAcc[acc]
	switch {
	case !ok:
		return badInput(name, 1, "filing %s is not in the SUBMISSION.tsv and COVERPAGE.tsv given with it", acc)
	case fromTSV && len(f.Holdings) > 0, !fromTSV && f.Holdings != nil:
		return badInput(name, 1, "the rows of filing %s are given twice", acc)
	}
	rows, err := ParseInformationTable(name, r, f, 0)
	if err != nil {
		return err
	}
	f.Holdings = append([]holdings.Holding{}, rows...)
	byAcc[acc] = f
	return nil
}
