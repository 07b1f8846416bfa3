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
		"aapl-20240928.htm":  {Data: []byte(report)},
	}
	at := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	f, secs, err := edgarfiling.LoadFiling(edgarfiling.FilingSource{Label: "aapl", Dir: dir, Index: "index.json", Submissions: "CIK0000320193.json"}, at)
	if err != nil {
		t.Fatal(err)
	}
	if f.Accession != "0000320193-24-000123" || f.CIK != "0000320193" || f.Ticker != "AAPL" || f.Form != "10-K" || len(f.Files) != 2 {
		t.Fatalf("filing = %+v", f)
	}
	if p := f.Files[0]; !p.Stored || p.Role != filing.RolePrimary || p.Size != int64(len(report)) || len(p.SHA256) != 64 || p.ContentType != "text/html" {
		t.Errorf("primary = %+v", p)
	}
	if x := f.Files[1]; x.Stored || x.Role != filing.RoleXBRLInstance || x.Size != 1234 || x.SHA256 != "" {
		t.Errorf("instance = %+v", x)
	}
	if len(secs) != 2 || secs[1].ID != "0000320193-24-000123/1A" || secs[1].ItemName != "Risk Factors" || !secs[1].Filed.Equal(time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)) {
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
