package porttest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// NewFundHoldingStore returns an empty FundHoldingStore for one test.
type NewFundHoldingStore func(t *testing.T) ports.FundHoldingStore

const (
	cusipA = "037833100"
	cusipB = "594918104"
)

func fundRow(acc string, row int64, cusip, period string, value int64) holdings.Holding {
	return holdings.Holding{
		Accession: acc, Row: row, FundCIK: "0001067983", FundName: "Fund", ReportPeriod: period,
		FilingDate: "2024-02-14", CUSIP: cusip, Issuer: "ISSUER", Class: "COM", Shares: value / 10,
		ShareType: "SH", Value: value, Discretion: "DFND",
	}
}

func thirteenF(acc, period string, rows ...holdings.Holding) holdings.Filing {
	return holdings.Filing{
		Accession: acc, FormType: "13F-HR", FundCIK: "0001067983", FundName: "Fund",
		ReportPeriod: period, FilingDate: "2024-02-14", Holdings: rows,
	}
}

// RunFundHoldings is the contract of FundHoldingStore.
func RunFundHoldings(t *testing.T, newStore NewFundHoldingStore) {
	t.Run("empty store", func(t *testing.T) { fundHoldingsEmpty(t, newStore(t)) })
	t.Run("master keys", func(t *testing.T) { fundHoldingsMaster(t, newStore(t)) })
	t.Run("filings are replaced whole", func(t *testing.T) { fundHoldingsReplace(t, newStore(t)) })
	t.Run("report period bounds", func(t *testing.T) { fundHoldingsPeriods(t, newStore(t)) })
	t.Run("a restatement supersedes the positions it drops", func(t *testing.T) { fundHoldingsReports(t, newStore(t)) })
	t.Run("pages are holdings.Select's", func(t *testing.T) { fundHoldingsPages(t, newStore(t)) })
	t.Run("a write stopped at any step shows each filing whole", func(t *testing.T) { fundHoldingsWhole(t, newStore(t)) })
}

// fundVersions are the filings of one step of fundHoldingsWhole: a fund's
// filing as first held (version 1: CUSIPs a and b) and as rewritten
// (version 2: a and c, other values, filed a day later), and another
// fund's filing (CUSIPs a and b) new in the rewrite's batch.
type fundVersions struct {
	held, rewritten, added holdings.Filing
	cusips                 []string
}

func fundStep(step int) fundVersions {
	const period = "2023-12-31"
	a, b, c := fmt.Sprintf("%08dA", step), fmt.Sprintf("%08dB", step), fmt.Sprintf("%08dC", step)
	acc, other := fmt.Sprintf("0000950123-24-%06d", step), fmt.Sprintf("0000102909-24-%06d", step)
	held := thirteenF(acc, period, fundRow(acc, 1, a, period, 100), fundRow(acc, 2, b, period, 50))
	rewritten := thirteenF(acc, period, fundRow(acc, 1, a, period, 120), fundRow(acc, 2, c, period, 70))
	rewritten.FilingDate = "2024-02-15"
	for i := range rewritten.Holdings {
		rewritten.Holdings[i].FilingDate = rewritten.FilingDate
	}
	added := thirteenF(other, period, fundRow(other, 1, a, period, 300), fundRow(other, 2, b, period, 30))
	// Funds of their own, so that no step's reports are another's.
	held, rewritten = withFund(held, fmt.Sprintf("%010d", 2*step+1)), withFund(rewritten, fmt.Sprintf("%010d", 2*step+1))
	added = withFund(added, fmt.Sprintf("%010d", 2*step+2))
	return fundVersions{held: held, rewritten: rewritten, added: added, cusips: []string{a, b, c}}
}

// withFund returns f filed by the fund cik.
func withFund(f holdings.Filing, cik string) holdings.Filing {
	f.FundCIK, f.Holdings = cik, slices.Clone(f.Holdings)
	for i := range f.Holdings {
		f.Holdings[i].FundCIK = cik
	}
	return f
}

// fundSnapshot is what a reader sees of one step's CUSIPs and filings.
type fundSnapshot struct {
	holders map[string][]holdings.Holding
	cusips  map[string][]string
}

func readFundSnapshot(t *testing.T, s ports.FundHoldingStore, v fundVersions) fundSnapshot {
	t.Helper()
	ctx := context.Background()
	snap := fundSnapshot{holders: map[string][]holdings.Holding{}, cusips: map[string][]string{}}
	for _, c := range v.cusips {
		page, _, err := s.FundHolders(ctx, c, holdings.Query{AsOf: farFuture, Limit: 1000})
		must(t, "FundHolders", err)
		if len(page) > 0 {
			snap.holders[c] = page
		}
	}
	for _, f := range []holdings.Filing{v.held, v.added} {
		cusips, err := s.ThirteenFFilingCUSIPs(ctx, f.Accession)
		if errors.Is(err, ports.ErrNotFound) {
			continue
		}
		must(t, "ThirteenFFilingCUSIPs", err)
		snap.cusips[f.Accession] = cusips
	}
	return snap
}

// seenFundVersions returns what a reader sees: which version of the
// rewritten filing (1 or 2) and whether the added one, failing unless
// each is seen whole, holders and CUSIPs agreeing. It reads until two
// reads agree: a write stopped may still publish after it returned.
func seenFundVersions(t *testing.T, s ports.FundHoldingStore, v fundVersions) (int, bool) {
	t.Helper()
	snap := readFundSnapshot(t, s, v)
	for again := readFundSnapshot(t, s, v); !reflect.DeepEqual(snap, again); again = readFundSnapshot(t, s, v) {
		snap = again
	}
	version := 1
	if slices.Equal(snap.cusips[v.held.Accession], v.rewritten.CUSIPs()) {
		version = 2
	}
	f := map[int]holdings.Filing{1: v.held, 2: v.rewritten}[version]
	_, added := snap.cusips[v.added.Accession]
	want := fundSnapshot{holders: map[string][]holdings.Holding{}, cusips: map[string][]string{f.Accession: f.CUSIPs()}}
	shown := []holdings.Filing{f}
	if added {
		shown = append(shown, v.added)
		want.cusips[v.added.Accession] = v.added.CUSIPs()
	}
	for _, c := range v.cusips {
		for _, x := range shown {
			for _, h := range x.Holdings {
				if h.CUSIP == c {
					want.holders[c] = append(want.holders[c], h)
				}
			}
		}
		slices.SortFunc(want.holders[c], holdings.ComparePositions)
	}
	for c, hs := range want.holders {
		if len(hs) == 0 {
			delete(want.holders, c)
		}
	}
	if !reflect.DeepEqual(snap, want) {
		t.Fatalf("a reader sees %+v\nwant version %d (the added filing seen: %v) %+v", snap, version, added, want)
	}
	return version, added
}

// fundHoldingsWhole rewrites a fund's filing in a batch with another
// fund's new filing, stopping the write at each of its steps in turn:
// after each, a reader sees the old version or the new one of the first,
// whole, and the second whole or not at all, from the same write; writing
// the batch again then publishes it.
func fundHoldingsWhole(t *testing.T, s ports.FundHoldingStore) {
	ctx := context.Background()
	stopAtEachStep(t, func(stop context.Context, step int) error {
		v := fundStep(step)
		must(t, "Replace the filing held", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{v.held}))
		return s.ReplaceThirteenFFilings(stop, []holdings.Filing{v.rewritten, v.added})
	}, func(t *testing.T, step int) {
		v := fundStep(step)
		if version, added := seenFundVersions(t, s, v); (version == 2) != added {
			t.Fatalf("stopped at step %d: version %d of the filing rewritten is seen, the added one: %v", step, version, added)
		}
		must(t, "Replace again", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{v.rewritten, v.added}))
		if version, added := seenFundVersions(t, s, v); version != 2 || !added {
			t.Fatalf("written again after step %d: version %d, the added one seen: %v", step, version, added)
		}
	})
}

// fundHoldingsReports loads a fund's 13F-HR for a quarter and a
// restatement that drops one of its two positions: as of the restatement
// the dropped position is no longer held, before it it is, and a query for
// the original filing still shows it as filed; another fund's reports stay
// its own.
func fundHoldingsReports(t *testing.T, s ports.FundHoldingStore) {
	ctx := context.Background()
	const o, r, y = "0000950123-23-010898", "0000950123-23-011029", "0000102909-23-000001"
	original := filedOn(thirteenF(o, "2023-09-30", fundRow(o, 1, cusipA, "2023-09-30", 100), fundRow(o, 2, cusipB, "2023-09-30", 50)), "2023-11-14")
	restated := filedOn(thirteenF(r, "2023-09-30", fundRow(r, 1, cusipB, "2023-09-30", 60)), "2023-11-16")
	restated.FormType, restated.Amendment = "13F-HR/A", holdings.Restatement
	other := filedOn(withFund(thirteenF(y, "2023-09-30", fundRow(y, 1, cusipA, "2023-09-30", 7)), "0000102909"), "2023-11-14")
	must(t, "Replace", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{original, restated, other}))
	must(t, "Replace again", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{restated}))
	between := holdings.Query{AsOf: endOf("2023-11-15"), Limit: 1000}
	wantHolders(t, s, cusipA, between, original.Holdings[0], other.Holdings[0])
	wantHolders(t, s, cusipB, between, original.Holdings[1])
	wantRows(t, s, cusipA, "", "", other.Holdings[0])
	wantRows(t, s, cusipB, "", "", restated.Holdings[0])
	wantHolders(t, s, cusipA, holdings.Query{Accession: o, AsOf: farFuture, Limit: 1000}, original.Holdings[0])

	// Reloaded with a row in the first CUSIP too, then without it again.
	withA := filedOn(thirteenF(r, "2023-09-30", restated.Holdings[0], fundRow(r, 2, cusipA, "2023-09-30", 110)), "2023-11-16")
	withA.FormType, withA.Amendment = restated.FormType, restated.Amendment
	must(t, "Replace with a new CUSIP", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{withA}))
	wantRows(t, s, cusipA, "", "", withA.Holdings[1], other.Holdings[0])
	wantHolders(t, s, cusipA, between, original.Holdings[0], other.Holdings[0])
	must(t, "Replace without it", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{restated}))
	wantRows(t, s, cusipA, "", "", other.Holdings[0])
	wantHolders(t, s, cusipA, between, original.Holdings[0], other.Holdings[0])
	wantHolders(t, s, cusipA, holdings.Query{Accession: r, AsOf: farFuture, Limit: 1000})
	wantRows(t, s, cusipA+"x", "", "")
}

// filedOn returns f filed on day, rows included.
func filedOn(f holdings.Filing, day string) holdings.Filing {
	f.FilingDate = day
	f.Holdings = slices.Clone(f.Holdings)
	for i := range f.Holdings {
		f.Holdings[i].FilingDate = day
	}
	return f
}

// farFuture is an instant after every filing of the suite.
var farFuture = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)

// endOf returns the last instant of a day given as YYYY-MM-DD.
func endOf(day string) time.Time {
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		panic(err)
	}
	return d.Add(24*time.Hour - time.Microsecond)
}

func fundHoldingsEmpty(t *testing.T, s ports.FundHoldingStore) {
	ctx := context.Background()
	held, err := s.HoldsThirteenFFilings(ctx)
	must(t, "HoldsThirteenFFilings", err)
	if held {
		t.Fatal("an empty store holds 13F filings")
	}
	_, err = s.MasterSecurity(ctx, holdings.Key{Kind: holdings.KeyTicker, Value: "AAPL"})
	wantErr(t, "MasterSecurity", err, ports.ErrNotFound)
	_, err = s.ThirteenFFilingCUSIPs(ctx, "0000950123-24-002518")
	wantErr(t, "ThirteenFFilingCUSIPs", err, ports.ErrNotFound)
	wantRows(t, s, cusipA, "", "")
}

func fundHoldingsMaster(t *testing.T, s ports.FundHoldingStore) {
	ctx := context.Background()
	apple := holdings.Security{Ticker: "AAPL", CIK: "0000320193", CUSIP: cusipA, Name: "Apple Inc."}
	must(t, "Upsert", s.UpsertMasterSecurities(ctx, []holdings.Security{apple}))
	must(t, "Upsert again", s.UpsertMasterSecurities(ctx, []holdings.Security{apple}))
	for _, k := range apple.Keys() {
		got, err := s.MasterSecurity(ctx, k)
		must(t, "MasterSecurity "+k.String(), err)
		if got != apple {
			t.Fatalf("%s = %+v", k, got)
		}
	}
	_, err := s.MasterSecurity(ctx, holdings.Key{Kind: holdings.KeyTicker, Value: cusipA})
	wantErr(t, "key of another kind", err, ports.ErrNotFound)
	renamed := apple
	renamed.Name = "Apple"
	must(t, "Upsert renamed", s.UpsertMasterSecurities(ctx, []holdings.Security{renamed}))
	if got, err := s.MasterSecurity(ctx, holdings.Key{Kind: holdings.KeyCIK, Value: "0000320193"}); err != nil || got != renamed {
		t.Fatalf("after replace = %+v, %v", got, err)
	}
}

func fundHoldingsReplace(t *testing.T, s ports.FundHoldingStore) {
	ctx := context.Background()
	first := thirteenF("0000950123-24-002518", "2023-12-31",
		fundRow("0000950123-24-002518", 1, cusipA, "2023-12-31", 100), fundRow("0000950123-24-002518", 2, cusipB, "2023-12-31", 50))
	other := withFund(thirteenF("0000102909-24-000001", "2023-12-31", fundRow("0000102909-24-000001", 7, cusipA, "2023-12-31", 300)), "0000102909")
	must(t, "Replace", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{first, other}))
	must(t, "Replace again", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{first, other}))
	held, err := s.HoldsThirteenFFilings(ctx)
	must(t, "HoldsThirteenFFilings", err)
	if !held {
		t.Fatal("a store holding two 13F filings holds none")
	}
	wantRows(t, s, cusipA, "", "", first.Holdings[0], other.Holdings[0])
	wantRows(t, s, cusipB, "", "", first.Holdings[1])
	cusips, err := s.ThirteenFFilingCUSIPs(ctx, first.Accession)
	must(t, "ThirteenFFilingCUSIPs", err)
	if !slices.Equal(cusips, []string{cusipA, cusipB}) {
		t.Fatalf("ThirteenFFilingCUSIPs = %v", cusips)
	}
	// A corrected load of the same filing drops the row it no longer has.
	corrected := thirteenF(first.Accession, "2023-12-31", fundRow(first.Accession, 1, cusipA, "2023-12-31", 120))
	must(t, "Replace corrected", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{corrected}))
	wantRows(t, s, cusipA, "", "", corrected.Holdings[0], other.Holdings[0])
	wantRows(t, s, cusipB, "", "")
	if cusips, _ := s.ThirteenFFilingCUSIPs(ctx, first.Accession); !slices.Equal(cusips, []string{cusipA}) {
		t.Fatalf("ThirteenFFilingCUSIPs after correction = %v", cusips)
	}
}

func fundHoldingsPeriods(t *testing.T, s ports.FundHoldingStore) {
	ctx := context.Background()
	q3 := thirteenF("0000950123-23-011029", "2023-09-30", fundRow("0000950123-23-011029", 1, cusipA, "2023-09-30", 10))
	q4 := thirteenF("0000950123-24-002518", "2023-12-31", fundRow("0000950123-24-002518", 1, cusipA, "2023-12-31", 20))
	must(t, "Replace", s.ReplaceThirteenFFilings(ctx, []holdings.Filing{q3, q4}))
	wantRows(t, s, cusipA, "2023-10-01", "", q4.Holdings[0])
	wantRows(t, s, cusipA, "", "2023-09-30", q3.Holdings[0])
	wantRows(t, s, cusipA, "2023-09-30", "2023-12-31", q3.Holdings[0], q4.Holdings[0])
	wantRows(t, s, cusipA, "2024-01-01", "2024-12-31")
}

// wantRows checks the holders of every period within [from, to], as of
// an instant after every filing, are exactly want, each a position of its
// own.
func wantRows(t *testing.T, s ports.FundHoldingStore, cusip, from, to string, want ...holdings.Holding) {
	t.Helper()
	wantHolders(t, s, cusip, holdings.Query{From: from, To: to, AsOf: farFuture, Limit: 1000}, want...)
}

// wantHolders checks FundHolders answers q with exactly want, each a
// position of its own, in the lookup's order.
func wantHolders(t *testing.T, s ports.FundHoldingStore, cusip string, q holdings.Query, want ...holdings.Holding) {
	t.Helper()
	got, total, err := s.FundHolders(context.Background(), cusip, q)
	must(t, "FundHolders", err)
	want = slices.Clone(want)
	slices.SortFunc(want, holdings.ComparePositions)
	if !slices.Equal(got, want) || total != len(want) {
		t.Fatalf("FundHolders(%s, %+v) = %+v (total %d), want %+v", cusip, q, got, total, want)
	}
}
