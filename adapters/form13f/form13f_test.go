package form13f_test

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/quarrydata/quarry/adapters/form13f"
	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/sampledata"
)

// Fictional rows in the real data-set layout; the figures are test inputs.
const (
	submissionTSV = "ACCESSION_NUMBER\tFILING_DATE\tSUBMISSIONTYPE\tCIK\tPERIODOFREPORT\n" +
		"0000000001-22-000001\t14-NOV-2022\t13F-HR\t1\t30-SEP-2022\n" +
		"0000000002-23-000001\t14-FEB-2023\t13F-HR/A\t2\t31-DEC-2022\n" +
		"0000000004-23-000001\t15-FEB-2023\t13F-NT\t4\t31-DEC-2022\n"
	coverPageTSV = "ACCESSION_NUMBER\tREPORTCALENDARORQUARTER\tISAMENDMENT\tAMENDMENTTYPE\tFILINGMANAGER_NAME\n" +
		"0000000001-22-000001\t30-SEP-2022\tN\t\tTEST FUND ONE\n" +
		"0000000002-23-000001\t31-DEC-2022\tY\tNEW HOLDINGS\tTEST FUND TWO\n" +
		"0000000004-23-000001\t31-DEC-2022\tN\t\tTEST FUND FOUR\n"
	infoTableTSV = "ACCESSION_NUMBER\tINFOTABLE_SK\tNAMEOFISSUER\tTITLEOFCLASS\tCUSIP\tFIGI\tVALUE\tSSHPRNAMT\tSSHPRNAMTTYPE\tPUTCALL\tINVESTMENTDISCRETION\tOTHERMANAGER\tVOTING_AUTH_SOLE\tVOTING_AUTH_SHARED\tVOTING_AUTH_NONE\n" +
		"0000000001-22-000001\t11\tAPPLE INC\tCOM\t037833100\t\t5000\t100000\tSH\t\tSOLE\t\t100000\t0\t0\n" +
		"0000000002-23-000001\t21\tAPPLE INC\tCOM\t037833100\t\t7000000\t200\tPRN\tCall\tOTR\t1\t0\t200\t0\n"
)

// dataSetFS holds the three tables of a data set under their names.
func dataSetFS(sub, cover, info string) fstest.MapFS {
	return fstest.MapFS{"SUBMISSION.tsv": {Data: []byte(sub)}, "COVERPAGE.tsv": {Data: []byte(cover)}, "INFOTABLE.tsv": {Data: []byte(info)}}
}

var dataSetNames = []string{"SUBMISSION.tsv", "COVERPAGE.tsv", "INFOTABLE.tsv"}

func opener(fsys fs.FS) form13f.OpenFile {
	return func(name string) (io.ReadCloser, error) { return fsys.Open(name) }
}

// parseDataSet reads a data set of these tables as ParseFiles does.
func parseDataSet(sub, cover, info string) ([]holdings.Filing, error) {
	return form13f.ParseFiles(opener(dataSetFS(sub, cover, info)), dataSetNames, nil)
}

func TestParseThirteenFDataSet(t *testing.T) {
	fs, err := parseDataSet(submissionTSV, coverPageTSV, infoTableTSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("filings = %+v (the notice must be skipped)", fs)
	}
	want := []holdings.Holding{
		{Accession: "0000000001-22-000001", Row: 11, FundCIK: "0000000001", FundName: "TEST FUND ONE", ReportPeriod: "2022-09-30",
			FilingDate: "2022-11-14", CUSIP: "037833100", Issuer: "APPLE INC", Class: "COM", Shares: 100_000, ShareType: "SH",
			Value: 5_000_000, Discretion: "SOLE"},
		{Accession: "0000000002-23-000001", Row: 21, FundCIK: "0000000002", FundName: "TEST FUND TWO", ReportPeriod: "2022-12-31",
			FilingDate: "2023-02-14", CUSIP: "037833100", Issuer: "APPLE INC", Class: "COM", Shares: 200, ShareType: "PRN",
			Value: 7_000_000, PutCall: "CALL", Discretion: "OTR"},
	}
	for i, f := range fs {
		if len(f.Holdings) != 1 || f.Holdings[0] != want[i] {
			t.Errorf("filing %d holdings = %+v, want %+v", i, f.Holdings, want[i])
		}
	}
	if fs[0].Amendment != "" || fs[1].FormType != "13F-HR/A" || fs[1].Amendment != holdings.NewHoldings {
		t.Errorf("forms = %q %q, amendments %q %q", fs[0].FormType, fs[1].FormType, fs[0].Amendment, fs[1].Amendment)
	}
}

func TestParseThirteenFDataSetRefuses(t *testing.T) {
	cut := infoTableTSV[:len(infoTableTSV)-12]
	cases := []struct {
		name             string
		sub, cover, info string
		says             string
	}{
		{"truncated line", submissionTSV, coverPageTSV, cut, "INFOTABLE.tsv:3: 11 fields"},
		{"missing column", submissionTSV, coverPageTSV, strings.Replace(infoTableTSV, "CUSIP", "CUSIPS", 1), "INFOTABLE.tsv:1: header lacks column CUSIP"},
		{"bad date", strings.Replace(submissionTSV, "14-NOV-2022", "2022-11-14", 1), coverPageTSV, infoTableTSV, "SUBMISSION.tsv:2: FILING_DATE"},
		{"unknown filing", submissionTSV, coverPageTSV, infoTableTSV + strings.Replace(strings.Split(infoTableTSV, "\n")[1], "0000000001-22", "0000000009-22", 1) + "\n", "INFOTABLE.tsv:4: accession number 0000000009-22-000001"},
		{"bad value", submissionTSV, coverPageTSV, strings.Replace(infoTableTSV, "\t5000\t", "\t5e3\t", 1), "INFOTABLE.tsv:2: value"},
		{"bad discretion", submissionTSV, coverPageTSV, strings.Replace(infoTableTSV, "\tSOLE\t", "\tMINE\t", 1), "INFOTABLE.tsv:2: investment discretion"},
		{"no cover page", submissionTSV, strings.Split(coverPageTSV, "\n")[0] + "\n", infoTableTSV, "SUBMISSION.tsv:2: 0000000001-22-000001 has no row in COVERPAGE.tsv"},
		{"empty", "", coverPageTSV, infoTableTSV, "SUBMISSION.tsv:1: empty"},
		{"amendment without type", submissionTSV, strings.Replace(coverPageTSV, "NEW HOLDINGS", "", 1), infoTableTSV, "COVERPAGE.tsv:3: 0000000002-23-000001: 13F-HR/A amendment type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseDataSet(tc.sub, tc.cover, tc.info)
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v, want one saying %q", err, tc.says)
			}
		})
	}
}

func TestParseInformationTableNamespaces(t *testing.T) {
	f := holdings.Filing{Accession: "0000000001-24-000001", FundCIK: "0000000001", FundName: "F", ReportPeriod: "2023-12-31", FilingDate: "2024-02-14"}
	for _, file := range []string{"testdata/thirteenf/default-namespace.xml", "testdata/thirteenf/prefixed.xml"} {
		t.Run(file, func(t *testing.T) {
			r, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			rows, err := form13f.ParseInformationTable(file, r, f, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := holdings.Holding{Accession: f.Accession, Row: 1, FundCIK: "0000000001", FundName: "F", ReportPeriod: "2023-12-31",
				FilingDate: "2024-02-14", CUSIP: "037833100", Issuer: "TEST ISSUER", Class: "COM", Shares: 10, ShareType: "SH",
				Value: 1500, PutCall: "PUT", Discretion: "DFND"}
			if len(rows) != 1 || rows[0] != want {
				t.Fatalf("rows = %+v", rows)
			}
		})
	}
}

func TestParseInformationTableRefuses(t *testing.T) {
	raw, err := os.ReadFile("testdata/thirteenf/prefixed.xml")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	cases := map[string]string{
		doc[:len(doc)/2]: "prefixed.xml:",
		doc[:strings.Index(doc, "</ns1:informationTable>")]: "prefixed.xml:14: XML: XML syntax error on line 14: unexpected EOF",
		strings.Replace(doc, "037833100", "0378331", 1):     "prefixed.xml:3: infoTable 1: CUSIP",
		"<html><body>no table</body></html>":                "no informationTable",
	}
	for in, says := range cases {
		_, err := form13f.ParseInformationTable("prefixed.xml", strings.NewReader(in), holdings.Filing{FilingDate: "2024-02-14"}, 0)
		if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), says) {
			t.Errorf("err = %v, want one saying %q", err, says)
		}
	}
}

func TestParseFullSubmissionSample(t *testing.T) {
	name := sampledata.FundHoldersFilings[0]
	r, err := sampledata.FundHolders.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := form13f.ParseFullSubmission(name, r)
	if err != nil {
		t.Fatal(err)
	}
	if f.Accession != "0001816616-21-000007" || f.FundCIK != "0001816616" || f.FundName != "NZS Capital, LLC" ||
		f.ReportPeriod != "2021-09-30" || f.FilingDate != "2021-11-12" || len(f.Holdings) != 3 {
		t.Fatalf("filing = %+v", f)
	}
	// Filed in 2021: VALUE is in thousands of dollars.
	if aapl := f.Holdings[2]; aapl.CUSIP != "037833100" || aapl.Value != 29_465_000 || aapl.Shares != 208_234 {
		t.Fatalf("AAPL row = %+v", aapl)
	}
}

func TestParseFullSubmissionRefusesTruncated(t *testing.T) {
	r, err := sampledata.FundHolders.Open(sampledata.FundHoldersFilings[0])
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(r)
	doc := string(raw)
	_, err = form13f.ParseFullSubmission("cut.txt", strings.NewReader(doc[:strings.Index(doc, "</XML>")]))
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "cut.txt:") {
		t.Fatalf("err = %v", err)
	}
	_, err = form13f.ParseFullSubmission("bad.txt", strings.NewReader(strings.Replace(doc, "<ns1:value>29465<", "<ns1:value>29,465<", 1)))
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "bad.txt:") || !strings.Contains(err.Error(), "value") {
		t.Fatalf("err = %v", err)
	}
}

// TestParseFullSubmissionBoundsWhatItHolds: a line past 16 MiB, or an
// information table past source.MaxDocumentBytes made of short lines, is
// refused by file, line and reason rather than held.
func TestParseFullSubmissionBoundsWhatItHolds(t *testing.T) {
	r, err := sampledata.FundHolders.Open(sampledata.FundHoldersFilings[0])
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(r)
	head, _, _ := strings.Cut(string(raw), "<XML>")
	longLine := io.MultiReader(strings.NewReader(head+"<XML>\n"), strings.NewReader(strings.Repeat("x", 16<<20+1)))
	_, err = form13f.ParseFullSubmission("long.txt", longLine)
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "long.txt:") || !strings.Contains(err.Error(), "a line longer than 16 MiB") {
		t.Fatalf("err = %v", err)
	}
	if testing.Short() {
		return // the rest reads 256 MiB of short lines
	}
	manyLines := io.MultiReader(strings.NewReader(head+"<XML>\n"), io.LimitReader(&spaces{}, source.MaxDocumentBytes+(1<<20)))
	_, err = form13f.ParseFullSubmission("big.txt", manyLines)
	if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), "big.txt:") || !strings.Contains(err.Error(), "an information table larger than 256 MiB") {
		t.Fatalf("err = %v", err)
	}
}

// spaces reads as endless short lines.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = " \n"[i%2]
	}
	return len(p), nil
}

func TestParseFullSubmissionAmendment(t *testing.T) {
	r, err := sampledata.FundHolders.Open(sampledata.FundHoldersFilings[0])
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(r)
	amended := strings.Replace(string(raw), "SUBMISSION TYPE:\t13F-HR\n", "SUBMISSION TYPE:\t13F-HR/A\n", 1)
	_, err = form13f.ParseFullSubmission("amended.txt", strings.NewReader(amended))
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "amendment type") {
		t.Fatalf("13F-HR/A without a cover page: err = %v", err)
	}
	// The cover page (primary_doc.xml) names the amendment's type.
	cover := "</SEC-HEADER>\n<DOCUMENT>\n<TYPE>13F-HR/A\n<TEXT>\n<XML>\n<edgarSubmission><formData><coverPage>" +
		"<isAmendment>true</isAmendment><amendmentNo>1</amendmentNo><amendmentInfo><amendmentType>RESTATEMENT</amendmentType>" +
		"</amendmentInfo></coverPage></formData></edgarSubmission>\n</XML>\n</TEXT>\n</DOCUMENT>\n"
	f, err := form13f.ParseFullSubmission("amended.txt", strings.NewReader(strings.Replace(amended, "</SEC-HEADER>\n", cover, 1)))
	if err != nil || f.FormType != "13F-HR/A" || f.Amendment != holdings.Restatement || len(f.Holdings) != 3 {
		t.Fatalf("filing = %+v, %v", f, err)
	}
}

func FuzzParseThirteenFDataSet(f *testing.F) {
	f.Add(infoTableTSV, coverPageTSV)
	f.Add(infoTableTSV[:len(infoTableTSV)/2], coverPageTSV[:len(coverPageTSV)/2])
	f.Fuzz(func(t *testing.T, info, cover string) {
		fs, err := parseDataSet(submissionTSV, cover, info)
		if err != nil && !errors.Is(err, source.ErrBadInput) {
			t.Fatalf("error outside ErrBadInput: %v", err)
		}
		for _, fl := range fs {
			if fl.FormType == "13F-HR/A" && fl.Amendment != holdings.Restatement && fl.Amendment != holdings.NewHoldings {
				t.Fatalf("accepted an amendment of unknown type: %+v", fl)
			}
			for _, h := range fl.Holdings {
				if h.Value < 0 || h.Shares < 0 || len(h.CUSIP) != 9 {
					t.Fatalf("accepted a bad row: %+v", h)
				}
			}
		}
	})
}

func FuzzParseFullSubmission(f *testing.F) {
	r, err := sampledata.FundHolders.Open(sampledata.FundHoldersFilings[0])
	if err != nil {
		f.Fatal(err)
	}
	raw, _ := io.ReadAll(r)
	f.Add(string(raw))
	f.Fuzz(func(t *testing.T, doc string) {
		fl, err := form13f.ParseFullSubmission("fuzz.txt", strings.NewReader(doc))
		if err != nil && !errors.Is(err, source.ErrBadInput) {
			t.Fatalf("error outside ErrBadInput: %v", err)
		}
		for _, h := range fl.Holdings {
			if h.Value < 0 || h.Shares < 0 || h.Accession != fl.Accession {
				t.Fatalf("accepted a bad row: %+v", h)
			}
		}
	})
}

// berkshireFolder holds the bundled Berkshire Hathaway files in their EDGAR
// layout: the filer's submissions JSON, three information tables and the
// restatement's cover page.
func berkshireFolder(t testing.TB) fstest.MapFS {
	t.Helper()
	folder := fstest.MapFS{}
	for _, name := range []string{
		"CIK0001067983.json", "000095012323010898/27893.xml", "000095012323011029/28498.xml",
		"000095012323011029/primary_doc.xml", "000095012324002518/30197.xml",
	} {
		raw, err := fs.ReadFile(sampledata.FundHolders, "fundholders/1067983/"+name)
		if err != nil {
			t.Fatal(err)
		}
		folder[name] = &fstest.MapFile{Data: raw}
	}
	return folder
}

func parseFolder(folder fstest.MapFS, names ...string) ([]holdings.Filing, error) {
	return form13f.ParseFiles(func(name string) (io.ReadCloser, error) { return folder.Open(name) }, names, readSubmissions)
}

func TestParseHoldingsFilesIdentifiesTablesByTheirEdgarFolder(t *testing.T) {
	filings, err := parseFolder(berkshireFolder(t), "CIK0001067983.json", "000095012323011029/primary_doc.xml",
		"000095012323010898/27893.xml", "000095012323011029/28498.xml", "000095012324002518/30197.xml")
	if err != nil {
		t.Fatal(err)
	}
	type id struct{ acc, form, period, filed, amendment string }
	var got []id
	for _, f := range filings {
		if f.FundCIK != "0001067983" || f.FundName != "BERKSHIRE HATHAWAY INC" || len(f.Holdings) != 12 {
			t.Fatalf("filing %s: fund %s %q, %d rows", f.Accession, f.FundCIK, f.FundName, len(f.Holdings))
		}
		got = append(got, id{f.Accession, f.FormType, f.ReportPeriod, f.FilingDate, f.Amendment})
	}
	want := []id{
		{"0000950123-23-010898", "13F-HR", "2023-09-30", "2023-11-14", ""},
		{"0000950123-23-011029", "13F-HR/A", "2023-09-30", "2023-11-16", holdings.Restatement},
		{"0000950123-24-002518", "13F-HR", "2023-12-31", "2024-02-14", ""},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("filings = %+v\nwant      %+v", got, want)
	}
}

func TestParseHoldingsFilesRefusesUnidentifiedTables(t *testing.T) {
	folder := berkshireFolder(t)
	cover := string(folder["000095012323011029/primary_doc.xml"].Data)
	folder["bad/000095012323011029/primary_doc.xml"] = &fstest.MapFile{Data: []byte(strings.Replace(cover, "RESTATEMENT", "CORRECTION", 1))}
	folder["html/000095012323011029/primary_doc.xml"] = &fstest.MapFile{Data: []byte("<html><body>cover</body></html>")}
	cases := []struct {
		names []string
		says  string
	}{
		{[]string{"000095012324002518/30197.xml"}, "30197.xml:1: filing 0000950123-24-002518 is in no SUBMISSION.tsv and no submissions JSON"},
		{[]string{"CIK0001067983.json", "000095012323011029/28498.xml"}, "28498.xml:1: filing 0000950123-23-011029 is a 13F-HR/A: give its cover page"},
		{[]string{"CIK0001067983.json", "bad/000095012323011029/primary_doc.xml", "000095012323011029/28498.xml"}, "bad/000095012323011029/primary_doc.xml:1: 13F-HR/A amendment type \"CORRECTION\""},
		{[]string{"html/000095012323011029/primary_doc.xml"}, "primary_doc.xml:1: root element html"},
		{[]string{"CIK0001067983.json", "000095012324002518/30197.xml", "000095012324002518/30197.xml"}, "the rows of filing 0000950123-24-002518 are given twice"},
	}
	for _, tc := range cases {
		if _, err := parseFolder(folder, tc.names...); !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: err = %v, want one saying %q", tc.names, err, tc.says)
		}
	}
}

func FuzzParseCoverPage(f *testing.F) {
	raw, err := fs.ReadFile(sampledata.FundHolders, "fundholders/1067983/000095012323011029/primary_doc.xml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Fuzz(func(t *testing.T, cover []byte) {
		folder := berkshireFolder(t)
		folder["000095012323011029/primary_doc.xml"] = &fstest.MapFile{Data: cover}
		filings, err := parseFolder(folder, "CIK0001067983.json", "000095012323011029/primary_doc.xml", "000095012323011029/28498.xml")
		if err != nil && !errors.Is(err, source.ErrBadInput) {
			t.Fatalf("error outside ErrBadInput: %v", err)
		}
		for _, fl := range filings {
			if fl.Amendment != holdings.Restatement && fl.Amendment != holdings.NewHoldings {
				t.Fatalf("accepted a 13F-HR/A of unknown amendment type: %+v", fl)
			}
		}
	})
}

// readSubmissions stands in for the reader of EDGAR filing folders, which
// this package must not import: it takes from a submissions JSON only what
// identifies a 13F filing, trusting the bundled file.
func readSubmissions(file string, r io.Reader) (map[string]edgar.Submission, error) {
	var doc struct {
		CIK     json.Number `json:"cik"`
		Name    string      `json:"name"`
		Filings struct {
			Recent struct {
				Accession  []string `json:"accessionNumber"`
				Filed      []string `json:"filingDate"`
				ReportDate []string `json:"reportDate"`
				Form       []string `json:"form"`
			} `json:"recent"`
		} `json:"filings"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, source.Whole(file, "%v", err)
	}
	cik, err := edgar.ParseCIK(doc.CIK.String())
	if err != nil {
		return nil, source.Whole(file, "%v", err)
	}
	out := map[string]edgar.Submission{}
	rec := doc.Filings.Recent
	for i, acc := range rec.Accession {
		filed, _ := time.Parse(time.DateOnly, rec.Filed[i])
		out[acc] = edgar.Submission{CIK: cik, Name: doc.Name, Form: rec.Form[i], Filed: filed, ReportDate: rec.ReportDate[i]}
	}
	return out, nil
}

// A filer that wrote whole dollars before 2023-01-03, when VALUE was in
// thousands, would be served 1,000 times too large: each entry point
// refuses the filing and names it.
func TestImplausiblePricesRefuseTheFiling(t *testing.T) {
	t.Run("data set", func(t *testing.T) {
		dollars := strings.Replace(infoTableTSV, "\t5000\t100000\t", "\t5000000\t100000\t", 1)
		_, err := parseDataSet(submissionTSV, coverPageTSV, dollars)
		if !errors.Is(err, source.ErrBadInput) || !errors.Is(err, holdings.ErrImplausibleValues) ||
			!strings.Contains(err.Error(), "SUBMISSION.tsv:2: values per share are implausible: filing 0000000001-22-000001") ||
			!strings.Contains(err.Error(), "$50000.00") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("full submission", func(t *testing.T) {
		r, err := sampledata.FundHolders.Open(sampledata.FundHoldersFilings[0])
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(r)
		doc := string(raw)
		for _, v := range []string{"72801", "25161", "29465"} {
			doc = strings.Replace(doc, "<ns1:value>"+v+"<", "<ns1:value>"+v+"000<", 1)
		}
		_, err = form13f.ParseFullSubmission("dollars.txt", strings.NewReader(doc))
		if !errors.Is(err, holdings.ErrImplausibleValues) || !strings.Contains(err.Error(), "dollars.txt:") ||
			!strings.Contains(err.Error(), "filing 0001816616-21-000007") || !strings.Contains(err.Error(), "written in dollars") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("information table", func(t *testing.T) {
		folder := berkshireFolder(t)
		table := string(folder["000095012324002518/30197.xml"].Data)
		folder["000095012324002518/30197.xml"].Data = []byte(strings.ReplaceAll(table, "</value>", "000</value>"))
		_, err := parseFolder(folder, "CIK0001067983.json", "000095012324002518/30197.xml")
		if !errors.Is(err, holdings.ErrImplausibleValues) || !strings.Contains(err.Error(), "30197.xml:1: values per share are implausible: filing 0000950123-24-002518") {
			t.Fatalf("err = %v", err)
		}
	})
}
