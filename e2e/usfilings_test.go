package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/sampledata"
)

const (
	aaplAccession = "0000320193-24-000123"
	msftAccession = "0000950170-25-100235"
	nvdaAccession = "0001045810-25-000023"
)

type filingIndexBody struct {
	AccessionNumber string `json:"accession_number"`
	Files           []struct {
		FileName      string  `json:"file_name"`
		Role          string  `json:"role"`
		StorageStatus string  `json:"storage_status"`
		ContentType   string  `json:"content_type"`
		SECURL        string  `json:"sec_url"`
		SHA256        *string `json:"sha256"`
		ByteSize      *int64  `json:"byte_size"`
	} `json:"files"`
	Meta map[string]any `json:"meta"`
}

type searchResultsBody struct {
	Results []struct {
		AccessionNumber string  `json:"accession_number"`
		Ticker          string  `json:"ticker"`
		CIK             string  `json:"cik"`
		FilingType      string  `json:"filing_type"`
		ItemNumber      string  `json:"item_number"`
		ItemName        string  `json:"item_name"`
		Snippet         string  `json:"snippet"`
		Score           float64 `json:"score"`
		SourceOffsets   struct {
			Section    string `json:"section"`
			Start, End int
		} `json:"source_offsets"`
	} `json:"results"`
	Meta struct {
		Count      int  `json:"count"`
		NextOffset *int `json:"next_offset"`
	} `json:"meta"`
}

func TestUSFilingIndex(t *testing.T) {
	primary, err := fs.ReadFile(sampledata.USFilings, "us_filings/aapl-10k-2024/aapl-20240928.htm")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(primary)
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "filings@example.com")
			r := c.do("GET", "/us/filings/"+aaplAccession+"/index", nil, apiKey(key)).expect(t, http.StatusOK)
			if r.Header.Get("X-Credits-Cost") != "1" {
				t.Fatalf("cost = %q", r.Header.Get("X-Credits-Cost"))
			}
			var got filingIndexBody
			r.JSON(t, &got)
			if got.AccessionNumber != aaplAccession || len(got.Files) != 10 || got.Meta["jurisdiction"] != nil || got.Meta["count"] != float64(10) {
				t.Fatalf("index = %+v", got)
			}
			// size is EDGAR's byte count from index.json for a file not held,
			// -1 where index.json gives none (served as null).
			want := map[string]struct {
				role, status, contentType string
				size                      int64
			}{
				"aapl-20240928.htm":           {"primary_document", "stored", "text/html", 0},
				"aapl-20240928_htm.xml":       {"xbrl_instance", "not_stored", "application/xml", 1355849},
				"aapl-20240928.xsd":           {"xbrl_schema", "not_stored", "application/xml", 58200},
				"aapl-20240928_cal.xml":       {"xbrl_linkbase", "not_stored", "application/xml", 150261},
				"aapl-20240928_def.xml":       {"xbrl_linkbase", "not_stored", "application/xml", 232678},
				"aapl-20240928_lab.xml":       {"xbrl_linkbase", "not_stored", "application/xml", 779708},
				"aapl-20240928_pre.xml":       {"xbrl_linkbase", "not_stored", "application/xml", 509625},
				"a10-kexhibit10199282024.htm": {"exhibit", "not_stored", "text/html", 56948},
				"FilingSummary.xml":           {"other", "not_stored", "application/xml", -1},
				"0000320193-24-000123.txt":    {"full_submission", "not_stored", "text/plain", -1},
			}
			for _, f := range got.Files {
				w := want[f.FileName]
				if f.Role != w.role || f.StorageStatus != w.status || f.ContentType != w.contentType ||
					f.SECURL != "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/"+f.FileName {
					t.Errorf("%s = %+v, want %+v", f.FileName, f, w)
				}
				stored := f.StorageStatus == "stored"
				size := int64(-1) // null
				if f.ByteSize != nil {
					size = *f.ByteSize
				}
				if !stored && size != w.size {
					t.Errorf("%s: byte_size %d, want EDGAR's %d (-1: null)", f.FileName, size, w.size)
				}
				if stored != (f.SHA256 != nil) {
					t.Errorf("%s: sha256 %v with status %s", f.FileName, f.SHA256, f.StorageStatus)
				}
				// A held file is described by the bytes held (the excerpt), not
				// by the size index.json gives for EDGAR's file.
				if stored && (*f.SHA256 != hex.EncodeToString(sum[:]) || f.ByteSize == nil || *f.ByteSize != int64(len(primary))) {
					t.Errorf("%s: sha256 %s, size %v; want the bundled file's", f.FileName, *f.SHA256, f.ByteSize)
				}
			}
			for acc, files := range map[string]int{msftAccession: 5, nvdaAccession: 4} {
				var other filingIndexBody
				c.do("GET", "/us/filings/"+acc+"/index", nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &other)
				if other.AccessionNumber != acc || len(other.Files) != files || other.Files[0].StorageStatus == "" {
					t.Errorf("%s index = %+v", acc, other)
				}
			}
			for path, status := range map[string]int{
				"/us/filings/0000320193-24-999999/index": http.StatusNotFound,
				"/us/filings/0000320193-24-12345/index":  http.StatusUnprocessableEntity,
				"/us/filings/AAPL/index":                 http.StatusUnprocessableEntity,
			} {
				if r := c.do("GET", path, nil, apiKey(key)).expect(t, status); r.Header.Get("X-Credits-Cost") != "0" {
					t.Errorf("%s: charged %s", path, r.Header.Get("X-Credits-Cost"))
				}
			}
			if st := credits(t, c, session); st.Balance != 100000-3 {
				t.Fatalf("balance = %d, want three index reads charged", st.Balance)
			}
		})
	}
}

func TestUSSearch(t *testing.T) {
	_, sections, err := ingest.LoadUSFilingsSample()
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]string{}
	for _, s := range sections {
		stored[s.ID] = s.Text
	}
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "search@example.com")
			search := func(body map[string]any, status int) searchResultsBody {
				t.Helper()
				r := c.do("POST", "/us/search", body, apiKey(key)).expect(t, status)
				want := "10"
				if status != http.StatusOK {
					want = "0"
				}
				if r.Header.Get("X-Credits-Cost") != want {
					t.Errorf("%v: cost %s, want %s", body, r.Header.Get("X-Credits-Cost"), want)
				}
				var out searchResultsBody
				if status == http.StatusOK {
					r.JSON(t, &out)
				}
				return out
			}

			res := search(map[string]any{"query": "minority market share smartphone", "ticker": "AAPL"}, http.StatusOK)
			if len(res.Results) == 0 || res.Results[0].ItemNumber != "1A" || res.Results[0].ItemName != "Risk Factors" {
				t.Fatalf("results = %+v", res.Results)
			}
			for i, r := range res.Results {
				if i > 0 && r.Score > res.Results[i-1].Score {
					t.Errorf("result %d scores %v above %v: not ranked", i, r.Score, res.Results[i-1].Score)
				}
				passage := cutText(t, stored[r.SourceOffsets.Section], r.SourceOffsets.Start, r.SourceOffsets.End)
				if passage == "" || !strings.Contains(r.Snippet, passage) {
					t.Errorf("result %d: passage %q not in snippet %q", i, passage, r.Snippet)
				}
				if r.AccessionNumber != aaplAccession || r.Ticker != "AAPL" || r.CIK != "0000320193" || r.FilingType != "10-K" ||
					r.SourceOffsets.Section != filing.SectionID(aaplAccession, r.ItemNumber) {
					t.Errorf("result %d = %+v", i, r)
				}
			}
			top := res.Results[0].SourceOffsets
			if got := cutText(t, stored[top.Section], top.Start, top.End); got != "minority market share in the global smartphone" {
				t.Fatalf("top passage = %q", got)
			}

			// The passage after a curly apostrophe: offsets count characters, not bytes.
			res = search(map[string]any{"query": "headquarters Cupertino", "ticker": "aapl", "item_number": "2", "filed_from": "2024-11-01", "filed_to": "2024-11-01"}, http.StatusOK)
			if len(res.Results) != 1 {
				t.Fatalf("filtered results = %+v", res.Results)
			}
			o := res.Results[0].SourceOffsets
			if got := cutText(t, stored[o.Section], o.Start, o.End); got != "headquarters is located in Cupertino" {
				t.Fatalf("passage = %q", got)
			}
			if res := search(map[string]any{"query": "Cupertino", "filed_to": "2024-10-31"}, http.StatusOK); len(res.Results) != 0 {
				t.Fatalf("filed before the filing: %+v", res.Results)
			}
			page := search(map[string]any{"query": "Company", "limit": 2}, http.StatusOK)
			if page.Meta.Count != 2 || page.Meta.NextOffset == nil || *page.Meta.NextOffset != 2 {
				t.Fatalf("page meta = %+v", page.Meta)
			}

			for _, tc := range []struct{ query, ticker, accession, item string }{
				{"headquarters Redmond Washington", "msft", msftAccession, "2"},
				{"Blackwell GeForce RTX 50 Series", "NVDA", nvdaAccession, "1"},
			} {
				res := search(map[string]any{"query": tc.query, "ticker": tc.ticker}, http.StatusOK)
				if len(res.Results) == 0 || res.Results[0].ItemNumber != tc.item {
					t.Fatalf("%s: results = %+v", tc.ticker, res.Results)
				}
				for _, r := range res.Results {
					if r.AccessionNumber != tc.accession || r.Ticker != strings.ToUpper(tc.ticker) || r.FilingType != "10-K" {
						t.Errorf("%s: result %+v", tc.ticker, r)
					}
				}
			}

			search(map[string]any{"query": "Cupertino", "filed_from": "2024-12-01", "filed_to": "2024-11-01"}, http.StatusBadRequest)
			for _, bad := range []map[string]any{
				{"query": ""}, {"query": "   "}, {"query": strings.Repeat("q", 513)}, {"query": "x", "limit": 0},
				{"query": "x", "limit": 101}, {"query": "x", "item_number": "99"}, {"query": "x", "cik": "abc"},
				{"query": "x", "filed_from": "2024-13-01"},
			} {
				search(bad, http.StatusUnprocessableEntity)
			}
			if st := credits(t, c, session); st.Balance != 100000-6*10 {
				t.Fatalf("balance = %d, want 6 searches charged", st.Balance)
			}
		})
	}
}

// cutText cuts text at [start, end) in code points, failing on a range
// outside it.
func cutText(t *testing.T, text string, start, end int) string {
	t.Helper()
	r := []rune(text)
	if start < 0 || start > end || end > len(r) {
		t.Fatalf("offsets [%d,%d) outside a text of %d characters", start, end, len(r))
	}
	return string(r[start:end])
}

// TestUSSearchFollowsIngestionWhileRunning shows a server on MongoDB making
// sections searchable that `quarry ingest` wrote after it started, without
// a restart.
func TestUSSearchFollowsIngestionWhileRunning(t *testing.T) {
	s := onDatabases
	s.refresh = 100 * time.Millisecond
	c, cfg := startApp(t, s)
	_, key := signIn(t, c, "refresh@example.com")
	probe := map[string]any{"query": "zyzzyva", "ticker": "AAPL"}
	found := func() int {
		var out searchResultsBody
		c.do("POST", "/us/search", probe, apiKey(key)).expect(t, http.StatusOK).JSON(t, &out)
		return len(out.Results)
	}
	if n := found(); n != 0 {
		t.Fatalf("before ingestion: %d results", n)
	}

	// The Apple sample retrieved anew, its Item 4 carrying a word no filing
	// has. A user's folder declares no excerpt, so its index.json lists the
	// size of the document it holds.
	dir := t.TempDir()
	src := sampledata.USFilingsDir + "/aapl-10k-2024"
	primary, err := fs.ReadFile(sampledata.USFilings, src+"/aapl-20240928.htm")
	if err != nil {
		t.Fatal(err)
	}
	primary = []byte(strings.Replace(string(primary), "Not applicable.", "Not applicable. Zyzzyva.", 1))
	for _, name := range []string{"index.json", "CIK0000320193.json", "aapl-20240928.htm"} {
		b, err := fs.ReadFile(sampledata.USFilings, src+"/"+name)
		if err != nil {
			t.Fatal(err)
		}
		switch name {
		case "aapl-20240928.htm":
			b = primary
		case "index.json":
			b = []byte(strings.Replace(string(b), `"size": "1503780"`, fmt.Sprintf(`"size": "%d"`, len(primary)), 1))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := cli.Ingest(context.Background(), cfg, "us_filing_indexes", []string{dir}, io.Discard, nil); err != nil {
		t.Fatalf("ingest: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for found() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the running server never indexed the section ingested after it started")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
