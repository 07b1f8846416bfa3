package companyfacts_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/sampledata"
)

// countingOpener hands out readers of in-memory files and fails the test
// when more than max of them are open at once.
type countingOpener struct {
	t         *testing.T
	max       int32
	open, top atomic.Int32
}

func (o *countingOpener) source(name, body string) companyfacts.Source {
	return companyfacts.Source{Name: name, Open: func() (io.ReadCloser, error) {
		n := o.open.Add(1)
		if n > o.max {
			o.t.Errorf("opening %s: %d files open at once, at most %d allowed", name, n, o.max)
		}
		if n > o.top.Load() {
			o.top.Store(n)
		}
		return closer{Reader: strings.NewReader(body), close: func() { o.open.Add(-1) }}, nil
	}}
}

type closer struct {
	io.Reader
	close func()
}

func (c closer) Close() error { c.close(); return nil }

var cikField = regexp.MustCompile(`"cik"\s*:\s*\d+`)

// TestStreamHoldsOneFileOpen reads 500 companyfacts documents (copies of
// the samples under other CIKs) with the tickers file last: one file is
// open at a time, and every company comes out with its ticker.
func TestStreamHoldsOneFileOpen(t *testing.T) {
	entries, err := fs.ReadDir(sampledata.USFinancials, sampledata.USFinancialsDir)
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, e := range entries {
		if companyfacts.IsDocumentName(e.Name()) {
			raw, err := fs.ReadFile(sampledata.USFinancials, path.Join(sampledata.USFinancialsDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, string(raw))
		}
	}
	o := &countingOpener{t: t, max: 1}
	var sources []companyfacts.Source
	var tickers []string
	for i := range 500 {
		cik := 9_000_000_001 + i
		body := cikField.ReplaceAllString(docs[i%len(docs)], fmt.Sprintf(`"cik": %d`, cik))
		sources = append(sources, o.source(fmt.Sprintf("CIK%010d.json", cik), body))
		tickers = append(tickers, fmt.Sprintf(`"%d":{"cik_str":%d,"ticker":"T%d","title":"copy"}`, i, cik, i))
	}
	sources = append(sources, o.source("company_tickers.json", "{"+strings.Join(tickers, ",")+"}"))
	files := 0
	n := 0
	for c, err := range companyfacts.Stream(sources, func(string, int) { files++ }) {
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Tickers) != 1 || c.Tickers[0] != fmt.Sprintf("T%d", n) {
			t.Fatalf("company %d: tickers %v", n, c.Tickers)
		}
		n++
	}
	if n != 500 || files != 501 || o.top.Load() != 1 || o.open.Load() != 0 {
		t.Fatalf("%d companies, %d files reported, at most %d open, %d left open", n, files, o.top.Load(), o.open.Load())
	}
}

func TestStreamRefusals(t *testing.T) {
	o := &countingOpener{t: t, max: 1}
	tickers := o.source("company_tickers.json", `{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."}}`)
	cases := map[string]struct {
		sources []companyfacts.Source
		want    string
	}{
		"a CIK file that is not companyfacts": {[]companyfacts.Source{tickers, o.source("CIK0000320193.json", `{"0":{}}`)}, "CIK0000320193.json: not a companyfacts document"},
		"a company without a ticker":          {[]companyfacts.Source{o.source("CIK0000789019.json", `{"cik":789019,"entityName":"MICROSOFT CORPORATION","facts":{}}`)}, "CIK0000789019.json: CIK 0000789019 has no ticker"},
		"a file that cannot be read":          {[]companyfacts.Source{tickers, {Name: "a.zip:CIK0000320193.json", Open: func() (io.ReadCloser, error) { return io.NopCloser(iotestErr{}), nil }}}, "a.zip:CIK0000320193.json: zip: checksum error"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			for _, err := range companyfacts.Stream(c.sources, nil) {
				if err == nil {
					continue
				}
				if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err = %v, want %q", err, c.want)
				}
				return
			}
			t.Fatal("no error")
		})
	}
}

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errors.New("zip: checksum error") }
