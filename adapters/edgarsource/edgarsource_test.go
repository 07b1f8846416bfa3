package edgarsource_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/edgarsource"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

const ua = "Quarry test ops@example.org"

var appleDay = time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)

func source(t *testing.T, srv *replay.Server) *edgarsource.Source {
	t.Helper()
	s, err := edgarsource.New(edgarsource.Config{UserAgent: ua, BaseURL: srv.URL + "/", DataBaseURL: srv.URL + "/", Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFetchReturnsTheFilersCompanyfactsWithTheUserAgent(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	files, err := source(t, srv).Fetch(replay.Spooled(t), appleDay)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 5 || files[0].Name != "company_tickers.json" || files[1].Name != "CIK0000320193.json" || files[1].Dataset != "us_financials" {
		t.Fatalf("fetched %+v", files)
	}
	reqs := srv.Requests()
	folder := "/Archives/edgar/data/320193/000032019324000123/"
	want := []string{"/Archives/edgar/daily-index/2024/QTR4/form.20241101.idx", "/files/company_tickers.json", "/api/xbrl/companyfacts/CIK0000320193.json",
		folder + "index.json", "/submissions/CIK0000320193.json", folder + "aapl-20240928.htm"}
	if len(reqs) != len(want) {
		t.Fatalf("%d requests, want %d", len(reqs), len(want))
	}
	for i, r := range reqs {
		if r.Path != want[i] || r.UserAgent != ua {
			t.Fatalf("request %d: %s with User-Agent %q", i, r.Path, r.UserAgent)
		}
	}
}

// TestFetchReturnsTheFilingFolder fetches 2025-07-30, the day Microsoft
// filed its 10-K: its folder's three files share the folder CIK/ACCESSION.
func TestFetchReturnsTheFilingFolder(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	if names := msftFolder(t, srv); !slices.Equal(names, []string{"index.json", "CIK0000789019.json", "msft-20250630.htm"}) {
		t.Fatalf("folder files %v", names)
	}
}

// msftFolder fetches 2025-07-30 from srv and returns the names of the
// files of Microsoft's 10-K folder, failing if one is of another folder.
func msftFolder(t *testing.T, srv *replay.Server) []string {
	t.Helper()
	files, err := source(t, srv).Fetch(replay.Spooled(t), time.Date(2025, 7, 30, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if f.Dataset == "us_filing_indexes" {
			if f.Folder != "789019/000095017025100235" {
				t.Fatalf("%s in folder %q", f.Name, f.Folder)
			}
			names = append(names, f.Name)
		}
	}
	return names
}

// TestFetchReadsAnOlderFilingFromItsPage: a filing its filer's
// submissions JSON no longer lists among the recent ones (met in a long
// backfill) is found in the page of older filings whose range holds its
// day, and that page is fetched with the folder.
func TestFetchReadsAnOlderFilingFromItsPage(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.PageOlderFilings(t, msftCIK)
	names := msftFolder(t, srv)
	if !slices.Equal(names, []string{"index.json", "CIK0000789019.json", "msft-20250630.htm", "CIK0000789019-submissions-001.json"}) {
		t.Fatalf("folder files %v", names)
	}
}

// TestFetchRefusesAPageOfAnotherFiler: filings.files naming a file that
// is not one of the filer's pages refuses the submissions JSON.
func TestFetchRefusesAPageOfAnotherFiler(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Add("submissions/CIK0000789019.json", []byte(`{"cik":"789019","filings":{"recent":{"accessionNumber":[],"primaryDocument":[]},`+
		`"files":[{"name":"../CIK0000320193-submissions-001.json","filingFrom":"2025-07-30","filingTo":"2025-07-30"}]}}`))
	if _, err := source(t, srv).Fetch(replay.Spooled(t), time.Date(2025, 7, 30, 0, 0, 0, 0, time.UTC)); !errors.Is(err, ports.ErrSourceFailed) {
		t.Fatalf("a page of another path: %v", err)
	}
}

func TestFetchRefusesACutPrimaryDocument(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Fail("Archives/edgar/data/789019/000095017025100235/msft-20250630.htm", replay.Truncated)
	day := time.Date(2025, 7, 30, 0, 0, 0, 0, time.UTC)
	if _, err := source(t, srv).Fetch(replay.Spooled(t), day); !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "</html>") {
		t.Fatalf("a primary document served as half: %v", err)
	}
}

// TestFetchSkipsAFilingWithoutFolder: a filing EDGAR holds no folder for
// is logged and skipped; the filer's companyfacts are still fetched.
func TestFetchSkipsAFilingWithoutFolder(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Remove("Archives/edgar/data/789019/000095017025100235/index.json")
	files, err := source(t, srv).Fetch(replay.Spooled(t), time.Date(2025, 7, 30, 0, 0, 0, 0, time.UTC))
	if err != nil || len(files) != 2 {
		t.Fatalf("fetched %d files, %v; want the companyfacts and tickers only", len(files), err)
	}
}

func TestFetchOfAWeekdayWithoutIndexIsNoPublication(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	_, err := source(t, srv).Fetch(replay.Spooled(t), time.Date(2024, 11, 28, 0, 0, 0, 0, time.UTC))
	if !errors.Is(err, ports.ErrNoPublication) {
		t.Fatalf("Thanksgiving: %v", err)
	}
}

func TestFetchRefusesACutCompanyfacts(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Fail("api/xbrl/companyfacts/CIK0000320193.json", replay.Truncated)
	if _, err := source(t, srv).Fetch(replay.Spooled(t), appleDay); !errors.Is(err, ports.ErrSourceFailed) {
		t.Fatalf("a companyfacts served as half: %v", err)
	}
}

func TestFetchRefusesACutSubmissionText(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Fail("Archives/edgar/data/1816616/0001816616-21-000007.txt", replay.Truncated)
	day := time.Date(2021, 11, 12, 0, 0, 0, 0, time.UTC)
	if _, err := source(t, srv).Fetch(replay.Spooled(t), day); !errors.Is(err, ports.ErrSourceFailed) {
		t.Fatalf("a 13F-HR served as half: %v", err)
	}
	files, err := source(t, srv).Fetch(replay.Spooled(t), day)
	if err != nil || len(files) != 1 || files[0].Dataset != "us_security_fund_holders" || files[0].Name != "0001816616-21-000007.txt" {
		t.Fatalf("served whole: %+v, %v", files, err)
	}
}

func TestNewRefusesNoUserAgent(t *testing.T) {
	for _, agent := range []string{"", "Quarry"} {
		if _, err := edgarsource.New(edgarsource.Config{UserAgent: agent, BaseURL: "http://x/", DataBaseURL: "http://x/"}); !errors.Is(err, edgarsource.ErrNoUserAgent) {
			t.Fatalf("User-Agent %q: %v", agent, err)
		}
	}
}

// TestFetchKeepsTheSECRate fetches one day four times (24 requests over
// both hosts, which share one limiter) against the SEC's rule of at most
// ten requests a second. The limiter lets the first through at once and
// each next one 100 ms after the one before, so 24 requests cannot take
// less than 2.3 s however the machine schedules them. The spacing the
// server saw is not checked: a request delayed in flight shortens the gap
// after it although the client kept its rate (901 ms was seen in CI).
func TestFetchKeepsTheSECRate(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	s := source(t, srv)
	start := time.Now()
	for range 4 {
		if _, err := s.Fetch(replay.Spooled(t), appleDay); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	reqs := srv.Requests()
	if len(reqs) != 24 {
		t.Fatalf("%d requests, want 24", len(reqs))
	}
	if took < 2299*time.Millisecond { // a millisecond for the limiter's float rounding
		t.Fatalf("24 requests at 10 a second took %v, less than 2.3s", took)
	}
	t.Logf("%d requests over %v", len(reqs), reqs[len(reqs)-1].At.Sub(reqs[0].At))
}

// TestFetchRefusesAnIndexOfAnotherDay: the index served for 2025-02-27
// is 2025-02-26's; it is refused naming both days, and nothing it names
// is fetched.
func TestFetchRefusesAnIndexOfAnotherDay(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	day := time.Date(2025, 2, 27, 0, 0, 0, 0, time.UTC)
	body, err := os.ReadFile("testdata/form.20250226.idx")
	if err != nil {
		t.Fatal(err)
	}
	srv.Add(edgarsource.IndexPath(day), body)
	files, err := source(t, srv).Fetch(replay.Spooled(t), day)
	if !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "2025-02-27") || !strings.Contains(err.Error(), "2025-02-26") {
		t.Fatalf("Fetch = %d files, %v; want a failed fetch naming 2025-02-27 and 2025-02-26", len(files), err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want the index only", n)
	}
}

// TestFetchRefusesAnIndexListingALaterFiling: an index whose header says
// its day but that lists a filing filed the day after is refused.
func TestFetchRefusesAnIndexListingALaterFiling(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	body, err := os.ReadFile("testdata/form.20250226.idx")
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2025, 2, 26, 0, 0, 0, 0, time.UTC)
	srv.Add(edgarsource.IndexPath(day), bytes.Replace(body, []byte("    20250226    "), []byte("    20250227    "), 1))
	if _, err := source(t, srv).Fetch(replay.Spooled(t), day); !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "2025-02-27") {
		t.Fatalf("Fetch: %v; want a failed fetch naming the filing's 2025-02-27", err)
	}
}

// TestAnIndexListingMoreFilingsThanADayHoldsIsRefused: a form index of
// 100,000 13F-HR rows meant 2.8 hours of fetching at the SEC's ten
// requests a second and a log line per filing. An index listing more than
// MaxDayFilings filings of the forms fetched is refused from the index
// alone, with no other request.
func TestAnIndexListingMoreFilingsThanADayHoldsIsRefused(t *testing.T) {
	var idx strings.Builder
	idx.WriteString("Description:           Daily Index of EDGAR Dissemination Feed by Form Type\n\n" +
		"Form Type   Company Name                                                  CIK         Date Filed  File Name\n" +
		strings.Repeat("-", 140) + "\n")
	for i := range edgarsource.MaxDayFilings + 1 {
		fmt.Fprintf(&idx, "13F-HR      FUND %-56d %-11d 20241101    edgar/data/%d/0000%06d-24-%06d.txt\n", i, 1000+i, 1000+i, i, i)
	}
	srv := replay.New(t)
	srv.Add(edgarsource.IndexPath(appleDay), []byte(idx.String()))
	_, err := source(t, srv).Fetch(replay.Spooled(t), appleDay)
	if !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "10001 filings of the forms fetched, more than the 10000") {
		t.Fatalf("an index of %d 13F-HR: %v", edgarsource.MaxDayFilings+1, err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want the index alone", n)
	}
}
