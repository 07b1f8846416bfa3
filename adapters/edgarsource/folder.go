package edgarsource

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.uber.org/zap"

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
func (s *Source) folders(ctx context.Context, filings []Filing) ([]ports.SourceFile, error) {
	var out []ports.SourceFile
	subs := map[int64]fetchedSubmissions{}
	for _, f := range filings {
		if !slices.Contains(statementForms, f.Form) {
			continue
		}
		files, err := s.folder(ctx, f, subs)
		if errors.Is(err, errNotHeld) {
			s.log.Info("edgar: a filing folder is skipped", zap.String("filing", f.File), zap.String("reason", err.Error()))
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

// fetchedSubmissions is a filer's submissions JSON fetched once a day.
type fetchedSubmissions struct {
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
	primary := sub.primary[acc]
	size, listed := sizes[primary]
	switch {
	case primary == "":
		return nil, fmt.Errorf("%s lists no filing %s among its recent ones: %w", SubmissionsPath(f.CIK), acc, errNotHeld)
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
	return []ports.SourceFile{
		file("index.json", ports.SourceFile{URL: idx.URL, Body: idx.Body, RetrievedAt: idx.RetrievedAt}),
		file(path.Base(SubmissionsPath(f.CIK)), sub.file),
		file(primary, ports.SourceFile{URL: doc.URL, Body: doc.Body, RetrievedAt: doc.RetrievedAt}),
	}, nil
}

// submissions fetches a filer's submissions JSON, once a day.
func (s *Source) submissions(ctx context.Context, cik int64, seen map[int64]fetchedSubmissions) (fetchedSubmissions, error) {
	if got, ok := seen[cik]; ok {
		return got, nil
	}
	var primary map[string]string
	res, err := s.data.Get(ctx, SubmissionsPath(cik), func(body []byte) (err error) {
		primary, err = CheckSubmissions(body, cik)
		return err
	})
	if errors.Is(err, ports.ErrNotFound) {
		return fetchedSubmissions{}, fmt.Errorf("no %s: %w", SubmissionsPath(cik), errNotHeld)
	}
	if err != nil {
		return fetchedSubmissions{}, err
	}
	got := fetchedSubmissions{file: ports.SourceFile{URL: res.URL, Body: res.Body, RetrievedAt: res.RetrievedAt}, primary: primary}
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

// CheckSubmissions refuses a body that is not the whole submissions JSON
// of cik, and returns the primary document of each recent filing by its
// dashed accession number.
func CheckSubmissions(body []byte, cik int64) (map[string]string, error) {
	var doc struct {
		CIK     json.Number `json:"cik"`
		Filings struct {
			Recent struct {
				Accession []string `json:"accessionNumber"`
				Primary   []string `json:"primaryDocument"`
			} `json:"recent"`
		} `json:"filings"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a whole submissions JSON: %v", err)
	}
	if n, err := strconv.ParseInt(doc.CIK.String(), 10, 64); err != nil || n != cik {
		return nil, fmt.Errorf("not the submissions JSON of CIK %d", cik)
	}
	rec := doc.Filings.Recent
	if len(rec.Accession) != len(rec.Primary) {
		return nil, errors.New("filings.recent: accessionNumber and primaryDocument differ in length")
	}
	out := make(map[string]string, len(rec.Accession))
	for i, acc := range rec.Accession {
		out[acc] = rec.Primary[i]
	}
	return out, nil
}

// checkDocument refuses a primary document of another size than the one
// index.json lists (when it lists one), and an HTML document that does
// not close its html element: both are a document cut short.
func checkDocument(name string, size int64) func([]byte) error {
	return func(body []byte) error {
		if size >= 0 && int64(len(body)) != size {
			return fmt.Errorf("%s: %d bytes, but index.json lists %d: cut short", name, len(body), size)
		}
		ext := strings.ToLower(path.Ext(name))
		if (ext == ".htm" || ext == ".html") && !bytes.HasSuffix(bytes.ToLower(bytes.TrimSpace(body)), []byte("</html>")) {
			return fmt.Errorf("%s: the HTML document does not close with </html>: cut short", name)
		}
		return nil
	}
}
