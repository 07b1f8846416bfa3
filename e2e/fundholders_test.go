package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

type fundHoldersBody struct {
	Security struct {
		Ticker, CIK, CUSIP, Name string
	} `json:"security"`
	Holders []struct {
		FundCIK         string  `json:"fund_cik"`
		FundName        string  `json:"fund_name"`
		ReportPeriod    string  `json:"report_period"`
		FilingDate      string  `json:"filing_date"`
		AccessionNumber string  `json:"accession_number"`
		Shares          int64   `json:"shares"`
		Value           int64   `json:"value"`
		PutCall         *string `json:"put_call"`
		Discretion      string  `json:"investment_discretion"`
	} `json:"holders"`
	Meta struct {
		Count      int  `json:"count"`
		Limit      int  `json:"limit"`
		Offset     int  `json:"offset"`
		NextOffset *int `json:"next_offset"`
	} `json:"meta"`
}

func fundHolders(t *testing.T, c *client, key, query string) fundHoldersBody {
	t.Helper()
	var out fundHoldersBody
	c.do("GET", "/us/security-fund-holders?"+query, nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &out)
	return out
}

// TestFundHoldersSample looks up the bundled 13F sample by ticker, CUSIP and
// CIK: five filers' Apple positions, from a full submission filed in
// thousands of dollars and from information-table XMLs identified by a
// Form 13F data set, Berkshire Hathaway's twelve rows served as one holder.
func TestFundHoldersSample(t *testing.T) {
	type want struct {
		fund, name, accession, period, filed string
		shares, value                        int64
		putCall, discretion                  string
	}
	holders := []want{
		{"0001067983", "BERKSHIRE HATHAWAY INC", "0000950123-24-002518", "2023-12-31", "2024-02-14", 905560000, 174347466800, "", "DFND"},
		// The restatement of 2023-11-16, which replaced the 13F-HR of 2023-11-14.
		{"0001067983", "BERKSHIRE HATHAWAY INC", "0000950123-23-011029", "2023-09-30", "2023-11-16", 915560382, 156753093002, "", "DFND"},
		{"0001029160", "SOROS FUND MANAGEMENT LLC", "0000902664-26-003507", "2026-06-30", "2026-08-14", 529538, 153227116, "", "SOLE"},
		{"0001603466", "Point72 Asset Management, L.P.", "0000902664-25-005042", "2025-09-30", "2025-11-14", 145600, 37074128, "CALL", "DFND"},
		{"0001816616", "NZS Capital, LLC", "0001816616-21-000007", "2021-09-30", "2021-11-12", 208234, 29465000, "", "SOLE"},
		{"0001603466", "Point72 Asset Management, L.P.", "0000902664-25-005042", "2025-09-30", "2025-11-14", 31900, 8122697, "PUT", "DFND"},
		{"0001994827", "ACORN CREEK CAPITAL LLC", "0001951757-25-000093", "2024-12-31", "2025-01-22", 18577, 4652092, "", "SOLE"},
	}
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "fund@example.com")
			for _, id := range []string{"AAPL", "aapl", "037833100", "320193", "0000320193"} {
				got := fundHolders(t, c, key, "identifier="+id)
				if got.Security.Ticker != "AAPL" || got.Security.CIK != "0000320193" || got.Security.CUSIP != "037833100" || got.Security.Name != "Apple Inc." {
					t.Fatalf("%s: security = %+v", id, got.Security)
				}
				if len(got.Holders) != len(holders) || got.Meta.Count != len(holders) {
					t.Fatalf("%s: holders = %+v", id, got.Holders)
				}
				for i, h := range got.Holders {
					w := holders[i]
					pc := ""
					if h.PutCall != nil {
						pc = *h.PutCall
					}
					if h.FundCIK != w.fund || h.FundName != w.name || h.AccessionNumber != w.accession || h.ReportPeriod != w.period ||
						h.FilingDate != w.filed || h.Shares != w.shares || h.Value != w.value || pc != w.putCall || h.Discretion != w.discretion {
						t.Fatalf("%s: holder %d = %+v, want %+v", id, i, h, w)
					}
				}
			}
			// Point in time: a filing is known from the end of its filing day.
			for q, want := range map[string]int{
				"identifier=AAPL&as_of=2021-11-11":                          0,
				"identifier=AAPL&as_of=2021-11-12T12:00:00Z":                0,
				"identifier=AAPL&as_of=2021-11-12":                          1,
				"identifier=AAPL&as_of=2024-02-13":                          2,
				"identifier=AAPL&as_of=2024-02-14":                          3,
				"identifier=AAPL&as_of=2025-11-14":                          6,
				"identifier=AAPL&start_date=2021-10-01":                     6,
				"identifier=AAPL&end_date=2021-09-30&start_date=2021-09-30": 1,
				"identifier=MSFT&accession_number=0001816616-21-000007":     1,
				"accession_number=0000950123-24-002518":                     1,
			} {
				if got := fundHolders(t, c, key, q); len(got.Holders) != want || got.Meta.Count != want {
					t.Errorf("%s: %d holders of %d, want %d", q, len(got.Holders), got.Meta.Count, want)
				}
			}
			// Berkshire's 2023-09-30 report: the 13F-HR until its restatement
			// two days later, then the restatement; asked for by number, the
			// superseded filing as filed.
			for q, acc := range map[string]string{
				"identifier=AAPL&start_date=2023-09-30&end_date=2023-09-30&as_of=2023-11-13": "",
				"identifier=AAPL&start_date=2023-09-30&end_date=2023-09-30&as_of=2023-11-15": "0000950123-23-010898",
				"identifier=AAPL&start_date=2023-09-30&end_date=2023-09-30&as_of=2023-11-16": "0000950123-23-011029",
				"identifier=AAPL&start_date=2023-09-30&end_date=2023-09-30":                  "0000950123-23-011029",
				"accession_number=0000950123-23-010898":                                      "0000950123-23-010898",
			} {
				got := fundHolders(t, c, key, q)
				switch {
				case acc == "" && len(got.Holders) != 0:
					t.Errorf("%s: holders %+v, want none", q, got.Holders)
				case acc != "" && (len(got.Holders) != 1 || got.Holders[0].AccessionNumber != acc || got.Holders[0].Shares != 915560382):
					t.Errorf("%s: holders %+v, want Berkshire's 915,560,382 shares from %s", q, got.Holders, acc)
				}
			}
			if got := fundHolders(t, c, key, "identifier=AAPL&limit=2&offset=6"); len(got.Holders) != 1 || got.Meta.Count != 1 ||
				got.Holders[0].FundCIK != "0001994827" || got.Meta.NextOffset != nil {
				t.Errorf("last page = %+v", got)
			}
			fundHoldersRefusals(t, c, key)
			st := credits(t, c, session)
			// 5 identifier forms + 16 other lookups succeeded; every refusal cost nothing.
			if st.Balance != 100000-21 {
				t.Fatalf("balance = %d, want %d", st.Balance, 100000-21)
			}
		})
	}
}

func fundHoldersRefusals(t *testing.T, c *client, key string) {
	t.Helper()
	cases := []struct {
		query  string
		status int
		says   string
	}{
		{"", http.StatusBadRequest, "identifier"},
		{"start_date=2021-01-01", http.StatusBadRequest, "identifier"},
		{"identifier=AAPL&start_date=2021-12-31&end_date=2021-01-01", http.StatusBadRequest, "after"},
		{"accession_number=0001816616-21-000007", http.StatusBadRequest, "3 securities"},
		{"identifier=ZZZZ", http.StatusNotFound, "ZZZZ"},
		{"identifier=594918105", http.StatusNotFound, "594918105"},
		{"identifier=038833100", http.StatusNotFound, "038833100"},
		{"identifier=AAPL&accession_number=0000950123-24-005664", http.StatusNotFound, "0000950123-24-005664"},
		{"accession_number=0000950123-24-005664", http.StatusNotFound, "0000950123-24-005664"},
		{"identifier=A!PL", http.StatusUnprocessableEntity, "identifier"},
		{"identifier=", http.StatusUnprocessableEntity, "identifier"},
		{"identifier=AAPL&accession_number=12345", http.StatusUnprocessableEntity, "accession"},
		{"identifier=AAPL&limit=0", http.StatusUnprocessableEntity, "limit"},
		{"identifier=AAPL&limit=1001", http.StatusUnprocessableEntity, "limit"},
		{"identifier=AAPL&offset=-1", http.StatusUnprocessableEntity, "offset"},
		{"identifier=AAPL&start_date=2021-13-01", http.StatusUnprocessableEntity, "start_date"},
		{"identifier=AAPL&as_of=yesterday", http.StatusUnprocessableEntity, "as_of"},
		{"start_date=2021-12-31&end_date=2021-01-01&as_of=bad", http.StatusUnprocessableEntity, "as_of"},
	}
	for _, tc := range cases {
		r := c.do("GET", "/us/security-fund-holders?"+tc.query, nil, apiKey(key)).expect(t, tc.status)
		if !strings.Contains(string(r.Body), tc.says) {
			t.Errorf("%q: body %s does not mention %q", tc.query, r.Body, tc.says)
		}
		if r.Header.Get("X-Credits-Cost") != "0" {
			t.Errorf("%q: charged %s", tc.query, r.Header.Get("X-Credits-Cost"))
		}
	}
}

// Fictional funds for ordering, paging, units and point in time; these
// figures are test fixtures, never shipped as sample data. Each value per
// share is a plausible price ($50 to $200), as holdings.CheckPriceBand
// requires.
const (
	testSubmission = "ACCESSION_NUMBER\tFILING_DATE\tSUBMISSIONTYPE\tCIK\tPERIODOFREPORT\n" +
		"0000000001-22-000001\t14-NOV-2022\t13F-HR\t1\t30-SEP-2022\n" +
		"0000000002-23-000001\t14-FEB-2023\t13F-HR\t2\t31-DEC-2022\n" +
		"0000000003-23-000001\t15-FEB-2023\t13F-HR\t3\t31-DEC-2022\n" +
		"0000000004-23-000001\t15-FEB-2023\t13F-NT\t4\t31-DEC-2022\n"
	testCoverPage = "ACCESSION_NUMBER\tREPORTCALENDARORQUARTER\tFILINGMANAGER_NAME\n" +
		"0000000001-22-000001\t30-SEP-2022\tTEST FUND ONE\n" +
		"0000000002-23-000001\t31-DEC-2022\tTEST FUND TWO\n" +
		"0000000003-23-000001\t31-DEC-2022\tTEST FUND THREE\n" +
		"0000000004-23-000001\t31-DEC-2022\tTEST FUND FOUR\n"
	testInfoTable = "ACCESSION_NUMBER\tINFOTABLE_SK\tNAMEOFISSUER\tTITLEOFCLASS\tCUSIP\tFIGI\tVALUE\tSSHPRNAMT\tSSHPRNAMTTYPE\tPUTCALL\tINVESTMENTDISCRETION\tOTHERMANAGER\tVOTING_AUTH_SOLE\tVOTING_AUTH_SHARED\tVOTING_AUTH_NONE\n" +
		"0000000001-22-000001\t11\tAPPLE INC\tCOM\t037833100\t\t5000\t100000\tSH\t\tSOLE\t\t100000\t0\t0\n" +
		"0000000002-23-000001\t21\tAPPLE INC\tCOM\t037833100\t\t7000000\t40000\tSH\t\tDFND\t1\t0\t40000\t0\n" +
		"0000000002-23-000001\t22\tAPPLE INC\tCALL\t037833100\t\t1000000\t5000\tSH\tCall\tOTR\t\t0\t0\t5000\n" +
		"0000000003-23-000001\t31\tAPPLE INC\tCOM\t037833100\t\t6000000\t30000\tSH\t\tSOLE\t\t30000\t0\t0\n"
)

func writeDataSet(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for name, body := range map[string]string{"SUBMISSION.tsv": testSubmission, "COVERPAGE.tsv": testCoverPage, "INFOTABLE.tsv": testInfoTable} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	return files
}

// TestFundHoldersDataSet ingests a Form 13F data set into MongoDB twice and
// pages through the holders, largest value first.
func TestFundHoldersDataSet(t *testing.T) {
	c, cfg := startApp(t, onDatabases)
	_, key := signIn(t, c, "sets@example.com")
	files := writeDataSet(t)
	for range 2 {
		if err := cli.Ingest(context.Background(), cfg, "us_security_fund_holders", files, io.Discard, nil); err != nil {
			t.Fatalf("ingest: %v", err)
		}
	}
	// The bundled sample's filings for 2023 and later are left out by end_date.
	all := fundHolders(t, c, key, "identifier=AAPL&end_date=2022-12-31")
	var order []string
	for _, h := range all.Holders {
		order = append(order, fmt.Sprintf("%s/%d", h.FundCIK, h.Value))
	}
	want := "0001816616/29465000 0000000002/7000000 0000000003/6000000 0000000001/5000000 0000000002/1000000"
	if strings.Join(order, " ") != want {
		t.Fatalf("order = %v, want %s", order, want)
	}
	if call := all.Holders[4]; call.PutCall == nil || *call.PutCall != "CALL" || call.Discretion != "OTR" {
		t.Fatalf("option row = %+v", call)
	}
	page := fundHolders(t, c, key, "identifier=037833100&end_date=2022-12-31&limit=2&offset=1")
	if len(page.Holders) != 2 || page.Holders[0].FundCIK != "0000000002" || page.Meta.NextOffset == nil || *page.Meta.NextOffset != 3 {
		t.Fatalf("page = %+v", page)
	}
	last := fundHolders(t, c, key, "identifier=037833100&end_date=2022-12-31&limit=2&offset=3")
	if len(last.Holders) != 2 || last.Meta.NextOffset != nil {
		t.Fatalf("last page = %+v", last)
	}
	// Fund three filed a day after fund two: as of 2023-02-14 it is unknown.
	before := fundHolders(t, c, key, "identifier=AAPL&start_date=2022-12-31&as_of=2023-02-14")
	if len(before.Holders) != 2 || before.Holders[0].FundCIK != "0000000002" || before.Holders[1].FundCIK != "0000000002" {
		t.Fatalf("as of 2023-02-14 = %+v", before.Holders)
	}
	after := fundHolders(t, c, key, "identifier=AAPL&start_date=2022-12-31&as_of=2023-02-15")
	if len(after.Holders) != 3 {
		t.Fatalf("as of 2023-02-15 = %+v", after.Holders)
	}
	one := fundHolders(t, c, key, "accession_number=0000000003-23-000001")
	if one.Security.Ticker != "AAPL" || len(one.Holders) != 1 || one.Holders[0].Shares != 30000 {
		t.Fatalf("by accession = %+v", one)
	}
}

// TestFundHoldersRefusesBadFiles checks a truncated data set is refused
// with file and line and leaves the store unchanged.
func TestFundHoldersRefusesBadFiles(t *testing.T) {
	c, cfg := startApp(t, onDatabases)
	_, key := signIn(t, c, "bad@example.com")
	files := writeDataSet(t)
	info := files[0]
	for _, f := range files {
		if filepath.Base(f) == "INFOTABLE.tsv" {
			info = f
		}
	}
	cut := testInfoTable[:len(testInfoTable)-20]
	if err := os.WriteFile(info, []byte(cut), 0o600); err != nil {
		t.Fatal(err)
	}
	err := cli.Ingest(context.Background(), cfg, "us_security_fund_holders", files, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "INFOTABLE.tsv:5") {
		t.Fatalf("ingest of a truncated file = %v", err)
	}
	if got := fundHolders(t, c, key, "identifier=AAPL"); len(got.Holders) != 7 {
		t.Fatalf("a refused file changed the store: %+v", got.Holders)
	}
}
