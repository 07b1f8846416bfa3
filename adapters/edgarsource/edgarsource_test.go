package edgarsource_test

import (
	"errors"
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
	files, err := source(t, srv).Fetch(t.Context(), appleDay)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "company_tickers.json" || files[1].Name != "CIK0000320193.json" || files[1].Dataset != "us_financials" {
		t.Fatalf("fetched %+v", files)
	}
	reqs := srv.Requests()
	want := []string{"/Archives/edgar/daily-index/2024/QTR4/form.20241101.idx", "/files/company_tickers.json", "/api/xbrl/companyfacts/CIK0000320193.json"}
	if len(reqs) != len(want) {
		t.Fatalf("%d requests, want %d", len(reqs), len(want))
	}
	for i, r := range reqs {
		if r.Path != want[i] || r.UserAgent != ua {
			t.Fatalf("request %d: %s with User-Agent %q", i, r.Path, r.UserAgent)
		}
	}
}

func TestFetchOfAWeekdayWithoutIndexIsNoPublication(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	_, err := source(t, srv).Fetch(t.Context(), time.Date(2024, 11, 28, 0, 0, 0, 0, time.UTC))
	if !errors.Is(err, ports.ErrNoPublication) {
		t.Fatalf("Thanksgiving: %v", err)
	}
}

func TestFetchRefusesACutCompanyfacts(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Fail("api/xbrl/companyfacts/CIK0000320193.json", replay.Truncated)
	if _, err := source(t, srv).Fetch(t.Context(), appleDay); !errors.Is(err, ports.ErrSourceFailed) {
		t.Fatalf("a companyfacts served as half: %v", err)
	}
}

func TestFetchRefusesACutSubmissionText(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Fail("Archives/edgar/data/1816616/0001816616-21-000007.txt", replay.Truncated)
	day := time.Date(2021, 11, 12, 0, 0, 0, 0, time.UTC)
	if _, err := source(t, srv).Fetch(t.Context(), day); !errors.Is(err, ports.ErrSourceFailed) {
		t.Fatalf("a 13F-HR served as half: %v", err)
	}
	files, err := source(t, srv).Fetch(t.Context(), day)
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

// TestFetchKeepsTheSECRate fetches one day seven times (21 requests over
// both hosts) and measures the spacing the server saw against the SEC's
// rule of at most ten requests in any second. Only a lower bound is
// checked: a loaded machine only makes the requests slower.
func TestFetchKeepsTheSECRate(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	s := source(t, srv)
	for range 7 {
		if _, err := s.Fetch(t.Context(), appleDay); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	for i := 10; i < len(reqs); i++ {
		if gap := reqs[i].At.Sub(reqs[i-10].At); gap < 950*time.Millisecond {
			t.Fatalf("requests %d to %d came within %v: more than 10 in a second", i-10, i, gap)
		}
	}
	t.Logf("%d requests over %v", len(reqs), reqs[len(reqs)-1].At.Sub(reqs[0].At))
}
