// Package replay is the sources' test server: an httptest server that
// serves real recorded files at their real URL paths, answers conditional
// requests, records the User-Agent and time of every request, and fails
// requests on demand in the ways the sources must survive.
package replay

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/sampledata"
)

// Fault is a way one answer fails.
type Fault int

// The faults a source must survive.
const (
	// Cut declares the whole length and closes after half the body.
	Cut Fault = iota + 1
	// Truncated serves the first half of the body as if whole.
	Truncated
	// HTML serves an error page with status 200.
	HTML
	// Unavailable answers 503 with Retry-After: 0.
	Unavailable
	// TooMany answers 429 with Retry-After: 0.
	TooMany
)

// Request is one request the server received.
type Request struct {
	Path, UserAgent string
	At              time.Time
	Conditional     bool
	// API is a Tushare request's api_name and trade_date ("daily
	// 20220601"), Token the token it sent.
	API, Token string
}

// Server serves recorded files.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte
	faults   map[string][]Fault
	requests []Request
	// tushare holds the Tushare API's tables by api_name (AddTushare).
	tushare map[string]tushareTable
}

// New starts a server holding no file, closed when t ends.
func New(t testing.TB) *Server {
	s := &Server{files: map[string][]byte{}, faults: map[string][]Fault{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Add serves body at urlPath.
func (s *Server) Add(urlPath string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files["/"+strings.TrimPrefix(urlPath, "/")] = body
}

// Remove stops serving urlPath: it answers 404.
func (s *Server) Remove(urlPath string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.files, "/"+strings.TrimPrefix(urlPath, "/"))
}

// AddNSE serves the sample's eight real UDiFF days at NSE's paths,
// content/cm/BhavCopy_NSE_CM_0_0_0_YYYYMMDD_F_0000.csv.zip.
func (s *Server) AddNSE(t testing.TB) {
	entries, err := fs.ReadDir(sampledata.NSEUDiFF, sampledata.NSEUDiFFDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		body, err := fs.ReadFile(sampledata.NSEUDiFF, path.Join(sampledata.NSEUDiFFDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		s.Add("content/cm/"+e.Name(), body)
	}
}

// AddEDGAR serves the sample's daily form indexes at EDGAR's paths,
// Archives/edgar/daily-index/YYYY/QTRn/form.YYYYMMDD.idx, and its real
// companyfacts at api/xbrl/companyfacts/CIK##########.json with its
// company_tickers.json at files/company_tickers.json, the sample's filing
// folders (AddFilingFolders), and the 13F-HR submission text file of the
// fund holders sample at its Archives path.
func (s *Server) AddEDGAR(t testing.TB) {
	s.addDir(t, sampledata.EDGARDailyIndex, sampledata.EDGARDailyIndexDir, func(name string) string {
		day := strings.TrimSuffix(strings.TrimPrefix(name, "form."), ".idx")
		month, _ := strconv.Atoi(day[4:6])
		return "Archives/edgar/daily-index/" + day[:4] + "/QTR" + strconv.Itoa((month+2)/3) + "/" + name
	})
	s.addDir(t, sampledata.USFinancials, sampledata.USFinancialsDir, func(name string) string {
		if name == "company_tickers.json" {
			return "files/" + name
		}
		return "api/xbrl/companyfacts/" + name
	})
	body, err := fs.ReadFile(sampledata.FundHolders, "fundholders/0001816616-21-000007.txt")
	if err != nil {
		t.Fatal(err)
	}
	s.Add("Archives/edgar/data/1816616/0001816616-21-000007.txt", body)
	s.AddFilingFolders(t)
}

// AddFilingFolders serves each of the sample's filing folders
// (sampledata/us_filings) at its EDGAR path, the directory.name of its
// index.json (Archives/edgar/data/CIK/ACCESSION/): index.json and the held
// primary document there, and the filer's submissions JSON at
// submissions/CIK##########.json. The held primary documents are excerpts
// (sampledata.USFilingsExcerpts), so index.json is served re-laid, not as
// recorded: the size it lists for an excerpt is blanked (""), as EDGAR
// lists a file of unknown size, since the recorded size is that of the
// whole document, which the replay does not hold.
func (s *Server) AddFilingFolders(t testing.TB) {
	entries, err := fs.ReadDir(sampledata.USFilings, sampledata.USFilingsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		dir := path.Join(sampledata.USFilingsDir, e.Name())
		idx, err := fs.ReadFile(sampledata.USFilings, path.Join(dir, "index.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Directory struct{ Name string } `json:"directory"`
		}
		if err := json.Unmarshal(idx, &doc); err != nil {
			t.Fatal(err)
		}
		at := strings.TrimPrefix(doc.Directory.Name, "/") + "/"
		for _, x := range sampledata.USFilingsExcerpts[e.Name()] {
			idx = regexp.MustCompile(`("name": "`+regexp.QuoteMeta(x)+`", "type": "[^"]*", "size": ")\d+"`).ReplaceAll(idx, []byte(`$1"`))
		}
		s.Add(at+"index.json", idx)
		s.addDir(t, sampledata.USFilings, dir, func(name string) string {
			switch {
			case name == "index.json":
				return ""
			case strings.HasPrefix(name, "CIK"):
				return "submissions/" + name
			}
			return at + name
		})
	}
}

// PageOlderFilings serves the submissions JSON of sample filer cik as
// EDGAR serves a filer's whose filings are older than its recent list:
// its recent filings moved, unchanged, to the page of older filings
// submissions/CIK##########-submissions-001.json (the parallel arrays at
// the top level), which filings.files lists with the days of its first
// and last filing, and filings.recent left empty. Call it after
// AddFilingFolders or AddEDGAR.
func (s *Server) PageOlderFilings(t testing.TB, cik int64) {
	main := fmt.Sprintf("submissions/CIK%010d.json", cik)
	s.mu.Lock()
	body := s.files["/"+main]
	s.mu.Unlock()
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("%s: %v", main, err)
	}
	filings, _ := doc["filings"].(map[string]any)
	recent, _ := filings["recent"].(map[string]any)
	dates, _ := recent["filingDate"].([]any)
	if len(dates) == 0 {
		t.Fatalf("%s lists no recent filing to page", main)
	}
	page := fmt.Sprintf("CIK%010d-submissions-001.json", cik)
	first, last := fmt.Sprint(slices.MinFunc(dates, cmpString)), fmt.Sprint(slices.MaxFunc(dates, cmpString))
	filings["files"] = []any{map[string]any{"name": page, "filingCount": len(dates), "filingFrom": first, "filingTo": last}}
	empty := map[string]any{}
	for k := range recent {
		empty[k] = []any{}
	}
	filings["recent"] = empty
	s.Add("submissions/"+page, mustJSON(t, recent))
	s.Add(main, mustJSON(t, doc))
}

func cmpString(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// addDir serves each file of dir in fsys at the path at names, or not
// when at returns "".
func (s *Server) addDir(t testing.TB, fsys fs.FS, dir string, at func(name string) string) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := at(e.Name())
		if p == "" {
			continue
		}
		body, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		s.Add(p, body)
	}
}

// Fail makes the next answers at urlPath fail, one fault each, in order.
func (s *Server) Fail(urlPath string, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := "/" + strings.TrimPrefix(urlPath, "/")
	s.faults[p] = append(s.faults[p], faults...)
}

// Requests returns every request received, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rec := Request{Path: r.URL.Path, UserAgent: r.UserAgent(), At: time.Now(), Conditional: r.Header.Get("If-None-Match") != ""}
	s.mu.Lock()
	if s.tushare != nil && r.Method == http.MethodPost && r.URL.Path == "/" {
		s.mu.Unlock()
		s.serveTushare(w, r, rec)
		return
	}
	s.requests = append(s.requests, rec)
	body, ok := s.files[r.URL.Path]
	var fault Fault
	if q := s.faults[r.URL.Path]; len(q) > 0 {
		fault, s.faults[r.URL.Path] = q[0], q[1:]
	}
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	if fault == 0 && r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Type", "application/octet-stream")
	answer(w, body, fault)
}

// answer writes body, failing as fault asks.
func answer(w http.ResponseWriter, body []byte, fault Fault) {
	switch fault {
	case Cut:
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body[:len(body)/2])
		return // the server closes the connection short of the length
	case Truncated:
		body = body[:len(body)/2]
	case HTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!DOCTYPE html><html><body>Access Denied</body></html>"))
		return
	case Unavailable, TooMany:
		w.Header().Set("Retry-After", "0")
		status := map[Fault]int{Unavailable: http.StatusServiceUnavailable, TooMany: http.StatusTooManyRequests}[fault]
		http.Error(w, http.StatusText(status), status)
		return
	}
	_, _ = w.Write(body)
}
