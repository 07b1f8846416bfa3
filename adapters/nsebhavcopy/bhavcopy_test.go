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

func TestUDiFFGivesTheLegacyRows(t *testing.T) {
	// testdata/BhavCopy_NSE_CM_0_0_0_20210601_F_0000.csv holds the same
	// real rows as cm01JUN2021bhav.csv written in UDiFF's 34 columns (no
	// published UDiFF file of a day the legacy bhavcopy also covers was
	// found; FinInstrmId, unknown, is left empty).
	legacy := readTestdata(t, "cm01JUN2021bhav.csv").Rows
	udiff := readTestdata(t, "BhavCopy_NSE_CM_0_0_0_20210601_F_0000.csv").Rows
	if len(udiff) != len(legacy) {
		t.Fatalf("%d and %d rows", len(udiff), len(legacy))
	}
	for i := range legacy {
		l, u := legacy[i], udiff[i]
		l.Source, u.Source = "", ""
		if l != u {
			t.Fatalf("row %d: legacy %+v\nUDiFF %+v", i, l, u)
		}
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
	udiffRow := "2021-06-01,2021-06-01,FO,NSE,STK,,INE144J01027,20MICRONS,EQ,,,,,,65.95,65.95,58.75,59.35,59.45,64.1,,59.35,,,456527,27549814.55,4260,F1,1,,,,,\n"
	udiffHeader, _, _ := strings.Cut(mustRead(t, "BhavCopy_NSE_CM_0_0_0_20210601_F_0000.csv"), "\n")
	for _, c := range []struct{ name, body, says string }{
		{"unknown header", "a,b\n1,2\n", ":1: header is none"},
		{"truncated", string(legacy[:len(legacy)-40]), "wrong number of fields"},
		{"bad ISIN", header + "\n" + strings.Replace(row, "INE144J01027", "INE144J01028", 1) + "\n", ":2: ISIN"},
		{"bad date", header + "\n" + strings.Replace(row, "01-JUN-2021", "2021-06-01", 1) + "\n", "TIMESTAMP"},
		{"negative volume", header + "\n" + strings.Replace(row, ",456527,", ",-1,", 1) + "\n", "TOTTRDQTY"},
		{"high below low", header + "\n" + strings.Replace(row, "65.95,65.95,58.75", "65.95,55.95,58.75", 1) + "\n", "low"},
		{"repeated row", header + "\n" + row + "\n" + row + "\n", ":3: a second row"},
		{"no rows", header + "\n", ":2: no rows"},
		{"another segment", udiffHeader + "\n" + udiffRow, "Sgmt \"FO\""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := nsebhavcopy.ReadFile(nsebhavcopy.File{Name: "day.csv", Open: text(c.body), RetrievedAt: retrieved})
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "day.csv:") || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want it to say %q", err, c.says)
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
	for _, name := range []string{"cm01JUN2021bhav.csv", "BhavCopy_NSE_CM_0_0_0_20210601_F_0000.csv", "sec_bhavdata_full_01062021.csv", "EQUITY_L.csv"} {
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
