package form13f

import (
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
)

// coverPage is what a 13F filing's cover page (primary_doc.xml) says that
// the filer's submissions JSON does not: the period it reports and, for a
// 13F-HR/A, the kind of amendment.
type coverPage struct {
	file      string
	period    string // YYYY-MM-DD
	amendment string // as written; empty when the filing is no amendment
}

type coverPageXML struct {
	XMLName   xml.Name
	Period    string `xml:"formData>coverPage>reportCalendarOrQuarter"`
	Amendment string `xml:"formData>coverPage>amendmentInfo>amendmentType"`
}

// parseCoverPage reads a 13F cover page, the edgarSubmission document EDGAR
// keeps as primary_doc.xml in the filing's folder.
func parseCoverPage(file string, r io.Reader) (coverPage, error) {
	dec := xml.NewDecoder(r)
	dec.CharsetReader = asciiCharset
	var doc coverPageXML
	if err := dec.Decode(&doc); err != nil {
		line, _ := dec.InputPos()
		return coverPage{}, source.AtLine(file, line, "XML: %v", err)
	}
	if doc.XMLName.Local != "edgarSubmission" {
		return coverPage{}, source.AtLine(file, 1, "root element %s: not a 13F cover page (edgarSubmission)", doc.XMLName.Local)
	}
	period, err := time.Parse("01-02-2006", strings.TrimSpace(doc.Period))
	if err != nil {
		return coverPage{}, source.AtLine(file, 1, "reportCalendarOrQuarter %s is not MM-DD-YYYY", source.Quote(doc.Period))
	}
	return coverPage{file: file, period: period.Format(time.DateOnly), amendment: strings.TrimSpace(doc.Amendment)}, nil
}

// edgarSources identify information tables given without a data set: the
// filers' submissions JSON (CIK##########.json) and the filings' cover
// pages (primary_doc.xml), each cover page in a path naming its accession
// number, as EDGAR's folders do.
type edgarSources struct {
	filings map[string]edgar.Submission
	covers  map[string]coverPage
	read    SubmissionsReader
}

var submissionsName = regexp.MustCompile(`^CIK\d{10}\.json$`)

// readEdgarSources parses the submissions JSON and cover pages among names
// and returns the other names.
func readEdgarSources(open OpenFile, names []string, submissions SubmissionsReader) (edgarSources, []string, error) {
	src := edgarSources{filings: map[string]edgar.Submission{}, covers: map[string]coverPage{}, read: submissions}
	var rest []string
	for _, name := range names {
		var err error
		switch base := source.BaseName(name); {
		case submissionsName.MatchString(base):
			err = src.addSubmissions(open, name)
		case strings.EqualFold(base, "primary_doc.xml"):
			err = src.addCoverPage(open, name)
		default:
			rest = append(rest, name)
		}
		if err != nil {
			return src, nil, err
		}
	}
	return src, rest, nil
}

func (s edgarSources) addSubmissions(open OpenFile, name string) error {
	if s.read == nil {
		return source.Whole(name, "submissions JSON is not read here; give the filings in a Form 13F data set")
	}
	facts, err := parseFile(name, open, s.read)
	if err != nil {
		return err
	}
	for acc, f := range facts {
		s.filings[acc] = f
	}
	return nil
}

func (s edgarSources) addCoverPage(open OpenFile, name string) error {
	acc, ok := accessionOfPath(name)
	if !ok {
		return source.AtLine(name, 1, "the path names no accession number, so the filing of this cover page is unknown")
	}
	cover, err := parseFile(name, open, parseCoverPage)
	if err != nil {
		return err
	}
	s.covers[acc] = cover
	return nil
}

// filing identifies the filing acc of the information table file from the
// submissions JSON, and its period and amendment type from its cover page
// where the JSON gives none.
func (s edgarSources) filing(file, acc string) (holdings.Filing, error) {
	facts, ok := s.filings[acc]
	if !ok {
		return holdings.Filing{}, source.AtLine(file, 1, "filing %s is in no SUBMISSION.tsv and no submissions JSON (CIK##########.json) given with it", acc)
	}
	if facts.Form != "13F-HR" && facts.Form != "13F-HR/A" {
		return holdings.Filing{}, source.AtLine(file, 1, "filing %s is a %s, not a 13F-HR", acc, facts.Form)
	}
	cover, hasCover := s.covers[acc]
	period := facts.ReportDate
	if period == "" {
		period = cover.period
	}
	if period == "" || facts.Name == "" {
		return holdings.Filing{}, source.AtLine(file, 1, "filing %s: its submissions entry lacks the filer's name or the report date, and no cover page (primary_doc.xml) gives the period", acc)
	}
	amendment, err := holdings.ParseAmendment(facts.Form, cover.amendment)
	switch {
	case err != nil && !hasCover:
		return holdings.Filing{}, source.AtLine(file, 1, "filing %s is a 13F-HR/A: give its cover page (primary_doc.xml) for the amendment type", acc)
	case err != nil:
		return holdings.Filing{}, source.AtLine(cover.file, 1, "%v", err)
	}
	return holdings.Filing{
		Accession: acc, FormType: facts.Form, FundCIK: facts.CIK, FundName: facts.Name,
		ReportPeriod: period, FilingDate: facts.Filed.Format(time.DateOnly), Amendment: amendment,
	}, nil
}

// parseFile opens a file and parses it; errors cite its name.
func parseFile[T any](name string, open OpenFile, parse func(string, io.Reader) (T, error)) (T, error) {
	r, err := open(name)
	if err != nil {
		var zero T
		return zero, source.AtLine(name, 0, "%v", err)
	}
	defer r.Close()
	return parse(name, r)
}
