// Command benchinput writes the inputs of the ingestion benchmark into a
// directory, generated from the bundled samples at benchmark time and never
// committed: copies of the sample companyfacts documents under synthetic
// CIKs (from 9000000001, above any the SEC has assigned) with a
// company_tickers.json naming them (tickers BENCH1, BENCH2, ...), the same
// documents as a companyfacts.zip. It prints the number of files and of
// facts they hold. Listings need no generated input: the bundled sample is
// a real list of every listed A-share (5,524 rows), and the benchmark
// ingests it as it is. `go tool task bench` runs it; see scripts/bench-ingest.sh.
//
// With -from DIR the copies are made of the real companyfacts documents in
// DIR (CIK##########.json, as the SEC serves them, a few MB each) instead
// of the trimmed samples, so that the generated filers have real sizes
// (go tool task bench-scale, docs/capacity.md). -zip=false skips the zip.
//
// The other datasets of the scale benchmark have one flag each, off (0) by
// default; each writes its generated input under -out and the keys a load
// generator asks for under keys/ (one a line), all labelled as generated:
//
//   - -filings N: N 10-K filers × 20 years of filing folders under
//     us_filings/, copies of the sample's real folders (usfilings.go);
//   - -holders N: N 13F filers × 40 quarters of full submission text files
//     under us_holdings/, from the sample's real information tables
//     (holdings.go);
//   - -bars N: N A-share codes of Tushare daily files under china_prices/,
//     the sample's real bars re-dated and re-coded (bars.go);
//   - -nse-rows N: whole trading days of NSE UDiFF bhavcopy under
//     nse_udiff/, the sample's real days re-dated, until N rows
//     (nse.go);
//   - -judgments N: N judgments under india_judgments/, metadata JSON lines
//     and text files re-laid from the sample's real texts (judgments.go).
package main

import (
	"archive/zip"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/quarrydata/quarry/sampledata"
)

// firstCIK is above every CIK the SEC has assigned (about 2.1 million in
// 2026), so a generated copy never poses as a real filer.
const firstCIK = 9_000_000_001

var cikField = regexp.MustCompile(`"cik"\s*:\s*\d+`)

func main() {
	out := flag.String("out", "", "directory to write into (created)")
	companies := flag.Int("companyfacts", 2000, "companyfacts documents to write")
	from := flag.String("from", "", "copy the companyfacts documents of this directory, not the bundled samples")
	withZip := flag.Bool("zip", true, "also write companyfacts.zip")
	gens := []generator{
		{flag.Int("filings", 0, "10-K filers to generate, 20 yearly filings each"), writeFilings},
		{flag.Int("holders", 0, "13F filers to generate, 40 quarterly filings each"), writeHoldings},
		{flag.Int("bars", 0, "A-share codes to generate, bars from listing to today"), writeBars},
		{flag.Int("nse-rows", 0, "NSE rows to generate, in whole trading days"), writeNSE},
		{flag.Int("judgments", 0, "India judgments to generate"), writeJudgments},
	}
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "benchinput: -out is required")
		os.Exit(2)
	}
	if err := run(*out, *from, *companies, *withZip, gens); err != nil {
		fmt.Fprintln(os.Stderr, "benchinput:", err)
		os.Exit(1)
	}
}

// generator is one dataset's flag and the function that writes its input.
type generator struct {
	n     *int
	write func(dir string, n int) (counts, error)
}

// count is one figure of what a generator wrote.
type count struct {
	name string
	n    int
}

// counts are what a generator wrote, printed as name<TAB>number lines.
type counts []count

func (c counts) print() {
	for _, x := range c {
		fmt.Printf("%s\t%d\n", x.name, x.n)
	}
}

func run(dir, from string, companies int, withZip bool, gens []generator) error {
	if companies > 0 {
		if err := write(dir, from, companies, withZip); err != nil {
			return err
		}
	}
	for _, g := range gens {
		if *g.n <= 0 {
			continue
		}
		c, err := g.write(dir, *g.n)
		if err != nil {
			return err
		}
		c.print()
	}
	return nil
}

func write(dir, from string, companies int, withZip bool) error {
	samples, err := companyFacts(from)
	if err != nil {
		return err
	}
	factsDir := filepath.Join(dir, "companyfacts")
	if err := os.MkdirAll(factsDir, 0o755); err != nil {
		return err
	}
	zipName := filepath.Join(dir, "companyfacts.zip")
	if !withZip {
		zipName = os.DevNull
	}
	zf, err := os.Create(zipName)
	if err != nil {
		return err
	}
	defer zf.Close()
	zw := zip.NewWriter(zf)
	tickers := map[string]tickerRow{}
	facts := 0
	for i := range companies {
		s := samples[i%len(samples)]
		cik := firstCIK + i
		doc := cikField.ReplaceAll(s.body, fmt.Appendf(nil, `"cik": %d`, cik))
		name := fmt.Sprintf("CIK%010d.json", cik)
		if err := os.WriteFile(filepath.Join(factsDir, name), doc, 0o644); err != nil {
			return err
		}
		w, err := zw.Create(name)
		if err != nil {
			return err
		}
		if _, err := w.Write(doc); err != nil {
			return err
		}
		tickers[fmt.Sprint(i)] = tickerRow{CIK: cik, Ticker: fmt.Sprintf("BENCH%d", i+1), Title: "benchmark copy of " + s.name}
		facts += s.facts
	}
	if err := zw.Close(); err != nil {
		return err
	}
	raw, err := json.Marshal(tickers)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "company_tickers.json"), raw, 0o644); err != nil {
		return err
	}
	fmt.Printf("companyfacts files\t%d\nfacts\t%d\n", companies, facts)
	return nil
}

type tickerRow struct {
	CIK    int    `json:"cik_str"`
	Ticker string `json:"ticker"`
	Title  string `json:"title"`
}

type sample struct {
	name  string
	body  []byte
	facts int
}

// companyFacts reads the companyfacts documents of dir, or the bundled
// ones when dir is empty, and counts the facts each holds (every entry of
// facts.<taxonomy>.<concept>.units.<unit>).
func companyFacts(dir string) ([]sample, error) {
	fsys, root := fs.FS(sampledata.USFinancials), sampledata.USFinancialsDir
	if dir != "" {
		fsys, root = os.DirFS(dir), "."
	}
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, err
	}
	var out []sample
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "CIK") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		body, err := fs.ReadFile(fsys, path.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		var doc struct {
			EntityName string `json:"entityName"`
			Facts      map[string]map[string]struct {
				Units map[string][]json.RawMessage `json:"units"`
			} `json:"facts"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		s := sample{name: doc.EntityName, body: body}
		for _, concepts := range doc.Facts {
			for _, c := range concepts {
				for _, rows := range c.Units {
					s.facts += len(rows)
				}
			}
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no companyfacts document in %s", root)
	}
	return out, nil
}
