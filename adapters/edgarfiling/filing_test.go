package edgarfiling_test

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/quarrydata/quarry/adapters/edgarfiling"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/source"
)

const indexJSON = `{"directory":{"item":[
{"name":"aapl-20240928.htm","type":"text.gif","size":""},
{"name":"aapl-20240928_htm.xml","type":"text.gif","size":"1234"}],
"name":"/Archives/edgar/data/320193/000032019324000123","parent-dir":"/Archives/edgar/data/320193"}}`

const submissionsJSON = `{"cik":"320193","name":"Apple Inc.","tickers":["AAPL"],"filings":{"recent":{
"accessionNumber":["0000320193-24-000123"],"filingDate":["2024-11-01"],"form":["10-K"],"primaryDocument":["aapl-20240928.htm"]}}}`

const report = `<html><body><ix:header><ix:hidden>Item 9. hidden fact</ix:hidden></ix:header>
<table><tr><td>Item 1.</td><td>Business</td><td>1</td></tr><tr><td>Item 1A.</td><td>Risk Factors</td><td>5</td></tr></table>
<div>PART I</div><div><span>Item 1.&#160;&#160;Business</span></div><div>The Company&#8217;s fiscal year ends in September.</div>
<div>See Item 1A below.</div><div><span>Item 1A.&#160;Risk Factors</span></div><div>Risks &amp; more.</div><div>PART II</div></body></html>`

// wholeReport is report with the items that end a 10-K: Item 15, which
// every 10-K has, and the optional Item 16.
var wholeReport = strings.Replace(report, "<div>PART II</div></body>",
	"<div>PART IV</div><div>Item 15.&#160;Exhibit and Financial Statement Schedules</div><div>(a) Documents filed as part of this report.</div>"+
		"<div>Item 16.&#160;Form 10-K Summary</div><div>None.</div></body>", 1)

func TestSplitItemsTakesTheBodyNotTheTableOfContents(t *testing.T) {
	items := edgarfiling.SplitItems([]byte(report), true)
	want := []edgarfiling.ItemText{
		{Number: "1", Text: "Item 1. Business\nThe Company’s fiscal year ends in September.\nSee Item 1A below."},
		{Number: "1A", Text: "Item 1A. Risk Factors\nRisks & more."},
	}
	if len(items) != len(want) {
		t.Fatalf("items = %q", items)
	}
	for i := range want {
		if items[i] != want[i] {
			t.Errorf("item %d = %q, want %q", i, items[i], want[i])
		}
	}
}

func TestSplitItemsReadsPlainText(t *testing.T) {
	items := edgarfiling.SplitItems([]byte("ITEM 1. BUSINESS\nWe make things.\nITEM 7 - MANAGEMENT'S DISCUSSION\nSales rose.\n"), false)
	if len(items) != 2 || items[0].Number != "1" || items[1].Number != "7" || items[1].Text != "ITEM 7 - MANAGEMENT'S DISCUSSION\nSales rose." {
		t.Fatalf("items = %q", items)
	}
}

func TestLoadFiling(t *testing.T) {
	dir := fstest.MapFS{
		"index.json":         {Data: []byte(indexJSON)},
		"CIK0000320193.json": {Data: []byte(submissionsJSON)},
		"aapl-20240928.htm":  {Data: []byte(wholeReport)},
	}
	at := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	f, secs, err := edgarfiling.LoadFiling(edgarfiling.FilingSource{Label: "aapl", Dir: dir, Index: "index.json", Submissions: "CIK0000320193.json"}, at)
	if err != nil {
		t.Fatal(err)
	}
	if f.Accession != "0000320193-24-000123" || f.CIK != "0000320193" || f.Ticker != "AAPL" || f.Form != "10-K" || len(f.Files) != 2 {
		t.Fatalf("filing = %+v", f)
	}
	if p := f.Files[0]; !p.Stored || p.Role != filing.RolePrimary || p.Size != int64(len(wholeReport)) || len(p.SHA256) != 64 || p.ContentType != "text/html" {
		t.Errorf("primary = %+v", p)
	}
	if x := f.Files[1]; x.Stored || x.Role != filing.RoleXBRLInstance || x.Size != 1234 || x.SHA256 != "" {
		t.Errorf("instance = %+v", x)
	}
	if len(secs) != 4 || secs[3].ItemNumber != "16" || secs[1].ID != "0000320193-24-000123/1A" || secs[1].ItemName != "Risk Factors" || !secs[1].Filed.Equal(time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("sections = %+v", secs)
	}
}

func TestLoadFilingRefusesBadInput(t *testing.T) {
	cases := []struct {
		name, index, submissions, primary, says string
	}{
		{"truncated index", indexJSON[:40], submissionsJSON, report, "aapl/index.json:2"},
		{"bad folder", strings.Replace(indexJSON, "000032019324000123", "0000320193", 1), submissionsJSON, report, "directory.name"},
		{"bad size", strings.Replace(indexJSON, `"1234"`, `"12x"`, 1), submissionsJSON, report, "directory.item[1].size"},
		{"duplicate file", strings.Replace(indexJSON, "aapl-20240928_htm.xml", "aapl-20240928.htm", 1), submissionsJSON, report, "duplicate"},
		{"unknown filing", indexJSON, strings.Replace(submissionsJSON, "24-000123", "24-000124", 1), report, "no filing 0000320193-24-000123"},
		{"ragged arrays", indexJSON, strings.Replace(submissionsJSON, `"form":["10-K"]`, `"form":[]`, 1), report, "differ in length"},
		{"bad filing date", indexJSON, strings.Replace(submissionsJSON, "2024-11-01", "2024-11-31", 1), report, "filingDate"},
		{"report without items", indexJSON, submissionsJSON, "<html><body>No items here.</body></html>", "no item headings"},
		{"size differs from index.json", strings.Replace(indexJSON, `"size":""`, `"size":"1503780"`, 1), submissionsJSON, wholeReport[:len(wholeReport)/2],
			"aapl/aapl-20240928.htm: holds 325 bytes, but index.json lists 1503780: the file is cut short"},
		{"body ends before Item 15", indexJSON, submissionsJSON, report, "aapl/aapl-20240928.htm: the 10-K's body ends at Item 1A; a whole 10-K reaches Item 15"},
	}
	for _, tc := range cases {
		dir := fstest.MapFS{
			"index.json":         {Data: []byte(tc.index)},
			"CIK0000320193.json": {Data: []byte(tc.submissions)},
			"aapl-20240928.htm":  {Data: []byte(tc.primary)},
		}
		_, _, err := edgarfiling.LoadFiling(edgarfiling.FilingSource{Label: "aapl", Dir: dir, Index: "index.json", Submissions: "CIK0000320193.json"}, time.Now())
		if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: err = %v, want bad input saying %q", tc.name, err, tc.says)
		}
	}
}

// The bundled sample holds trimmed primary documents under index.json's
// true sizes; only a file declared an excerpt may differ, and an amendment
// need not reach Item 15.
func TestLoadFilingExcerptsAndAmendments(t *testing.T) {
	load := func(index, submissions, primary string, excerpts ...string) (filing.Filing, []filing.Section, error) {
		dir := fstest.MapFS{
			"index.json":         {Data: []byte(index)},
			"CIK0000320193.json": {Data: []byte(submissions)},
			"aapl-20240928.htm":  {Data: []byte(primary)},
		}
		return edgarfiling.LoadFiling(edgarfiling.FilingSource{Label: "aapl", Dir: dir, Index: "index.json", Submissions: "CIK0000320193.json", Excerpts: excerpts}, time.Now())
	}
	listed := strings.Replace(indexJSON, `"size":""`, `"size":"1503780"`, 1)
	if _, _, err := load(listed, submissionsJSON, wholeReport); !errors.Is(err, source.ErrBadInput) {
		t.Fatalf("undeclared excerpt: err = %v, want bad input", err)
	}
	f, _, err := load(listed, submissionsJSON, wholeReport, "aapl-20240928.htm")
	if err != nil || f.Files[0].Size != int64(len(wholeReport)) {
		t.Fatalf("declared excerpt: %+v, %v; want it stored with its own size", f.Files, err)
	}
	if _, _, err := load(listed, submissionsJSON, wholeReport[:len(wholeReport)/2], "aapl-20240928.htm"); err == nil || !strings.Contains(err.Error(), "reaches Item 15") {
		t.Fatalf("an excerpt cut before Item 15: err = %v", err)
	}
	amendment := strings.Replace(submissionsJSON, `"form":["10-K"]`, `"form":["10-K/A"]`, 1)
	if _, secs, err := load(indexJSON, amendment, report); err != nil || len(secs) != 2 {
		t.Fatalf("10-K/A with items 1 and 1A: %d sections, %v", len(secs), err)
	}
}

// olderPage is the sample's filing as EDGAR lists a filing older than a
// submissions JSON's recent list: in a page of its own, the parallel
// arrays at the top level (Tesla's real submissions JSON lists
// CIK0001318605-submissions-001.json, 347 filings of 2005-02-17 to
// 2013-12-10, under filings.files).
const olderPage = `{"accessionNumber":["0000320193-24-000123"],"filingDate":["2024-11-01"],"reportDate":["2024-09-28"],
"form":["10-K"],"primaryDocument":["aapl-20240928.htm"]}`

const pagedSubmissionsJSON = `{"cik":"320193","name":"Apple Inc.","tickers":["AAPL"],"filings":{"recent":{
"accessionNumber":[],"filingDate":[],"form":[],"primaryDocument":[]},
"files":[{"name":"CIK0000320193-submissions-001.json","filingCount":1,"filingFrom":"2024-11-01","filingTo":"2024-11-01"}]}}`

// TestLoadFilingFindsAnOlderFilingInItsPage: a filing its submissions
// JSON no longer lists among the recent ones is read from the page of
// older filings, with the company's name and ticker from the JSON; a
// page of another company's filings does not stand for it.
func TestLoadFilingFindsAnOlderFilingInItsPage(t *testing.T) {
	dir := fstest.MapFS{
		"index.json":                         {Data: []byte(indexJSON)},
		"CIK0000320193.json":                 {Data: []byte(pagedSubmissionsJSON)},
		"CIK0000320193-submissions-001.json": {Data: []byte(olderPage)},
		"CIK0001318605-submissions-001.json": {Data: []byte(olderPage)},
		"aapl-20240928.htm":                  {Data: []byte(wholeReport)},
	}
	load := func(pages ...string) (filing.Filing, error) {
		f, _, err := edgarfiling.LoadFiling(edgarfiling.FilingSource{Label: "aapl", Dir: dir, Index: "index.json",
			Submissions: "CIK0000320193.json", Pages: pages}, time.Now())
		return f, err
	}
	f, err := load("CIK0000320193-submissions-001.json")
	if err != nil || f.Ticker != "AAPL" || f.Form != "10-K" || f.PrimaryDocument != "aapl-20240928.htm" ||
		!f.Filed.Equal(time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("from its page: %+v, %v", f, err)
	}
	for _, pages := range [][]string{nil, {"CIK0001318605-submissions-001.json"}} {
		if _, err := load(pages...); !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "pages of older filings") {
			t.Fatalf("pages %q: %v", pages, err)
		}
	}
}

func FuzzParseSubmissionsPage(f *testing.F) {
	f.Add(olderPage)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := edgarfiling.ParseSubmissionsPage("CIK0000320193-submissions-001.json", strings.NewReader(s))
		if err != nil && !errors.Is(err, source.ErrBadInput) {
			t.Fatalf("error %v is not ErrBadInput", err)
		}
		for acc, sub := range got {
			if len(acc) != 20 || sub.CIK != "0000320193" || sub.Filed.IsZero() {
				t.Fatalf("accepted %s: %+v", acc, sub)
			}
		}
	})
}

func FuzzParseFilingIndex(f *testing.F) {
	f.Add(indexJSON)
	f.Fuzz(func(t *testing.T, s string) {
		l, err := edgarfiling.ParseFilingIndex("index.json", strings.NewReader(s))
		if err != nil && !errors.Is(err, source.ErrBadInput) {
			t.Fatalf("error %v is not ErrBadInput", err)
		}
		if err == nil && (len(l.Items) == 0 || len(l.Accession) != 20) {
			t.Fatalf("accepted a listing without files or accession: %+v", l)
		}
	})
}

func FuzzSplitItems(f *testing.F) {
	f.Add(report, true)
	f.Fuzz(func(t *testing.T, doc string, isHTML bool) {
		for _, it := range edgarfiling.SplitItems([]byte(doc), isHTML) {
			if _, ok := filing.ItemName(it.Number); !ok || !strings.HasPrefix(strings.ToUpper(it.Text), "ITEM") {
				t.Fatalf("item %q does not open with its heading: %q", it.Number, it.Text)
			}
		}
	})
}
