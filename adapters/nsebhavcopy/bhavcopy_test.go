package nsebhavcopy_test

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/nsebhavcopy"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/domain/source"
)

var retrieved = time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)

func text(s string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }
}

func readTestdata(t *testing.T, name string) nsebhavcopy.Set {
	t.Helper()
	open := func() (io.ReadCloser, error) { return os.Open("testdata/" + name) }
	set, err := nsebhavcopy.ReadFile(nsebhavcopy.File{Name: "testdata/" + name, Open: open, RetrievedAt: retrieved})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return set
}

func bySymbol(rows []nse.Row) map[string]nse.Row {
	out := map[string]nse.Row{}
	for _, r := range rows {
		out[r.Symbol+" "+r.Series] = r
	}
	return out
}

func TestLegacyBhavcopy(t *testing.T) {
	// Real rows of NSE's cm01JUN2021bhav.csv.
	rows := bySymbol(readTestdata(t, "cm01JUN2021bhav.csv").Rows)
	want := nse.Row{Symbol: "RELIANCE", Series: "EQ", ISIN: "INE002A01018", Date: "2021-06-01", Open: 2166, High: 2202, Low: 2146.5,
		Close: 2168.9, Last: 2164.3, PrevClose: 2160.3, Volume: 12928379, Turnover: 28138892609, Trades: 390299,
		Source: "cm01JUN2021bhav.csv", KnownAt: retrieved}
	if got := rows["RELIANCE EQ"]; got != want {
		t.Fatalf("RELIANCE = %+v\nwant %+v", got, want)
	}
	// A debt row without a last price (LAST 0.0).
	if nt := rows["SREIBNPNCD NT"]; nt.Last != 0 || nt.Close != 381 {
		t.Fatalf("SREIBNPNCD NT = %+v", nt)
	}
}

// The UDiFF test files are real: the header and 400 rows of NSE's
// BhavCopy_NSE_CM_0_0_0_YYYYMMDD_F_0000.csv of 2024-07-01 (the rows of the
// securities also in testdata/cm01JUL2024bhav.csv, the legacy file of that
// day) and of 2026-08-28 (its first 400 rows), as BAC-Brindco/nse-eod-pipeline
// cut them from NSE's archives (sampledata/README.md).
const (
	udiff20240701 = "BhavCopy_NSE_CM_0_0_0_20240701_F_0000.csv"
	legacy0107    = "cm01JUL2024bhav.csv"
	udiff20260828 = "BhavCopy_NSE_CM_0_0_0_20260828_F_0000.csv"
	full28082026  = "sec_bhavdata_full_28082026.csv"
)

func TestUDiFFBhavcopy(t *testing.T) {
	for _, c := range []struct {
		file string
		want []nse.Row
	}{
		{udiff20240701, []nse.Row{
			{Symbol: "ABB", Series: "EQ", ISIN: "INE117A01022", Date: "2024-07-01", Open: 8490.9, High: 8645.85, Low: 8461.35, Close: 8587.4,
				Last: 8637, PrevClose: 8490.9, Volume: 251582, Turnover: 2147320207.3, Trades: 38366},
			{Symbol: "ADANIPORTS", Series: "EQ", ISIN: "INE742F01042", Date: "2024-07-01", Open: 1483, High: 1491.4, Low: 1471.6, Close: 1474.5,
				Last: 1475, PrevClose: 1478.1, Volume: 3372730, Turnover: 4990454948.95, Trades: 81073},
			// LastPric empty (the legacy file writes 0.0): no last price.
			{Symbol: "9IIFL28A", Series: "NT", ISIN: "INE530B07260", Date: "2024-07-01", Open: 925.3, High: 925.3, Low: 925, Close: 925,
				PrevClose: 949.99, Volume: 268, Turnover: 247918.3, Trades: 5},
		}},
		{udiff20260828, []nse.Row{
			{Symbol: "AXISBANK", Series: "EQ", ISIN: "INE238A01034", Date: "2026-08-28", Open: 1256, High: 1265.4, Low: 1248.2, Close: 1265,
				Last: 1265, PrevClose: 1256, Volume: 3243469, Turnover: 4088549528.7, Trades: 103208},
			// ClsPric 222.00 is the close, not SttlmPric 221.99.
			{Symbol: "20MICRONS", Series: "EQ", ISIN: "INE144J01027", Date: "2026-08-28", Open: 217.34, High: 224.87, Low: 217, Close: 222,
				Last: 220.3, PrevClose: 216.37, Volume: 241206, Turnover: 53281611.76, Trades: 5911},
			// A block-deal window row (series BL) beside the same ISIN's EQ row.
			{Symbol: "ATHERENERG", Series: "BL", ISIN: "INE0LEZ01016", Date: "2026-08-28", Open: 1480, High: 1480, Low: 1480, Close: 1480,
				Last: 1480, PrevClose: 710, Volume: 11880000, Turnover: 17582400000, Trades: 1},
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			rows := readTestdata(t, c.file).Rows
			if len(rows) != 400 {
				t.Fatalf("%d rows, want every one of the file's 400", len(rows))
			}
			got := bySymbol(rows)
			for _, w := range c.want {
				w.Source, w.KnownAt = c.file, retrieved
				if g := got[w.Symbol+" "+w.Series]; g != w {
					t.Fatalf("%s %s = %+v\nwant %+v", w.Symbol, w.Series, g, w)
				}
			}
		})
	}
}

func TestUDiFFGivesTheLegacyRows(t *testing.T) {
	// The same securities of the same day in both layouts: every row
	// agrees on symbol, series, ISIN, prices, previous close, volume,
	// turnover (INR in both, no conversion) and trades.
	legacy := bySymbol(readTestdata(t, legacy0107).Rows)
	udiff := readTestdata(t, udiff20240701).Rows
	if len(udiff) != 400 || len(legacy) != len(udiff) {
		t.Fatalf("%d UDiFF and %d legacy rows", len(udiff), len(legacy))
	}
	for _, u := range udiff {
		l := legacy[u.Symbol+" "+u.Series]
		if l.Source != legacy0107 || !u.SameValues(l) || u.KnownAt != l.KnownAt {
			t.Fatalf("UDiFF %+v\nlegacy %+v", u, l)
		}
	}
}

func TestFullBhavcopyAgreesWithTheUDiFF(t *testing.T) {
	// sec_bhavdata_full of 2026-08-28, its first 400 rows: the 314 that
	// the UDiFF excerpt also holds agree with it, turnover in lakhs within
	// the ±500 INR of its rounding.
	udiff := bySymbol(readTestdata(t, udiff20260828).Rows)
	full := readTestdata(t, full28082026).Rows
	shared := 0
	for _, f := range full {
		u, ok := udiff[f.Symbol+" "+f.Series]
		if !ok {
			continue
		}
		shared++
		f.ISIN = u.ISIN
		if !f.Agrees(u) {
			t.Fatalf("full %+v\nUDiFF %+v", f, u)
		}
	}
	if len(full) != 400 || shared != 314 {
		t.Fatalf("%d full rows, %d shared with the UDiFF", len(full), shared)
	}
	// AXISBANK: 40885.50 lakhs is 4,088,550,000 INR, 471.30 from the
	// UDiFF's 4,088,549,528.70.
	if a := bySymbol(full)["AXISBANK EQ"]; a.Turnover != 4088550000 {
		t.Fatalf("AXISBANK turnover = %v", a.Turnover)
	}
}

func TestFullBhavcopyAgreesWithTheLegacy(t *testing.T) {
	// Real rows of NSE's sec_bhavdata_full_01062021.csv: the same day as
	// the legacy file, no ISIN, turnover in lakhs.
	legacy := bySymbol(readTestdata(t, "cm01JUN2021bhav.csv").Rows)
	full := readTestdata(t, "sec_bhavdata_full_01062021.csv").Rows
	if len(full) == 0 {
		t.Fatal("no rows")
	}
	for _, f := range full {
		l, ok := legacy[f.Symbol+" "+f.Series]
		if !ok || f.ISIN != "" || !f.TurnoverInLakhs {
			t.Fatalf("%s %s: in the legacy file %v, ISIN %q", f.Symbol, f.Series, ok, f.ISIN)
		}
		f.ISIN = l.ISIN
		if !f.Agrees(l) {
			t.Fatalf("%s %s: full %+v\nlegacy %+v", f.Symbol, f.Series, f, l)
		}
	}
	// 4336083044.9 INR is 43360.83 lakhs: converted exactly.
	if tcs := bySymbol(full)["TCS EQ"]; tcs.Turnover != 4336083000 {
		t.Fatalf("TCS turnover = %v", tcs.Turnover)
	}
}

func TestEquityList(t *testing.T) {
	set := readTestdata(t, "EQUITY_L.csv")
	if len(set.Rows) != 0 || set.Listings["COFORGE"] != "INE591G01025" || set.Listings["RELIANCE"] != "INE002A01018" {
		t.Fatalf("listings = %v", set.Listings)
	}
}

func TestRefusals(t *testing.T) {
	legacy, err := os.ReadFile("testdata/cm01JUN2021bhav.csv")
	if err != nil {
		t.Fatal(err)
	}
	header, first, _ := strings.Cut(string(legacy), "\n")
	row := strings.SplitN(first, "\n", 2)[0]
	udiffHeader, udiffRows, _ := strings.Cut(mustRead(t, udiff20240701), "\n")
	otherSegment := strings.Replace(strings.SplitN(udiffRows, "\n", 2)[0], ",CM,", ",FO,", 1)
	for _, c := range []struct{ name, body, says string }{
		{"unknown header", "a,b\n1,2\n", ":1: header is none"},
		{"truncated", string(legacy[:len(legacy)-40]), "wrong number of fields"},
		{"bad ISIN", header + "\n" + strings.Replace(row, "INE144J01027", "INE144J01028", 1) + "\n", ":2: ISIN"},
		{"bad date", header + "\n" + strings.Replace(row, "01-JUN-2021", "2021-06-01", 1) + "\n", "TIMESTAMP"},
		{"negative volume", header + "\n" + strings.Replace(row, ",456527,", ",-1,", 1) + "\n", "TOTTRDQTY"},
		{"high below low", header + "\n" + strings.Replace(row, "65.95,65.95,58.75", "65.95,55.95,58.75", 1) + "\n", "low"},
		{"repeated row", header + "\n" + row + "\n" + row + "\n", ":3: a second row"},
		{"no rows", header + "\n", ":2: no rows"},
		{"another segment", udiffHeader + "\n" + otherSegment + "\n", "Sgmt is \"FO\""},
		{"a line past the bound", header + "\n" + strings.Repeat("x", source.MaxLineBytes+1) + "\n", "day.csv:2: a line longer than 1 MiB"},
		{"a long field is quoted short", udiffHeader + "\n" + strings.Replace(strings.SplitN(udiffRows, "\n", 2)[0], ",CM,", ","+strings.Repeat("F", 500<<10)+",", 1) + "\n",
			"Sgmt is \"" + strings.Repeat("F", 64) + "\"…(512000 bytes), not CM"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := nsebhavcopy.ReadFile(nsebhavcopy.File{Name: "day.csv", Open: text(c.body), RetrievedAt: retrieved})
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "day.csv:") || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %.300v, want it to say %q", err, c.says)
			}
			if len(err.Error()) > 1024 {
				t.Fatalf("the refusal is %d bytes long", len(err.Error()))
			}
		})
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func FuzzReadFile(f *testing.F) {
	// testdata/fuzz/FuzzReadFile holds the first lines of the real UDiFF,
	// legacy and full-bhavcopy files of 2024 and 2026.
	for _, name := range []string{"cm01JUN2021bhav.csv", "sec_bhavdata_full_01062021.csv", "EQUITY_L.csv"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		set, err := nsebhavcopy.ReadFile(nsebhavcopy.File{Name: "f.csv", Open: text(string(body)), RetrievedAt: retrieved})
		if err != nil {
			if !errors.Is(err, source.ErrBadInput) {
				t.Fatalf("refused without ErrBadInput: %v", err)
			}
			return
		}
		for _, r := range set.Rows {
			if err := r.Check(); err != nil {
				t.Fatalf("accepted a bad row %+v: %v", r, err)
			}
			if r.ISIN != "" {
				if _, err := nse.ParseISIN(r.ISIN); err != nil {
					t.Fatalf("accepted a bad ISIN: %+v", r)
				}
			}
		}
	})
}

// TestReadHead: a file's head names its layout's kind and its first
// row's day, and a bad first row is refused as ReadFile refuses it.
func TestReadHead(t *testing.T) {
	cases := map[string]nsebhavcopy.Head{
		"cm01JUN2021bhav.csv":                       {Date: "2021-06-01"},
		"BhavCopy_NSE_CM_0_0_0_20260828_F_0000.csv": {Date: "2026-08-28"},
		"sec_bhavdata_full_01062021.csv":            {Date: "2021-06-01", Lakhs: true},
		"EQUITY_L.csv":                              {Listing: true},
	}
	for name, want := range cases {
		open := func() (io.ReadCloser, error) { return os.Open("testdata/" + name) }
		if got, err := nsebhavcopy.ReadHead(nsebhavcopy.File{Name: name, Open: open, RetrievedAt: retrieved}); err != nil || got != want {
			t.Errorf("%s: %+v, %v; want %+v", name, got, err, want)
		}
	}
	head, err := os.ReadFile("testdata/cm01JUN2021bhav.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(head), "\n", 3)
	bad := lines[0] + "\n" + strings.Replace(lines[1], "INE", "XX", 1) + "\n"
	_, headErr := nsebhavcopy.ReadHead(nsebhavcopy.File{Name: "day.csv", Open: text(bad), RetrievedAt: retrieved})
	_, fileErr := nsebhavcopy.ReadFile(nsebhavcopy.File{Name: "day.csv", Open: text(bad), RetrievedAt: retrieved})
	if !errors.Is(headErr, source.ErrBadInput) || fileErr == nil || headErr.Error() != fileErr.Error() {
		t.Fatalf("bad first row: head %v, file %v; want the same refusal", headErr, fileErr)
	}
}
