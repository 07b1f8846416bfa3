package nse

import (
	"testing"
	"time"
)

func TestKnownAt(t *testing.T) {
	// 15:30 in India is 10:00 UTC.
	closing := time.Date(2021, 6, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct{ retrieved, want time.Time }{
		{closing.Add(-time.Hour), closing},
		{closing.Add(time.Hour + 1500*time.Microsecond), closing.Add(time.Hour + 2*time.Millisecond)},
	} {
		got, err := KnownAt("2021-06-01", c.retrieved)
		if err != nil || !got.Equal(c.want) {
			t.Fatalf("KnownAt(%v) = %v, %v; want %v", c.retrieved, got, err, c.want)
		}
	}
	if _, err := KnownAt("01-06-2021", closing); err == nil {
		t.Fatal("a malformed date was accepted")
	}
}

func TestParseISIN(t *testing.T) {
	for _, ok := range []string{"INE002A01018", "ine591g01017", "INE881J08623", "INF109KB1XT3"} {
		if _, err := ParseISIN(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"INE002A01019", "INE002A0101", "1NE002A01018", "INE002A0101X", "INE002A-1018", ""} {
		if _, err := ParseISIN(bad); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func TestRupeesFromLakhs(t *testing.T) {
	for in, want := range map[string]float64{"4685.65": 468565000, "0.07": 7000, "120751.37": 12075137000, "12": 1200000, "0.000001": 0.1} {
		if got, err := RupeesFromLakhs(in); err != nil || got != want {
			t.Errorf("%s lakhs = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1", "1e5", "1.", ".5", "NaN"} {
		if _, err := RupeesFromLakhs(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

func TestVisibleAndAgrees(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	first := Row{Symbol: "TCS", Series: "EQ", ISIN: "INE467B01029", Date: "2021-06-01", Open: 3168.6, High: 3169.95, Low: 3132,
		Close: 3153, Last: 3153.9, PrevClose: 3159.15, Volume: 1377441, Turnover: 4336083044.9, Trades: 91948, KnownAt: at}
	fixed := first
	fixed.Close, fixed.KnownAt = 3154, at.Add(time.Hour)
	next := first
	next.Date = "2021-06-02"
	versions := func(yield func(Row, error) bool) {
		for _, r := range []Row{first, fixed, next} {
			if !yield(r, nil) {
				return
			}
		}
	}
	var got []Row
	for r, err := range Visible(versions, at) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != 2 || got[0] != first || got[1] != next {
		t.Fatalf("Visible = %+v", got)
	}
	// The full bhavcopy states 43360.83 lakhs.
	lakhs := first
	lakhs.Turnover, lakhs.TurnoverInLakhs = 4336083000, true
	if !lakhs.Agrees(first) {
		t.Fatal("a turnover in lakhs disagrees with its exact figure")
	}
	lakhs.Turnover = 4336084000
	if lakhs.Agrees(first) {
		t.Fatal("a turnover 955 INR off agrees")
	}
	if fixed.Agrees(first) {
		t.Fatal("another close agrees")
	}
}

func TestSymbolMatch(t *testing.T) {
	known := time.Date(2021, 6, 5, 0, 0, 0, 0, time.UTC)
	rows := []Row{
		{Symbol: "NIITTECH", ISIN: "INE591G01017", Date: "2020-07-01", KnownAt: known},
		{Symbol: "NIITTECH", ISIN: "INE591G01017", Date: "2020-07-10", KnownAt: known},
		{Symbol: "COFORGE", ISIN: "INE591G01017", Date: "2020-08-03", KnownAt: known},
		{Symbol: "NIITTECH", ISIN: "INE000000001", Date: "2020-07-10", KnownAt: known},
		{Symbol: "NIITTECH", ISIN: "INE000000002", Date: "2020-07-20", KnownAt: known.Add(time.Hour)},
		{Symbol: "NIITTECH", ISIN: "INE000000003", Date: "2020-09-01", KnownAt: known},
	}
	m := SymbolMatch{Symbol: "NIITTECH", OnOrBefore: "2020-08-31", AsOf: known}
	for _, r := range rows {
		m.Offer(r)
	}
	// 2020-07-20 is not known yet and 2020-09-01 is after the day; of the
	// two rows of 2020-07-10, the smaller ISIN wins.
	if !m.Found() || m.Best.ISIN != "INE000000001" || m.Best.Date != "2020-07-10" {
		t.Fatalf("Best = %+v", m.Best)
	}
	none := SymbolMatch{Symbol: "NIITTECH", OnOrBefore: "2020-06-30", AsOf: known}
	for _, r := range rows {
		none.Offer(r)
	}
	if none.Found() {
		t.Fatalf("a row was kept before the symbol's first day: %+v", none.Best)
	}
}
