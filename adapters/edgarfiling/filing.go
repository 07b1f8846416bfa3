// Package edgarfiling reads a filing as downloaded from the SEC's EDGAR
// archive: the folder's index.json, the filer's submissions JSON
// (CIK##########.json) and the files fetched, with their sizes, hashes and
// media types, and splits the primary document of a report organised in
// Form 10-K items into its item sections. A problem anywhere refuses the
// filing, naming the file and the line or JSON path.
package edgarfiling

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/source"
)

// IndexListing is an EDGAR filing index.json: the filing's folder and the
// files EDGAR lists in it.
type IndexListing struct {
	CIK       string // 10 digits
	Accession string // dashed
	Items     []ListedFile
}

// ListedFile is one item of index.json; Size is -1 where EDGAR gives none.
type ListedFile struct {
	Name string
	Size int64
}

type indexJSON struct {
	Directory *struct {
		Name  string `json:"name"`
		Items []struct {
			Name string `json:"name"`
			Type string `json:"type"`
			Size string `json:"size"`
			// last-modified is read and not used: EDGAR's listing time is
			// not the filing's acceptance time.
			LastModified string `json:"last-modified"`
		} `json:"item"`
		ParentDir string `json:"parent-dir"`
	} `json:"directory"`
}

var filingDir = regexp.MustCompile(`^/Archives/edgar/data/(\d{1,10})/(\d{18})$`)

// ParseFilingIndex reads an EDGAR index.json. The whole file is checked and
// refused on the first problem, named by its line (syntax) or JSON path.
func ParseFilingIndex(file string, r io.Reader) (IndexListing, error) {
	raw, err := source.ReadAll(file, r, source.MaxDocumentBytes)
	if errors.Is(err, source.ErrBadInput) {
		return IndexListing{}, err
	}
	if err != nil {
		return IndexListing{}, source.AtLine(file, 0, "reading: %v", err)
	}
	var doc indexJSON
	if err := json.Unmarshal(raw, &doc); err != nil {
		return IndexListing{}, edgarJSONError(file, raw, err)
	}
	if doc.Directory == nil {
		return IndexListing{}, source.AtPath(file, "directory", "missing")
	}
	m := filingDir.FindStringSubmatch(doc.Directory.Name)
	if m == nil {
		return IndexListing{}, source.AtPath(file, "directory.name", "%s is not /Archives/edgar/data/<cik>/<18-digit accession>", source.Quote(doc.Directory.Name))
	}
	cik, err := edgar.ParseCIK(m[1])
	if err != nil {
		return IndexListing{}, source.AtPath(file, "directory.name", "%v", err)
	}
	acc, _ := edgar.ParseAccession(m[2])
	out := IndexListing{CIK: cik, Accession: acc}
	seen := map[string]bool{}
	for i, it := range doc.Directory.Items {
		p := fmt.Sprintf("directory.item[%d]", i)
		if it.Name == "" || strings.ContainsAny(it.Name, "/\\") || it.Name == "." || it.Name == ".." {
			return IndexListing{}, source.AtPath(file, p+".name", "%s is not a file name", source.Quote(it.Name))
		}
		if seen[it.Name] {
			return IndexListing{}, source.AtPath(file, p+".name", "duplicate file %s", source.Quote(it.Name))
		}
		seen[it.Name] = true
		size := int64(-1)
		if it.Size != "" {
			if size, err = strconv.ParseInt(it.Size, 10, 64); err != nil || size < 0 {
				return IndexListing{}, source.AtPath(file, p+".size", "%s is not a byte count", source.Quote(it.Size))
			}
		}
		out.Items = append(out.Items, ListedFile{Name: it.Name, Size: size})
	}
	if len(out.Items) == 0 {
		return IndexListing{}, source.AtPath(file, "directory.item", "lists no files")
	}
	return out, nil
}

// filingColumns are EDGAR's parallel arrays of filings: a submissions
// JSON's filings.recent, and the whole of a page of older filings.
type filingColumns struct {
	Accession  []string `json:"accessionNumber"`
	Filed      []string `json:"filingDate"`
	ReportDate []string `json:"reportDate"`
	Form       []string `json:"form"`
	Primary    []string `json:"primaryDocument"`
}

type submissionsJSON struct {
	CIK     json.Number `json:"cik"`
	Name    string      `json:"name"`
	Tickers []string    `json:"tickers"`
	Filings *struct {
		Recent *filingColumns `json:"recent"`
	} `json:"filings"`
}

// ParseSubmissions reads the SEC submissions JSON of a company
// (CIK##########.json) and returns the facts of each recent filing by
// accession number. The parallel arrays must agree in length.
func ParseSubmissions(file string, r io.Reader) (map[string]edgar.Submission, error) {
	m, err := parseMain(file, r)
	if err != nil {
		return nil, err
	}
	return readColumns(file, "filings.recent", m.recent, m.company)
}

// submissionsMain is what a submissions JSON says of its company (CIK,
// name, ticker) and the columns of its recent filings.
type submissionsMain struct {
	company edgar.Submission
	recent  filingColumns
}

func parseMain(file string, r io.Reader) (submissionsMain, error) {
	raw, err := readJSON(file, r)
	if err != nil {
		return submissionsMain{}, err
	}
	var doc submissionsJSON
	if err := decodeJSON(file, raw, &doc); err != nil {
		return submissionsMain{}, err
	}
	if doc.Filings == nil || doc.Filings.Recent == nil {
		return submissionsMain{}, source.AtPath(file, "filings.recent", "missing")
	}
	cik, err := edgar.ParseCIK(doc.CIK.String())
	if err != nil {
		return submissionsMain{}, source.AtPath(file, "cik", "%v", err)
	}
	company := edgar.Submission{CIK: cik, Name: strings.TrimSpace(doc.Name)}
	if len(doc.Tickers) > 0 {
		if company.Ticker, err = edgar.ParseTicker(doc.Tickers[0]); err != nil {
			return submissionsMain{}, source.AtPath(file, "tickers[0]", "%v", err)
		}
	}
	return submissionsMain{company: company, recent: *doc.Filings.Recent}, nil
}

// pageName is the name EDGAR gives a page of a company's older filings,
// listed in its submissions JSON's filings.files.
var pageName = regexp.MustCompile(`^CIK(\d{10})-submissions-\d{3}\.json$`)

// IsSubmissionsPage reports whether name is a page of older filings.
func IsSubmissionsPage(name string) bool { return pageName.MatchString(path.Base(name)) }

// ParseSubmissionsPage reads a page of a company's older filings
// (CIK##########-submissions-NNN.json: the parallel arrays of
// filings.recent, at the top level) and returns the facts of each filing
// by accession number. The page holds no company name or ticker; the CIK
// is the one its name carries.
func ParseSubmissionsPage(file string, r io.Reader) (map[string]edgar.Submission, error) {
	m := pageName.FindStringSubmatch(path.Base(file))
	if m == nil {
		return nil, source.AtLine(file, 0, "not a page of older filings: its name is not CIK##########-submissions-NNN.json")
	}
	raw, err := readJSON(file, r)
	if err != nil {
		return nil, err
	}
	var cols filingColumns
	if err := decodeJSON(file, raw, &cols); err != nil {
		return nil, err
	}
	return readColumns(file, "", cols, edgar.Submission{CIK: m[1]})
}

// readJSON reads a whole JSON file of at most source.MaxDocumentBytes.
func readJSON(file string, r io.Reader) ([]byte, error) {
	raw, err := source.ReadAll(file, r, source.MaxDocumentBytes)
	if errors.Is(err, source.ErrBadInput) {
		return nil, err
	}
	if err != nil {
		return nil, source.AtLine(file, 0, "reading: %v", err)
	}
	return raw, nil
}

// decodeJSON decodes raw into v, numbers kept as written.
func decodeJSON(file string, raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return edgarJSONError(file, raw, err)
	}
	return nil
}

// readColumns reads the filings of cols, found at JSON path at, as
// filings of company (its CIK, name and ticker).
func readColumns(file, at string, cols filingColumns, company edgar.Submission) (map[string]edgar.Submission, error) {
	n := len(cols.Accession)
	if len(cols.Filed) != n || len(cols.Form) != n || len(cols.Primary) != n || (cols.ReportDate != nil && len(cols.ReportDate) != n) {
		return nil, source.AtPath(file, at, "accessionNumber, filingDate, reportDate, form and primaryDocument differ in length")
	}
	out := make(map[string]edgar.Submission, n)
	for i := range n {
		p := fmt.Sprintf("%s[%d]", at, i)
		acc, err := edgar.ParseAccession(cols.Accession[i])
		if err != nil {
			return nil, source.AtPath(file, p+".accessionNumber", "%v", err)
		}
		filed, err := time.Parse(time.DateOnly, cols.Filed[i])
		if err != nil {
			return nil, source.AtPath(file, p+".filingDate", "%s is not YYYY-MM-DD", source.Quote(cols.Filed[i]))
		}
		report, err := reportDate(cols.ReportDate, i)
		if err != nil {
			return nil, source.AtPath(file, p+".reportDate", "%v", err)
		}
		f := company
		f.Form, f.Filed, f.ReportDate, f.PrimaryDocument = strings.ToUpper(cols.Form[i]), filed, report, cols.Primary[i]
		out[acc] = f
	}
	return out, nil
}

// reportDate reads the i-th report date, which is empty for forms that
// report no period.
func reportDate(dates []string, i int) (string, error) {
	if i >= len(dates) || dates[i] == "" {
		return "", nil
	}
	if _, err := time.Parse(time.DateOnly, dates[i]); err != nil {
		return "", fmt.Errorf("%s is not YYYY-MM-DD", source.Quote(dates[i]))
	}
	return dates[i], nil
}

// FilingSource is one filing as downloaded: its index.json, the company's
// submissions JSON, and the folder holding whichever files were fetched.
type FilingSource struct {
	Label       string // the folder's path, for messages
	Dir         fs.FS
	Index       string // file name of index.json in Dir
	Submissions string // file name of the submissions JSON in Dir
	// Pages name the pages of older filings in Dir
	// (CIK##########-submissions-NNN.json), read for a filing older than
	// the submissions JSON's recent list.
	Pages []string
	// Excerpts names held files that are known excerpts of the file
	// index.json lists under the same name (the bundled sample's primary
	// documents): their size may differ from the listed one, and the size
	// and hash stored are the excerpt's. Files downloaded from EDGAR are
	// never excerpts, so a caller reading a user's folder leaves it empty.
	Excerpts []string
}

// LoadFiling reads a downloaded filing: the index of its files, with hashes,
// sizes and media types of the files held, and, for a report organised in
// items, the sections of its primary document. Nothing is written; a
// problem anywhere refuses the whole filing.
func LoadFiling(src FilingSource, retrievedAt time.Time) (filing.Filing, []filing.Section, error) {
	listing, err := parseIn(src, src.Index, ParseFilingIndex)
	if err != nil {
		return filing.Filing{}, nil, err
	}
	facts, err := submission(src, listing.Accession)
	if err != nil {
		return filing.Filing{}, nil, err
	}
	f := filing.Filing{
		Accession: listing.Accession, CIK: listing.CIK, Ticker: facts.Ticker, Form: facts.Form,
		Filed: facts.Filed, PrimaryDocument: facts.PrimaryDocument, RetrievedAt: retrievedAt,
	}
	var primary []byte
	for _, it := range listing.Items {
		file, body, err := describeFile(src, it, f)
		if err != nil {
			return filing.Filing{}, nil, err
		}
		if file.Role == filing.RolePrimary {
			primary = body
		}
		f.Files = append(f.Files, file)
	}
	sections, err := filingSections(src, f, primary)
	return f, sections, err
}

// submission finds the facts of filing acc in the submissions JSON or,
// for a filing older than its recent list, in the pages of older
// filings, with the company's name and ticker from the submissions JSON.
func submission(src FilingSource, acc string) (edgar.Submission, error) {
	m, err := parseIn(src, src.Submissions, parseMain)
	if err != nil {
		return edgar.Submission{}, err
	}
	recent, err := readColumns(path.Join(src.Label, src.Submissions), "filings.recent", m.recent, m.company)
	if err != nil {
		return edgar.Submission{}, err
	}
	if facts, ok := recent[acc]; ok {
		return facts, nil
	}
	for _, page := range src.Pages {
		older, err := parseIn(src, page, ParseSubmissionsPage)
		if err != nil {
			return edgar.Submission{}, err
		}
		if facts, ok := older[acc]; ok && facts.CIK == m.company.CIK {
			facts.Name, facts.Ticker = m.company.Name, m.company.Ticker
			return facts, nil
		}
	}
	return edgar.Submission{}, source.AtLine(path.Join(src.Label, src.Submissions), 0, "no filing %s in filings.recent or in the %d pages of older filings", acc, len(src.Pages))
}

func parseIn[T any](src FilingSource, name string, parse func(string, io.Reader) (T, error)) (T, error) {
	return parseFile(path.Join(src.Label, name), func() (io.ReadCloser, error) { return src.Dir.Open(name) }, parse)
}

// parseFile opens a file and parses it under label, the name errors cite.
func parseFile[T any](label string, open func() (io.ReadCloser, error), parse func(string, io.Reader) (T, error)) (T, error) {
	r, err := open()
	if err != nil {
		var zero T
		return zero, source.AtLine(label, 0, "%v", err)
	}
	defer r.Close()
	return parse(label, r)
}

// describeFile reads one listed file if it is held. A listed file that was
// not fetched is not stored: its size is EDGAR's, its hash unknown. A held
// file must have the size index.json lists for it, unless it is a declared
// excerpt: a file cut short in the download, or another file under the
// same name, would otherwise be stored, hashed and split as if whole.
// (EDGAR's index.json gives no digest, so the size is all there is to
// check.)
func describeFile(src FilingSource, it ListedFile, f filing.Filing) (filing.File, []byte, error) {
	out := filing.File{
		Name: it.Name, Role: filing.RoleOf(it.Name, f.Accession, f.PrimaryDocument),
		Size: it.Size, ContentType: contentTypeByName(it.Name),
	}
	body, err := fs.ReadFile(src.Dir, it.Name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if out.ContentType == "" {
			out.ContentType = "application/octet-stream"
		}
		return out, nil, nil
	case err != nil:
		return filing.File{}, nil, source.AtLine(path.Join(src.Label, it.Name), 0, "%v", err)
	}
	if it.Size >= 0 && int64(len(body)) != it.Size && !slices.Contains(src.Excerpts, it.Name) {
		return filing.File{}, nil, source.Whole(path.Join(src.Label, it.Name),
			"holds %d bytes, but index.json lists %d: the file is cut short or is not the one EDGAR lists", len(body), it.Size)
	}
	sum := sha256.Sum256(body)
	out.Stored, out.SHA256, out.Size = true, hex.EncodeToString(sum[:]), int64(len(body))
	if out.ContentType == "" {
		out.ContentType = http.DetectContentType(body)
	}
	return out, body, nil
}

// contentTypes maps the extensions EDGAR folders hold to media types; the
// content sniffer guesses XML as text and misses XBRL entirely.
var contentTypes = map[string]string{
	".htm": "text/html", ".html": "text/html", ".xml": "application/xml", ".xsd": "application/xml",
	".txt": "text/plain", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".png": "image/png", ".pdf": "application/pdf", ".json": "application/json", ".zip": "application/zip",
	".css": "text/css", ".js": "text/javascript",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}

func contentTypeByName(name string) string { return contentTypes[strings.ToLower(path.Ext(name))] }

// filingSections splits a report's primary document into its items. A
// report organised in items whose primary document is held must yield
// some, and an original annual report's body must reach its final item
// (filing.FinalItem): a document that stops before it is cut short.
func filingSections(src FilingSource, f filing.Filing, primary []byte) ([]filing.Section, error) {
	if !filing.SplitsIntoItems(f.Form) || primary == nil {
		return nil, nil
	}
	isHTML := contentTypeByName(f.PrimaryDocument) == "text/html"
	items := SplitItems(primary, isHTML)
	if len(items) == 0 {
		return nil, source.AtLine(path.Join(src.Label, f.PrimaryDocument), 0, "no item headings (\"Item 1. Business\" ...) found in the %s", f.Form)
	}
	if last := items[len(items)-1].Number; filing.EndsAtFinalItem(f.Form) && filing.ItemRank(last) < filing.ItemRank(filing.FinalItem) {
		final, _ := filing.ItemName(filing.FinalItem)
		return nil, source.Whole(path.Join(src.Label, f.PrimaryDocument),
			"the %s's body ends at Item %s; a whole %s reaches Item %s (%s): the document is cut short", f.Form, last, f.Form, filing.FinalItem, final)
	}
	out := make([]filing.Section, len(items))
	for i, it := range items {
		name, _ := filing.ItemName(it.Number)
		out[i] = filing.Section{
			ID: filing.SectionID(f.Accession, it.Number), Accession: f.Accession, CIK: f.CIK, Ticker: f.Ticker,
			Form: f.Form, Filed: f.Filed, ItemNumber: it.Number, ItemName: name, Text: it.Text, RetrievedAt: f.RetrievedAt,
		}
	}
	return out, nil
}

// edgarJSONError names the line of a syntax error, or the field of a type error.
func edgarJSONError(file string, raw []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return source.AtLine(file, edgarJSONLine(raw, syn.Offset), "%v", syn)
	case errors.As(err, &typ):
		return source.AtLine(file, edgarJSONLine(raw, typ.Offset), "%s: %v", typ.Field, typ)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return source.AtLine(file, edgarJSONLine(raw, int64(len(raw))), "truncated JSON")
	}
	return source.AtLine(file, 0, "%v", err)
}

func edgarJSONLine(raw []byte, offset int64) int {
	offset = min(max(offset, 0), int64(len(raw)))
	return 1 + bytes.Count(raw[:offset], []byte{'\n'})
}
