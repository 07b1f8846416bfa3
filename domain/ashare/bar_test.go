package ashare_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
)

func TestParseAlias(t *testing.T) {
	ok := map[string]string{
		"SSE.600519": "SSE.600519", "600519.SH": "SSE.600519", "600519.sh": "SSE.600519",
		"sh600519": "SSE.600519", "SH600519": "SSE.600519", "sh.600519": "SSE.600519",
		"600519.XSHG": "SSE.600519", "000001.SZ": "SZSE.000001", "sz000001": "SZSE.000001",
		"000001.XSHE": "SZSE.000001", "830799.BJ": "BSE.830799", "bj830799": "BSE.830799",
		"830799.BJSE": "BSE.830799", "szse.000001": "SZSE.000001",
	}
	for in, want := range ok {
		c, err := ashare.ParseAlias(in)
		if err != nil || c.String() != want {
			t.Fatalf("ParseAlias(%q) = %v, %v; want %s", in, c, err, want)
		}
	}
	bad := []struct {
		in   string
		want error
		says string
	}{
		{"600519", ashare.ErrBareCode, "SSE.600519"},
		{"600519.SZ", ashare.ErrWrongRange, "SSE.600519"},
		{"sz600519", ashare.ErrWrongRange, "SSE.600519"},
		{"000001.XSHG", ashare.ErrWrongRange, "SZSE.000001"},
		{"999999.SH", ashare.ErrWrongRange, "no mainland exchange"},
		{"600519.HK", ashare.ErrMalformed, "600519.SH"},
		{"hk600519", ashare.ErrMalformed, ""},
		{"sh60051", ashare.ErrMalformed, ""},
		{"", ashare.ErrMalformed, ""},
	}
	for _, c := range bad {
		_, err := ashare.ParseAlias(c.in)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Fatalf("ParseAlias(%q) = %v, want %v mentioning %q", c.in, err, c.want, c.says)
		}
	}
}

func FuzzParseAlias(f *testing.F) {
	for _, s := range []string{"600519.SH", "sh600519", "sh.600519", "000001.XSHE", "SSE.600519", "600519", "bj830799"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ashare.ParseAlias(s)
		if err != nil {
			return
		}
		// Whatever form was read, the canonical form parses to itself.
		again, err := ashare.ParseCode(c.String())
		if err != nil || again != c {
			t.Fatalf("ParseAlias(%q) = %v, whose canonical form parses to %v, %v", s, c, again, err)
		}
	})
}

func TestUnits(t *testing.T) {
	// Moutai on 2022-06-30 (Tushare daily): vol 38982.43 lots, amount
	// 7984019.438 thousand CNY; the Yahoo-style copy gives 3,898,243 shares.
	if n, err := ashare.SharesFromLots("38982.43"); err != nil || n != 3898243 {
		t.Fatalf("SharesFromLots = %d, %v", n, err)
	}
	if n, err := ashare.SharesFromLots("539386.3"); err != nil || n != 53938630 {
		t.Fatalf("SharesFromLots one decimal = %d, %v", n, err)
	}
	if n, err := ashare.SharesFromLots("90919"); err != nil || n != 9091900 {
		t.Fatalf("SharesFromLots whole lots = %d, %v", n, err)
	}
	if _, err := ashare.SharesFromLots("1.005"); err == nil {
		t.Fatal("a fraction of a share was accepted")
	}
	if v, err := ashare.YuanFromThousands("7984019.438"); err != nil || v != 7984019438 {
		t.Fatalf("YuanFromThousands = %v, %v", v, err)
	}
	if v, err := ashare.YuanFromThousands("498695.1123"); err != nil || v != 498695112.3 {
		t.Fatalf("YuanFromThousands four decimals = %v, %v", v, err)
	}
	for _, s := range []string{"", "-1", "1e5", "NaN", "Inf", "1.", ".5", "1,5", " 1"} {
		if _, err := ashare.YuanFromThousands(s); err == nil {
			t.Fatalf("YuanFromThousands(%q) accepted", s)
		}
		if _, err := ashare.ParseDecimal("close", s); err == nil {
			t.Fatalf("ParseDecimal(%q) accepted", s)
		}
	}
}

func TestKnownAt(t *testing.T) {
	closing := time.Date(2022, 6, 30, 7, 0, 0, 0, time.UTC) // 15:00 in Beijing
	early := time.Date(2022, 6, 30, 3, 0, 0, 0, time.UTC)
	if k, _ := ashare.KnownAt("2022-06-30", early); !k.Equal(closing) {
		t.Fatalf("KnownAt before the close = %v", k)
	}
	late := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	if k, _ := ashare.KnownAt("2022-06-30", late); !k.Equal(late) {
		t.Fatalf("KnownAt of a later retrieval = %v", k)
	}
}

// moutai returns Kweichow Moutai's real bars (Tushare daily, unadjusted)
// around its 2021-06-25 and 2022-06-30 ex-dates, known at at.
func moutai(at time.Time) []ashare.Bar {
	rows := []struct {
		date                        string
		open, high, low, close, pre float64
	}{
		{"2021-06-24", 2040.01, 2080.0, 2021.0, 2068.05, 2038.0},
		{"2021-06-25", 2049.96, 2109.0, 2042.6, 2092.0, 2048.76},
		{"2022-06-29", 2028.0, 2042.0, 2011.01, 2030.0, 2036.0},
		{"2022-06-30", 2000.0, 2077.0, 1999.99, 2045.0, 2008.33},
		{"2022-07-01", 2055.0, 2067.77, 2015.21, 2029.05, 2045.0},
	}
	out := make([]ashare.Bar, len(rows))
	for i, r := range rows {
		out[i] = ashare.Bar{Code: "SSE.600519", TradeDate: r.date, Open: r.open, High: r.high, Low: r.low, Close: r.close, PreClose: r.pre, KnownAt: at}
	}
	return out
}

func TestStepsAndFactors(t *testing.T) {
	at := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	bars := moutai(at)
	steps := ashare.Steps(bars)
	// Between 2021-06-25 and 2022-06-29 the sample's real rows are left out
	// here, so 2022-06-29's pre_close (2036.00) differs from 2021-06-25's
	// close (2092.00) and counts as a step too: steps come from the bars held.
	if len(steps) != 3 || steps[0].Date != "2021-06-25" || steps[2].Date != "2022-06-30" {
		t.Fatalf("steps = %+v", steps)
	}
	// 2022-06-30: pre_close 2008.33 / prior close 2030.00.
	if r := steps[2].Ratio; r != 2008.33/2030.00 {
		t.Fatalf("2022-06-30 ratio = %v", r)
	}
	f := ashare.FactorsAt(steps, at)
	// Forward: the bar before the ex-date scales by r, so its close becomes
	// the ex-date's reference previous close: 2030.00 × 2008.33/2030.00.
	if got := ashare.Round4(2030.00 * f.Factor(ashare.Forward, "2022-06-29")); got != 2008.33 {
		t.Fatalf("forward close 2022-06-29 = %v", got)
	}
	if f.Factor(ashare.Forward, "2022-07-01") != 1 || f.Factor(ashare.Forward, "2022-06-30") != 1 {
		t.Fatal("the newest bars must stay as traded")
	}
	// Backward: from the first bar held, 1/r at each ex-date.
	want := 1 / (2048.76 / 2068.05) / (2036.0 / 2092.0) / (2008.33 / 2030.0)
	if got := f.Factor(ashare.Backward, "2022-07-01"); math.Abs(got-want) > 1e-12 {
		t.Fatalf("backward factor = %v, want %v", got, want)
	}
	if f.Factor(ashare.Backward, "2021-06-24") != 1 || f.Factor(ashare.NoAdjust, "2021-06-24") != 1 {
		t.Fatal("the first bar held stays as traded backward")
	}
	// Point in time: before the 2022-06-30 bar was known, the forward
	// factor of 2022-06-29 was 1.
	before := ashare.FactorsAt(steps, at.Add(-time.Second))
	if before.Factor(ashare.Forward, "2022-06-29") != 1 {
		t.Fatal("a step is visible before it was known")
	}
}

func TestStepsFollowCorrections(t *testing.T) {
	first := time.Date(2022, 7, 1, 8, 0, 0, 0, time.UTC)
	bars := moutai(first)[2:]
	// A later file republishes 2022-06-29 with another close (made up for
	// the test): the 2022-06-30 step is recomputed from the new close and
	// known from the correction on; the old one stays before it.
	fixed := bars[0]
	fixed.Close, fixed.KnownAt = 2031.0, first.Add(48*time.Hour)
	steps := ashare.Steps(append(bars, fixed))
	if len(steps) != 2 || steps[0].Ratio != 2008.33/2030.0 || steps[1].Ratio != 2008.33/2031.0 || !steps[1].KnownAt.Equal(fixed.KnownAt) {
		t.Fatalf("steps = %+v", steps)
	}
	if f := ashare.FactorsAt(steps, first.Add(time.Hour)); f.Factor(ashare.Forward, "2022-06-29") != 2008.33/2030.0 {
		t.Fatal("the first published step is not served before the correction")
	}
	// Steps are the same whatever the order of the versions.
	again := ashare.Steps([]ashare.Bar{fixed, bars[2], bars[1], bars[0]})
	if len(again) != len(steps) || again[1] != steps[1] {
		t.Fatalf("order-dependent steps %+v", again)
	}
}

func TestChangeAndCheck(t *testing.T) {
	b := moutai(time.Time{})[3]
	if b.Change() != 36.67 || b.PctChange() != 1.8259 {
		t.Fatalf("change %v pct %v", b.Change(), b.PctChange())
	}
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	b.High = 1990
	if err := b.Check(); err == nil {
		t.Fatal("a high below the open passed")
	}
	if _, err := ashare.ParseAdjust("qfq"); err == nil {
		t.Fatal("qfq accepted")
	}
}

// TestCheckRefusesAnAveragePriceOutsideTheRange: Moutai's real bar of
// 2022-06-30 (vol 38982.43 lots, amount 7984019.438 thousand yuan, an
// average of 2048.10) passes; its amount cut inside its last number
// (798401.9) implies a tenth of that and is refused.
func TestCheckRefusesAnAveragePriceOutsideTheRange(t *testing.T) {
	b := moutai(time.Time{})[3]
	b.Volume, b.Amount = 3898243, 7984019438
	if err := b.Check(); err != nil {
		t.Fatalf("the real bar: %v", err)
	}
	cut := b
	cut.Amount /= 10
	if err := cut.Check(); err == nil || !strings.Contains(err.Error(), "outside the day's low–high range") {
		t.Fatalf("a cut amount: %v", err)
	}
	none := b
	none.Volume, none.Amount = 0, 0
	if err := none.Check(); err != nil {
		t.Fatalf("a day without trades: %v", err)
	}
}
