package holdings

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseIdentifier(t *testing.T) {
	cases := []struct {
		in   string
		want []Key
	}{
		{"AAPL", []Key{{KeyTicker, "AAPL"}}},
		{"brk.b", []Key{{KeyTicker, "BRK.B"}}},
		{"037833100", []Key{{KeyCUSIP, "037833100"}, {KeyCIK, "0037833100"}}},
		{"02079k305", []Key{{KeyCUSIP, "02079K305"}, {KeyTicker, "02079K305"}}},
		{"320193", []Key{{KeyCIK, "0000320193"}}},
		{"0000320193", []Key{{KeyCIK, "0000320193"}}},
	}
	for _, tc := range cases {
		got, err := ParseIdentifier(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseIdentifier(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "A!PL", "12345678901", "TOOLONGTICKER"} {
		if _, err := ParseIdentifier(bad); !errors.Is(err, ErrIdentifier) {
			t.Errorf("ParseIdentifier(%q) err = %v, want ErrIdentifier", bad, err)
		}
	}
}

func TestValueInDollars(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	cases := []struct {
		reported int64
		filed    string
		want     int64
	}{
		{29465, "2021-11-12", 29_465_000},
		{29465, "2023-01-02", 29_465_000},
		{29465, "2023-01-03", 29465},
	}
	for _, tc := range cases {
		if got, err := ValueInDollars(tc.reported, day(tc.filed)); err != nil || got != tc.want {
			t.Errorf("ValueInDollars(%d, %s) = %d, %v; want %d", tc.reported, tc.filed, got, err, tc.want)
		}
	}
	if _, err := ValueInDollars(-1, day("2024-01-01")); err == nil {
		t.Error("a negative value was accepted")
	}
	if _, err := ValueInDollars(1<<62, day("2020-01-01")); err == nil {
		t.Error("an overflowing value was accepted")
	}
}

func row(fund string, value int64, period, filed string) Holding {
	return Holding{Accession: "0000000001-24-00000" + fund[len(fund)-1:], Row: 1, FundCIK: fund, Value: value, ReportPeriod: period, FilingDate: filed}
}

func TestSelect(t *testing.T) {
	rows := []Holding{
		row("0000000001", 10, "2023-09-30", "2023-11-14"),
		row("0000000002", 30, "2023-12-31", "2024-02-14"),
		row("0000000003", 20, "2023-12-31", "2024-02-15"),
		row("0000000004", 30, "2023-12-31", "2024-02-14"),
	}
	end := func(s string) time.Time {
		d, _ := time.Parse(time.DateOnly, s)
		return d.Add(24*time.Hour - time.Microsecond)
	}
	funds := func(hs []Holding) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.FundCIK[9:])
		}
		return out
	}
	cases := []struct {
		name  string
		q     Query
		want  []string
		total int
	}{
		{"largest value first, ties by fund", Query{AsOf: end("2030-01-01"), Limit: 10}, []string{"2", "4", "3", "1"}, 4},
		{"page", Query{AsOf: end("2030-01-01"), Limit: 2, Offset: 1}, []string{"4", "3"}, 4},
		{"offset past the end", Query{AsOf: end("2030-01-01"), Limit: 2, Offset: 9}, nil, 4},
		{"as of leaves out later filings", Query{AsOf: end("2024-02-14"), Limit: 10}, []string{"2", "4", "1"}, 3},
		{"as of mid-day leaves out that day", Query{AsOf: end("2024-02-13").Add(12 * time.Hour), Limit: 10}, []string{"1"}, 1},
		{"report period bounds", Query{AsOf: end("2030-01-01"), From: "2023-10-01", To: "2023-12-31", Limit: 10}, []string{"2", "4", "3"}, 3},
		{"one filing", Query{AsOf: end("2030-01-01"), Accession: "0000000001-24-000003", Limit: 10}, []string{"3"}, 1},
	}
	for _, tc := range cases {
		got, total := Select(rows, nil, tc.q)
		if !slices.Equal(funds(got), tc.want) || total != tc.total {
			t.Errorf("%s: %v of %d, want %v of %d", tc.name, funds(got), total, tc.want, tc.total)
		}
	}
}

func TestParseAmendment(t *testing.T) {
	for _, tc := range []struct{ form, raw, want string }{
		{"13F-HR", "", ""}, {"13F-HR", "RESTATEMENT", ""}, {"13F-HR/A", "restatement", Restatement},
		{"13F-HR/A", " NEW  HOLDINGS ", NewHoldings},
	} {
		if got, err := ParseAmendment(tc.form, tc.raw); err != nil || got != tc.want {
			t.Errorf("ParseAmendment(%q, %q) = %q, %v; want %q", tc.form, tc.raw, got, err, tc.want)
		}
	}
	for _, raw := range []string{"", "AMENDMENT", "NEW"} {
		if _, err := ParseAmendment("13F-HR/A", raw); err == nil {
			t.Errorf("ParseAmendment(13F-HR/A, %q) accepted", raw)
		}
	}
}

// Berkshire Hathaway's reports for 2023-09-30: the 13F-HR, its restatement
// two days later, and a new-holdings amendment six months on; and another
// fund whose only report is a 13F-HR.
var berkshireQ3 = []Report{
	{Accession: "0000950123-23-010898", FundCIK: "0001067983", ReportPeriod: "2023-09-30", FilingDate: "2023-11-14"},
	{Accession: "0000950123-23-011029", FundCIK: "0001067983", ReportPeriod: "2023-09-30", FilingDate: "2023-11-16", Amendment: Restatement},
	{Accession: "0000950123-24-005653", FundCIK: "0001067983", ReportPeriod: "2023-09-30", FilingDate: "2024-05-15", Amendment: NewHoldings},
	{Accession: "0000000002-23-000001", FundCIK: "0000000002", ReportPeriod: "2023-09-30", FilingDate: "2023-11-14"},
}

func TestCurrent(t *testing.T) {
	end := func(s string) time.Time {
		d, _ := time.Parse(time.DateOnly, s)
		return d.Add(24*time.Hour - time.Microsecond)
	}
	for _, tc := range []struct {
		asOf string
		want []string
	}{
		{"2023-11-13", nil},
		{"2023-11-15", []string{"0000000002-23-000001", "0000950123-23-010898"}},
		{"2023-11-16", []string{"0000000002-23-000001", "0000950123-23-011029"}},
		{"2024-05-15", []string{"0000000002-23-000001", "0000950123-23-011029", "0000950123-24-005653"}},
	} {
		got := slices.Sorted(maps.Keys(Current(berkshireQ3, end(tc.asOf))))
		if !slices.Equal(got, tc.want) {
			t.Errorf("as of %s: %v, want %v", tc.asOf, got, tc.want)
		}
	}
	// A new-holdings amendment filed before a restatement is covered by it.
	early := []Report{berkshireQ3[0], {Accession: "0000950123-23-010900", FundCIK: "0001067983", ReportPeriod: "2023-09-30", FilingDate: "2023-11-15", Amendment: NewHoldings}, berkshireQ3[1]}
	if got := slices.Sorted(maps.Keys(Current(early, end("2030-01-01")))); !slices.Equal(got, []string{"0000950123-23-011029"}) {
		t.Errorf("after a later restatement: %v", got)
	}
}

// SupersededOn lays Current out in time: at every instant around the
// reports' filing dates, a report is current exactly when it is known and
// its superseding date is not.
func TestSupersededOnAgreesWithCurrent(t *testing.T) {
	reports := append(slices.Clone(berkshireQ3),
		Report{Accession: "0000950123-23-010900", FundCIK: "0001067983", ReportPeriod: "2023-09-30", FilingDate: "2023-11-15", Amendment: NewHoldings},
		Report{Accession: "0000950123-23-010901", FundCIK: "0001067983", ReportPeriod: "2023-09-30", FilingDate: "2023-11-16", Amendment: Restatement})
	until := SupersededOn(reports)
	if len(until) == 0 {
		t.Fatal("no report superseded")
	}
	start := time.Date(2023, 11, 12, 0, 0, 0, 0, time.UTC)
	for at := start; at.Before(start.AddDate(1, 0, 0)); at = at.Add(6 * time.Hour) {
		current := Current(reports, at)
		for _, r := range reports {
			d, superseded := until[r.Accession]
			visible := KnownOn(r.FilingDate, at) && !(superseded && KnownOn(d, at))
			if visible != current[r.Accession] {
				t.Fatalf("%s at %s: visible %v, Current %v", r.Accession, at, visible, current[r.Accession])
			}
		}
	}
}

func TestKnownThrough(t *testing.T) {
	day := time.Date(2023, 11, 14, 0, 0, 0, 0, time.UTC)
	for _, at := range []time.Time{day, day.Add(12 * time.Hour), day.Add(24*time.Hour - 2*time.Microsecond),
		day.Add(24*time.Hour - time.Microsecond), time.Date(2023, 11, 14, 9, 0, 0, 0, time.FixedZone("IST", 19800))} {
		through := KnownThrough(at)
		next, _ := time.Parse(time.DateOnly, through)
		if !KnownOn(through, at) || KnownOn(next.AddDate(0, 0, 1).Format(time.DateOnly), at) {
			t.Errorf("at %s: known through %s, but KnownOn disagrees", at, through)
		}
	}
}

func TestSelectServesTheCurrentReport(t *testing.T) {
	rows := []Holding{
		{Accession: "0000950123-23-010898", Row: 1, FundCIK: "0001067983", ReportPeriod: "2023-09-30", FilingDate: "2023-11-14", CUSIP: "037833100", Shares: 915560382, Value: 156753093002},
		{Accession: "0000950123-23-011029", Row: 1, FundCIK: "0001067983", ReportPeriod: "2023-09-30", FilingDate: "2023-11-16", CUSIP: "037833100", Shares: 915560382, Value: 156753093002},
		{Accession: "0000000002-23-000001", Row: 1, FundCIK: "0000000002", ReportPeriod: "2023-09-30", FilingDate: "2023-11-14", CUSIP: "037833100", Shares: 10, Value: 1712},
		// A fund whose reports the store did not give is served as filed.
		{Accession: "0000000003-23-000001", Row: 1, FundCIK: "0000000003", ReportPeriod: "2023-09-30", FilingDate: "2023-11-14", CUSIP: "037833100", Shares: 5, Value: 856},
	}
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	accessions := func(hs []Holding) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.Accession)
		}
		return out
	}
	got, total := Select(rows, berkshireQ3, Query{AsOf: at, Limit: 10})
	if want := []string{"0000950123-23-011029", "0000000002-23-000001", "0000000003-23-000001"}; !slices.Equal(accessions(got), want) || total != 3 {
		t.Fatalf("current = %v of %d, want %v", accessions(got), total, want)
	}
	got, _ = Select(rows, berkshireQ3, Query{AsOf: time.Date(2023, 11, 15, 23, 0, 0, 0, time.UTC), Limit: 10})
	if want := []string{"0000950123-23-010898", "0000000002-23-000001", "0000000003-23-000001"}; !slices.Equal(accessions(got), want) {
		t.Fatalf("before the restatement = %v, want %v", accessions(got), want)
	}
	got, _ = Select(rows, berkshireQ3, Query{AsOf: at, Accession: "0000950123-23-010898", Limit: 10})
	if want := []string{"0000950123-23-010898"}; !slices.Equal(accessions(got), want) {
		t.Fatalf("one superseded filing asked for by number = %v, want %v", accessions(got), want)
	}
}

func TestCombineMergesTheRowsOfOnePosition(t *testing.T) {
	// Berkshire Hathaway's 13F-HR 0000950123-24-002518 reports its Apple
	// stake in twelve rows; three of them, and two option rows of another
	// filing, which stay apart.
	brk := func(row, shares, value int64) Holding {
		return Holding{Accession: "0000950123-24-002518", Row: row, FundCIK: "0001067983", CUSIP: "037833100",
			ShareType: "SH", Discretion: "DFND", Shares: shares, Value: value}
	}
	option := func(row, shares, value int64, pc string) Holding {
		return Holding{Accession: "0000902664-25-005042", Row: row, FundCIK: "0001603466", CUSIP: "037833100",
			ShareType: "SH", Discretion: "DFND", PutCall: pc, Shares: shares, Value: value}
	}
	got := Combine([]Holding{
		brk(12, 692000, 133230760), option(1, 145600, 37074128, "CALL"), brk(13, 3840000, 739315200),
		option(2, 31900, 8122697, "PUT"), brk(21, 666422889, 128306398819),
	})
	want := []Holding{
		brk(12, 692000+3840000+666422889, 133230760+739315200+128306398819),
		option(1, 145600, 37074128, "CALL"), option(2, 31900, 8122697, "PUT"),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Combine = %+v\nwant      %+v", got, want)
	}
	huge := brk(1, 1, 1<<62-1)
	if got := Combine([]Holding{huge, huge, huge}); len(got) != 2 {
		t.Fatalf("sums that would overflow: %d holdings, want 2", len(got))
	}
}

func FuzzParseIdentifier(f *testing.F) {
	for _, s := range []string{"AAPL", "037833100", "320193", "02079K305", "A!PL", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		keys, err := ParseIdentifier(s)
		if err != nil {
			if !errors.Is(err, ErrIdentifier) || len(keys) != 0 {
				t.Fatalf("ParseIdentifier(%q) = %v, %v", s, keys, err)
			}
			return
		}
		for _, k := range keys {
			if k.Value == "" || len(k.Value) > 10 {
				t.Fatalf("ParseIdentifier(%q) key %v", s, k)
			}
		}
	})
}

func TestCheckPriceBand(t *testing.T) {
	row := func(shares, value int64, kind string) Holding {
		return Holding{Shares: shares, Value: value, ShareType: kind}
	}
	filing := func(filed string, rows ...Holding) Filing {
		return Filing{Accession: "0001816616-21-000007", FilingDate: filed, Holdings: rows}
	}
	cases := []struct {
		name string
		f    Filing
		says string // empty when the filing passes
	}{
		{"prices in the band", filing("2021-11-12", row(208_234, 29_465_000, "SH"), row(258_233, 72_801_000, "SH")), ""},
		// NZS Capital's AAPL row written in dollars before 2023: $141,500 a share.
		{"dollars before 2023", filing("2021-11-12", row(208_234, 29_465_000_000, "SH")), "VALUE looks written in dollars, but a filing dated 2021-11-12 (before 2023-01-03)"},
		{"too large after 2023", filing("2024-02-14", row(100, 150_000_000, "SH"), row(100, 150_000_000, "SH")), "$1500000.00, above $20000: no share trades near that"},
		{"one class A share among many", filing("2024-02-14", row(10, 7_000_000, "SH"), row(100, 15_000, "SH"), row(100, 25_000, "SH")), ""},
		{"two rows, one odd", filing("2024-02-14", row(10, 7_000_000, "SH"), row(100, 15_000, "SH")), ""},
		{"principal amounts imply no price", filing("2024-02-14", row(1_000, 1_000_000_000, "PRN")), ""},
		{"zero shares are left out", filing("2024-02-14", row(0, 1_000_000_000, "SH")), ""},
		{"no rows", filing("2024-02-14"), ""},
	}
	for _, c := range cases {
		err := CheckPriceBand(c.f)
		switch {
		case c.says == "" && err != nil:
			t.Errorf("%s: err = %v, want none", c.name, err)
		case c.says != "" && (!errors.Is(err, ErrImplausibleValues) || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "filing 0001816616-21-000007")):
			t.Errorf("%s: err = %v, want one naming the filing and saying %q", c.name, err, c.says)
		}
	}
}
