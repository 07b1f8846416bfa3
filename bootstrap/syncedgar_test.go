package bootstrap

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/edgarsource"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
	"github.com/quarrydata/quarry/sampledata"
)

const testSECUserAgent = "Quarry test ops@example.org"

// edgarRig is the sync use case on memory stores, EDGAR at a replay
// server serving both of the SEC's hosts.
type edgarRig struct {
	syncer *sourcesync.Syncer
	fin    ports.FinancialsStore
	funds  ports.FundHoldingStore
	states ports.SyncStates
	filed  ports.FilingStore
	secs   ports.SectionStore
}

func newEDGARRig(t *testing.T, srv *replay.Server, userAgent string) *edgarRig {
	t.Helper()
	cfg := Config{Sync: SyncConfig{NSEBaseURL: srv.URL, SECUserAgent: userAgent, SECBaseURL: srv.URL,
		SECDataBaseURL: srv.URL, RetryBackoff: time.Millisecond}}
	r := &edgarRig{}
	startSync(t, cfg, &r.syncer, &r.fin, &r.funds, &r.states, &r.filed, &r.secs)
	return r
}

func (r *edgarRig) sync(t *testing.T, from, to string) (sourcesync.Outcome, error) {
	t.Helper()
	return syncOne(t, r.syncer, edgarsource.Name, from, to)
}

// TestSyncBackfillsAnEDGARDay backfills 2024-11-01, the day Apple filed its
// 10-K: the form index names it, and its companyfacts are stored.
func TestSyncBackfillsAnEDGARDay(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	r := newEDGARRig(t, srv, testSECUserAgent)
	o, err := r.sync(t, "2024-11-01", "2024-11-01")
	if err != nil {
		t.Fatal(err)
	}
	if o.Days != 1 || o.Files != 5 || o.Rows == 0 {
		t.Fatalf("outcome %+v, want the day's one filer and filing loaded", o)
	}
	c, err := r.fin.Company(t.Context(), "0000320193")
	if err != nil || len(c.Facts) == 0 {
		t.Fatalf("Apple after the sync: %d facts, %v", len(c.Facts), err)
	}
	for _, req := range srv.Requests() {
		if req.UserAgent != testSECUserAgent {
			t.Errorf("request %s with User-Agent %q", req.Path, req.UserAgent)
		}
	}
	if again, err := r.sync(t, "2024-11-01", "2024-11-01"); err != nil || again.Files != 5 || again.Days != 1 {
		t.Fatalf("a second run naming the held day: %+v, %v; want it fetched again", again, err)
	}
}

// TestSyncEDGARFetchesExactlyTheDaysNamed is the probe of issue 35: after
// a sync of 2024-11-01, `quarry sync edgar --from 2025-02-26 --to
// 2025-02-26` fetched 84 daily indexes and made 82 weekdays holidays. It
// fetches the one index, and the days between are a gap the status names.
func TestSyncEDGARFetchesExactlyTheDaysNamed(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	r := newEDGARRig(t, srv, testSECUserAgent)
	if _, err := r.sync(t, "2024-11-01", "2024-11-01"); err != nil {
		t.Fatal(err)
	}
	before := len(srv.Requests())
	o, err := r.sync(t, "2025-02-26", "2025-02-26")
	if err != nil {
		t.Fatal(err)
	}
	var indexes []string
	for _, req := range srv.Requests()[before:] {
		if strings.Contains(req.Path, "daily-index") {
			indexes = append(indexes, req.Path)
		}
	}
	if len(indexes) != 1 || !strings.HasSuffix(indexes[0], "form.20250226.idx") || o.Days != 1 || o.Holidays != 0 || o.Missing != 0 {
		t.Fatalf("outcome %+v, indexes fetched %v; want 2025-02-26's only", o, indexes)
	}
	statuses, err := r.syncer.Statuses(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(statuses, func(s sourcesync.Status) bool { return s.Source == edgarsource.Name })
	if notes := statuses[i].Notes(); !slices.Equal(notes, []string{"gap: 2024-11-04..2025-02-25 not fetched"}) || statuses[i].State.Holidays != 0 {
		t.Fatalf("status %+v, notes %q", statuses[i].State, notes)
	}
}

func TestSyncRefusesEDGARWithoutAUserAgent(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	r := newEDGARRig(t, srv, "")
	_, err := r.syncer.Sync(t.Context(), []string{edgarsource.Name}, sourcesync.Range{From: day(t, "2024-11-01"), To: day(t, "2024-11-01")})
	if !errors.Is(err, sourcesync.ErrNotConfigured) || !strings.Contains(err.Error(), EnvSECUserAgent) {
		t.Fatalf("sync edgar with no user agent: %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent without a User-Agent", n)
	}
}

func TestConfigRefusesAnSECUserAgentWithoutContact(t *testing.T) {
	env := map[string]string{EnvSECUserAgent: "Quarry"}
	if _, err := LoadConfig(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), EnvSECUserAgent) {
		t.Fatalf("a User-Agent without an address: %v", err)
	}
}

func TestSyncStoresNothingOfACutCompanyfactsAndTheNextRunCompletes(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	facts := "api/xbrl/companyfacts/CIK0000320193.json"
	srv.Fail(facts, replay.Cut, replay.Cut, replay.Cut, replay.Cut)
	r := newEDGARRig(t, srv, testSECUserAgent)
	o, err := r.sync(t, "2024-11-01", "2024-11-01")
	if err == nil || !strings.Contains(err.Error(), "body cut") || o.Files != 0 {
		t.Fatalf("run with a cut companyfacts: %+v, %v", o, err)
	}
	if _, err := r.fin.Company(t.Context(), "0000320193"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("Apple held after the fault: %v", err)
	}
	if st, _ := r.states.State(t.Context(), edgarsource.Name); st.Last != "" || !strings.Contains(st.LastError, "2024-11-01") {
		t.Fatalf("state %+v", st)
	}
	if o, err := r.sync(t, "2024-11-01", "2024-11-01"); err != nil || o.Files != 5 {
		t.Fatalf("next run: %+v, %v", o, err)
	}
	if _, err := r.fin.Company(t.Context(), "0000320193"); err != nil {
		t.Fatalf("Apple after the next run: %v", err)
	}
}

// TestSyncLoadsAnEDGARDaysThirteenF backfills 2021-11-12, a day NZS
// Capital filed a 13F-HR: its submission text file is read as `quarry
// ingest us_security_fund_holders` reads one.
func TestSyncLoadsAnEDGARDaysThirteenF(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	r := newEDGARRig(t, srv, testSECUserAgent)
	o, err := r.sync(t, "2021-11-12", "2021-11-12")
	if err != nil || o.Files != 1 || o.Rows == 0 {
		t.Fatalf("outcome %+v, %v; want the one 13F-HR loaded", o, err)
	}
	cusips, err := r.funds.ThirteenFFilingCUSIPs(t.Context(), "0001816616-21-000007")
	if err != nil || len(cusips) != 3 {
		t.Fatalf("the filing's CUSIPs %v, %v; want its three rows", cusips, err)
	}
}

const msftAccession = "0000950170-25-100235"

// TestSyncStoresAnEDGARFilingFolder backfills 2025-07-30, the day
// Microsoft filed its 10-K: the filing's folder is stored as `quarry ingest
// us_filing_indexes` stores it, its primary document held and split into
// item sections.
func TestSyncStoresAnEDGARFilingFolder(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	r := newEDGARRig(t, srv, testSECUserAgent)
	o, err := r.sync(t, "2025-07-30", "2025-07-30")
	if err != nil || o.Files != 5 {
		t.Fatalf("outcome %+v, %v; want tickers, companyfacts and the folder's three files", o, err)
	}
	f, err := r.filed.Filing(t.Context(), msftAccession)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(f.Files, func(x filing.File) bool { return x.Name == "msft-20250630.htm" })
	if f.CIK != "0000789019" || f.Form != "10-K" || i < 0 || !f.Files[i].Stored || f.Files[i].SHA256 == "" {
		t.Fatalf("stored filing %+v", f)
	}
	if n := sectionsOf(t, r.secs, msftAccession); n == 0 {
		t.Fatal("no item section stored")
	}
}

// TestSyncStoresAnOlderEDGARFilingFromItsPage: in a long backfill, a
// filing the filer's submissions JSON no longer lists among its recent
// filings is read from its page of older filings, stored beside it in the
// folder, and the filing is stored as from a recent one.
func TestSyncStoresAnOlderEDGARFilingFromItsPage(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.PageOlderFilings(t, 789019)
	r := newEDGARRig(t, srv, testSECUserAgent)
	if o, err := r.sync(t, "2025-07-30", "2025-07-30"); err != nil || o.Files != 6 {
		t.Fatalf("outcome %+v, %v; want tickers, companyfacts, the folder's three files and the page", o, err)
	}
	f, err := r.filed.Filing(t.Context(), msftAccession)
	if err != nil || f.Ticker != "MSFT" || f.Form != "10-K" || f.PrimaryDocument != "msft-20250630.htm" {
		t.Fatalf("stored filing %+v, %v", f, err)
	}
	if n := sectionsOf(t, r.secs, msftAccession); n == 0 {
		t.Fatal("no item section stored")
	}
}

func sectionsOf(t *testing.T, s ports.SectionStore, accession string) int {
	t.Helper()
	n := 0
	_, err := s.SectionsSince(t.Context(), ports.SectionMark{}, 100, func(secs []filing.Section, _ ports.SectionMark) error {
		for _, x := range secs {
			if x.Accession == accession {
				n++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSyncStoresNothingOfACutPrimaryDocumentAndTheNextRunCompletes: the
// primary document is cut on every attempt of the first run; nothing of
// the filing (nor of its day) is stored, and the next run stores it whole.
func TestSyncStoresNothingOfACutPrimaryDocumentAndTheNextRunCompletes(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	srv.Fail("Archives/edgar/data/789019/000095017025100235/msft-20250630.htm", replay.Cut, replay.Cut, replay.Cut, replay.Cut)
	r := newEDGARRig(t, srv, testSECUserAgent)
	o, err := r.sync(t, "2025-07-30", "2025-07-30")
	if err == nil || !strings.Contains(err.Error(), "body cut") || o.Files != 0 {
		t.Fatalf("run with a cut primary document: %+v, %v", o, err)
	}
	if _, err := r.filed.Filing(t.Context(), msftAccession); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("the filing held after the fault: %v", err)
	}
	if n := sectionsOf(t, r.secs, msftAccession); n != 0 {
		t.Fatalf("%d sections held after the fault", n)
	}
	if o, err := r.sync(t, "2025-07-30", "2025-07-30"); err != nil || o.Files != 5 {
		t.Fatalf("next run: %+v, %v", o, err)
	}
	if _, err := r.filed.Filing(t.Context(), msftAccession); err != nil {
		t.Fatalf("the filing after the next run: %v", err)
	}
}

// TestSyncRefusesAPrimaryDocumentCutInsideItsItems: a primary document
// served as half of itself, closed as a page, is refused by the 10-K's
// check (its body stops before Item 15): the day stores nothing.
func TestSyncRefusesAPrimaryDocumentCutInsideItsItems(t *testing.T) {
	srv := replay.New(t)
	srv.AddEDGAR(t)
	doc := "Archives/edgar/data/789019/000095017025100235/msft-20250630.htm"
	body, err := fs.ReadFile(sampledata.USFilings, "us_filings/msft-10k-2025/msft-20250630.htm")
	if err != nil {
		t.Fatal(err)
	}
	srv.Add(doc, append(body[:len(body)/2:len(body)/2], "</body></html>\n"...))
	r := newEDGARRig(t, srv, testSECUserAgent)
	if o, err := r.sync(t, "2025-07-30", "2025-07-30"); err == nil || !strings.Contains(err.Error(), "Item 15") || o.Files != 0 {
		t.Fatalf("run with a primary document cut inside its items: %+v, %v", o, err)
	}
	if _, err := r.filed.Filing(t.Context(), msftAccession); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("the filing held after the fault: %v", err)
	}
	if _, err := r.fin.Company(t.Context(), "0000789019"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("the day's companyfacts held after the fault: %v", err)
	}
}
