package companyfacts_test

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/sampledata"
)

func sampleFiles(t testing.TB) []companyfacts.File {
	t.Helper()
	entries, err := fs.ReadDir(sampledata.USFinancials, sampledata.USFinancialsDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []companyfacts.File
	for _, e := range entries {
		raw, err := fs.ReadFile(sampledata.USFinancials, path.Join(sampledata.USFinancialsDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, companyfacts.File{Name: e.Name(), Body: strings.NewReader(string(raw))})
	}
	return files
}

func TestReadSample(t *testing.T) {
	companies, err := companyfacts.Read(sampleFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	byTicker := map[string]financials.Company{}
	for _, c := range companies {
		byTicker[c.Tickers[0]] = c
	}
	for ticker, cik := range map[string]string{"AAPL": "0000320193", "MSFT": "0000789019", "NVDA": "0001045810"} {
		c, ok := byTicker[ticker]
		if !ok || c.CIK != cik || len(c.Facts) == 0 {
			t.Fatalf("%s: %+v", ticker, c)
		}
		annual := financials.Build(c, financials.Income, financials.Annual, time.Now())
		if len(annual) < 3 {
			t.Errorf("%s has %d fiscal years, want at least 3", ticker, len(annual))
		}
	}
}

func TestReadRefusesBadFiles(t *testing.T) {
	const tickers = `{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."}}`
	fact := `{"start":"2023-10-01","end":"2024-09-28","val":391035000000,"accn":"0000320193-24-000123","fy":2024,"fp":"FY","form":"10-K","filed":"2024-11-01"}`
	facts := func(f string) string {
		return `{"cik":320193,"entityName":"Apple Inc.","facts":{"us-gaap":{"Revenues":{"units":{"USD":[` + f + `]}}}}}`
	}
	cases := map[string]struct {
		files []string
		says  string
	}{
		"truncated":         {[]string{tickers, facts(fact)[:60]}, "f1.json: byte 60: truncated"},
		"syntax":            {[]string{tickers, `{"cik":320193,}`}, "f1.json: byte 15"},
		"wrong type":        {[]string{tickers, `{"cik":320193,"entityName":7,"facts":{}}`}, "entityName"},
		"trailing":          {[]string{tickers, facts(fact) + `{}`}, "data after"},
		"bad accession":     {[]string{tickers, facts(strings.Replace(fact, "0000320193-24-000123", "123", 1))}, "facts.us-gaap.Revenues.units.USD[0]"},
		"bad date":          {[]string{tickers, facts(strings.Replace(fact, "2024-09-28", "2024-09-31", 1))}, "end \"2024-09-31\""},
		"no ticker":         {[]string{facts(fact)}, "no ticker"},
		"bad ticker row":    {[]string{`{"0":{"cik_str":320193,"ticker":"A A","title":"x"}}`, facts(fact)}, "0.ticker"},
		"bad row key":       {[]string{`{"x":{"cik_str":320193,"ticker":"AAPL","title":"x"}}`, facts(fact)}, "row number"},
		"no cik":            {[]string{tickers, `{"entityName":"Apple","facts":{}}`}, "cik"},
		"empty file":        {[]string{tickers, ``}, "f1.json: byte 0: truncated"},
		"string val":        {[]string{tickers, facts(strings.Replace(fact, "391035000000", `"lots"`, 1))}, `f1.json: facts.us-gaap.Revenues.units.USD[0].val: "lots" is a string; a number belongs here`},
		"quoted val":        {[]string{tickers, facts(strings.Replace(fact, "391035000000", `"93736000000"`, 1))}, `facts.us-gaap.Revenues.units.USD[0].val: "93736000000" is a string`},
		"null val":          {[]string{tickers, facts(strings.Replace(fact, "391035000000", `null`, 1))}, `USD[0].val: null`},
		"no val":            {[]string{tickers, facts(strings.Replace(fact, `"val":391035000000,`, ``, 1))}, `USD[0].val: missing`},
		"quoted fy":         {[]string{tickers, facts(strings.Replace(fact, `"fy":2024`, `"fy":"2024"`, 1))}, `facts.us-gaap.Revenues.units.USD[0].fy: string where int is expected`},
		"second fact":       {[]string{tickers, facts(fact + "," + strings.Replace(fact, "391035000000", `"x"`, 1))}, `USD[1].val`},
		"quoted cik":        {[]string{tickers, `{"cik":"320193","entityName":"Apple Inc.","facts":{}}`}, `f1.json: cik: "320193" is a string`},
		"quoted cik_str":    {[]string{`{"0":{"cik_str":"320193","ticker":"AAPL","title":"Apple Inc."}}`, facts(fact)}, `f0.json: 0.cik_str: "320193" is a string`},
		"not an object":     {[]string{`[1,2]`}, "f0.json"},
		"zero cik in facts": {[]string{tickers, `{"cik":0,"entityName":"x","facts":{}}`}, "zero"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var files []companyfacts.File
			for i, body := range c.files {
				files = append(files, companyfacts.File{Name: "f" + string(rune('0'+i)) + ".json", Body: strings.NewReader(body)})
			}
			_, err := companyfacts.Read(files)
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want ErrBadInput mentioning %q", err, c.says)
			}
		})
	}
}

func FuzzReadFinancials(f *testing.F) {
	f.Fuzz(func(t *testing.T, body string) {
		tickers := companyfacts.File{Name: "t.json", Body: strings.NewReader(`{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."}}`)}
		companies, err := companyfacts.Read([]companyfacts.File{tickers, {Name: "fuzz.json", Body: strings.NewReader(body)}})
		if err != nil && !errors.Is(err, source.ErrBadInput) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		for _, c := range companies {
			for _, fact := range c.Facts {
				if fact.Validate() != nil {
					t.Fatalf("accepted invalid fact %+v", fact)
				}
			}
			for _, p := range []financials.Period{financials.Annual, financials.Quarterly, financials.TTM} {
				financials.Build(c, financials.Income, p, time.Now())
			}
		}
	})
}
