package edgarsource

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/internal/fetch"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// FolderPath is where EDGAR serves the folder of the filing whose form
// index row names file (edgar/data/CIK/ACCESSION.txt): under the filer's
// CIK, the accession number without its dashes.
func FolderPath(cik int64, file string) string {
	acc := strings.TrimSuffix(path.Base(file), ".txt")
	return fmt.Sprintf("Archives/edgar/data/%d/%s/", cik, strings.ReplaceAll(acc, "-", ""))
}

// SubmissionsPath is where the SEC serves a company's submissions JSON.
func SubmissionsPath(cik int64) string { return fmt.Sprintf("submissions/CIK%010d.json", cik) }

// folders fetches, for every filing of a statement form, its folder as
// `quarry ingest us_filing_indexes` reads one: index.json, the filer's
// submissions JSON and the primary document. A filing EDGAR holds no
// folder for, or the filer's submissions JSON does not list among its
// recent filings (one older than the JSON's recent list), is skipped and
// logged, as is one whose index.json does not list the primary document
// the submissions JSON names.
func (s *Source) folders(ctx context.Context, filings []Filing, p *progress) ([]ports.SourceFile, error) {
	var out []ports.SourceFile
	subs := map[int64]fetchedSubmissions{}
	for _, f := range filings {
		if !slices.Contains(statementForms, f.Form) {
			continue
		}
		files, err := s.folder(ctx, f, subs)
		p.done()
		if errors.Is(err, errNotHeld) {
			p.skip("a filing folder", zap.String("filing", f.File), zap.String("reason", err.Error()))
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	return out, nil
}

// errNotHeld: EDGAR does not hold what a filing's folder needs.
var errNotHeld = errors.New("not held")

// fetchedSubmissions is a filer's submissions JSON fetched once a day,
// with the pages of older filings fetched so far.
type fetchedSubmissions struct {
	file ports.SourceFile
	Submissions
	pages map[string]fetchedPage
}

// fetchedPage is a page of older filings, fetched once a day.
type fetchedPage struct {
	file    ports.SourceFile
	primary map[string]string
}

// folder fetches one filing's folder; its files share the folder
// CIK/ACCESSION, which the loader keeps them in.
func (s *Source) folder(ctx context.Context, f Filing, subs map[int64]fetchedSubmissions) ([]ports.SourceFile, error) {
	dir := FolderPath(f.CIK, f.File)
	acc := strings.TrimSuffix(path.Base(f.File), ".txt")
	var sizes map[string]int64
	idx, err := s.www.Get(ctx, dir+"index.json", func(body []byte) (err error) {
		sizes, err = CheckFolderIndex(body, f.CIK, acc)
		return err
	})
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fmt.Errorf("no folder index.json: %w", errNotHeld)
	}
	if err != nil {
		return nil, err
	}
	sub, err := s.submissions(ctx, f.CIK, subs)
	if err != nil {
		return nil, err
	}
	primary, page, err := s.primaryDocument(ctx, f, acc, sub)
	if err != nil {
		return nil, err
	}
	size, listed := sizes[primary]
	switch {
	case primary == "":
		return nil, fmt.Errorf("%s lists no filing %s among its recent ones or in its pages of older filings: %w", SubmissionsPath(f.CIK), acc, errNotHeld)
	case !listed:
		return nil, fmt.Errorf("%s does not list the primary document %q: %w", idx.URL, primary, errNotHeld)
	}
	doc, err := s.www.GetPage(ctx, dir+primary, checkDocument(primary, size))
	if err != nil {
		return nil, err
	}
	folder := strings.TrimSuffix(strings.TrimPrefix(dir, "Archives/edgar/data/"), "/")
	file := func(name string, r ports.SourceFile) ports.SourceFile {
		r.Dataset, r.Name, r.Folder = string(dataset.USFilingIndexes), name, folder
		return r
	}
	files := []ports.SourceFile{
		file("index.json", spooled("", "", idx)),
		file(path.Base(SubmissionsPath(f.CIK)), sub.file),
		file(primary, spooled("", "", doc)),
	}
	if page.file.URL != "" {
		files = append(files, file(path.Base(page.file.URL), page.file))
	}
	return files, nil
}

// primaryDocument is the primary document of filing acc as the filer's
// submissions JSON lists it among its recent filings or, for an older
// filing, as the page of older filings whose range holds its day does
// (that page is returned too, to be stored beside it). Empty when
// neither lists it.
func (s *Source) primaryDocument(ctx context.Context, f Filing, acc string, sub fetchedSubmissions) (string, fetchedPage, error) {
	if primary := sub.Primary[acc]; primary != "" {
		return primary, fetchedPage{}, nil
	}
	day := f.Filed[:4] + "-" + f.Filed[4:6] + "-" + f.Filed[6:]
	for _, p := range sub.Pages {
		if day < p.From || day > p.To {
			continue
		}
		page, err := s.page(ctx, f.CIK, p.Name, sub.pages)
		if err != nil {
			return "", fetchedPage{}, err
		}
		if primary := page.primary[acc]; primary != "" {
			return primary, page, nil
		}
	}
	return "", fetchedPage{}, nil
}

// page fetches a page of cik's older filings, once a day.
func (s *Source) page(ctx context.Context, cik int64, name string, seen map[string]fetchedPage) (fetchedPage, error) {
	if got, ok := seen[name]; ok {
		return got, nil
	}
	var primary map[string]string
	res, err := s.data.Get(ctx, "submissions/"+name, func(body []byte) (err error) {
		primary, err = CheckSubmissionsPage(body)
		return err
	})
	if errors.Is(err, ports.ErrNotFound) {
		return fetchedPage{}, fmt.Errorf("no submissions/%s: %w", name, errNotHeld)
	}
	if err != nil {
		return fetchedPage{}, err
	}
	got := fetchedPage{file: spooled("", "", res), primary: primary}
	seen[name] = got
	return got, nil
}

// submissions fetches a filer's submissions JSON, once a day.
func (s *Source) submissions(ctx context.Context, cik int64, seen map[int64]fetchedSubmissions) (fetchedSubmissions, error) {
	if got, ok := seen[cik]; ok {
		return got, nil
	}
	var subs Submissions
	res, err := s.data.Get(ctx, SubmissionsPath(cik), func(body []byte) (err error) {
		subs, err = CheckSubmissions(body, cik)
		return err
	})
	if errors.Is(err, ports.ErrNotFound) {
		return fetchedSubmissions{}, fmt.Errorf("no %s: %w", SubmissionsPath(cik), errNotHeld)
	}
	if err != nil {
		return fetchedSubmissions{}, err
	}
	got := fetchedSubmissions{file: spooled("", "", res), Submissions: subs,
		pages: map[string]fetchedPage{}}
	seen[cik] = got
	return got, nil
}

// folderName reads the folder index.json names: /Archives/edgar/data/CIK/ACCESSION.
var folderName = regexp.MustCompile(`^/Archives/edgar/data/(\d{1,10})/(\d{18})$`)

// CheckFolderIndex refuses a body that is not the whole index.json of
// the folder of cik's filing acc (dashed), and returns the size it lists
// for each file, -1 where it gives none.
func CheckFolderIndex(body []byte, cik int64, acc string) (map[string]int64, error) {
	var doc struct {
		Directory struct {
			Name  string `json:"name"`
			Items []struct {
				Name string `json:"name"`
				Size string `json:"size"`
			} `json:"item"`
		} `json:"directory"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("not a whole filing index.json: %v", err)
	}
	m := folderName.FindStringSubmatch(doc.Directory.Name)
	if m == nil || m[1] != strconv.FormatInt(cik, 10) || m[2] != strings.ReplaceAll(acc, "-", "") {
		return nil, fmt.Errorf("index.json is of folder %q, not of filing %s of CIK %d", doc.Directory.Name, acc, cik)
	}
	sizes := map[string]int64{}
	for _, it := range doc.Directory.Items {
		n, err := strconv.ParseInt(it.Size, 10, 64)
		if err != nil || n < 0 {
			n = -1
		}
		sizes[it.Name] = n
	}
	if len(sizes) == 0 {
		return nil, errors.New("index.json lists no files")
	}
	return sizes, nil
}

// Submissions is what a filer's submissions JSON says of its filings:
// the primary document of each recent filing by its dashed accession
// number, and the pages of its older filings.
type Submissions struct {
	Primary map[string]string
	Pages   []Page
}

// Page is a page of a filer's older filings as filings.files lists it:
// its file name under submissions/ and the days of its first and last
// filing, YYYY-MM-DD.
type Page struct{ Name, From, To string }

// pageName is the name EDGAR gives a page of cik's older filings.
var pageName = regexp.MustCompile(`^CIK(\d{10})-submissions-\d{3}\.json$`)

// primaryColumns are the columns of filings a primary document is read from.
type primaryColumns struct {
	Accession []string `json:"accessionNumber"`
	Primary   []string `json:"primaryDocument"`
}

// CheckSubmissions refuses a body that is not the whole submissions JSON
// of cik, or that lists a page of older filings under a name that is not
// one of cik's pages, and returns what it says of cik's filings.
func CheckSubmissions(body []byte, cik int64) (Submissions, error) {
	var doc struct {
		CIK     json.Number `json:"cik"`
		Filings struct {
			Recent primaryColumns `json:"recent"`
			Files  []struct {
				Name       string `json:"name"`
				FilingFrom string `json:"filingFrom"`
				FilingTo   string `json:"filingTo"`
			} `json:"files"`
		} `json:"filings"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return Submissions{}, fmt.Errorf("not a whole submissions JSON: %v", err)
	}
	if n, err := strconv.ParseInt(doc.CIK.String(), 10, 64); err != nil || n != cik {
		return Submissions{}, fmt.Errorf("not the submissions JSON of CIK %d", cik)
	}
	primary, err := doc.Filings.Recent.byAccession("filings.recent")
	if err != nil {
		return Submissions{}, err
	}
	out := Submissions{Primary: primary}
	for _, f := range doc.Filings.Files {
		m := pageName.FindStringSubmatch(f.Name)
		if m == nil || m[1] != fmt.Sprintf("%010d", cik) {
			return Submissions{}, fmt.Errorf("filings.files lists %q, not a page of CIK %d's older filings", f.Name, cik)
		}
		out.Pages = append(out.Pages, Page{Name: f.Name, From: f.FilingFrom, To: f.FilingTo})
	}
	return out, nil
}

// CheckSubmissionsPage refuses a body that is not a whole page of older
// filings, and returns the primary document of each filing by its dashed
// accession number.
func CheckSubmissionsPage(body []byte) (map[string]string, error) {
	var cols primaryColumns
	if err := json.Unmarshal(body, &cols); err != nil {
		return nil, fmt.Errorf("not a whole page of older filings: %v", err)
	}
	return cols.byAccession("the page")
}

func (c primaryColumns) byAccession(at string) (map[string]string, error) {
	if len(c.Accession) != len(c.Primary) {
		return nil, fmt.Errorf("%s: accessionNumber and primaryDocument differ in length", at)
	}
	out := make(map[string]string, len(c.Accession))
	for i, acc := range c.Accession {
		out[acc] = c.Primary[i]
	}
	return out, nil
}

// checkDocument refuses a primary document of another size than the one
// index.json lists (when it lists one), and an HTML document that does
// not close its html element: both are a document cut short.
func checkDocument(name string, size int64) fetch.FileCheck {
	return func(file string) error {
		st, err := os.Stat(file)
		if err != nil {
			return err
		}
		if size >= 0 && st.Size() != size {
			return fmt.Errorf("%s: %d bytes, but index.json lists %d: cut short", name, st.Size(), size)
		}
		ext := strings.ToLower(path.Ext(name))
		if (ext == ".htm" || ext == ".html") && !opensAndCloses(file, "", "</html>") {
			return fmt.Errorf("%s: the HTML document does not close with </html>: cut short", name)
		}
		return nil
	}
}

// tailBytes is how much of a file's end opensAndCloses reads: the closing
// tag and the whitespace a server may leave after it.
const tailBytes = 4 << 10

// opensAndCloses reports whether file begins with head and ends, past
// trailing whitespace, with tail (compared regardless of case), reading
// only its first and last bytes.
func opensAndCloses(file, head, tail string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	first := make([]byte, len(head))
	if _, err := io.ReadFull(f, first); err != nil || string(first) != head {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	from := max(st.Size()-tailBytes, 0)
	last := make([]byte, st.Size()-from)
	if _, err := f.ReadAt(last, from); err != nil && err != io.EOF {
		return false
	}
	return bytes.HasSuffix(bytes.ToLower(bytes.TrimSpace(last)), bytes.ToLower([]byte(tail)))
}
