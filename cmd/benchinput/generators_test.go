package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/adapters/ashareprices"
	"github.com/quarrydata/quarry/adapters/form13f"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ingest"
)

// figure is the number a generator's counts give name.
func figure(t *testing.T, c counts, name string) int {
	t.Helper()
	for _, x := range c {
		if x.name == name {
			return x.n
		}
	}
	t.Fatalf("no count %q in %v", name, c)
	return 0
}

// keys reads the keys a generator wrote.
func keys(t *testing.T, dir, name string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "keys", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(strings.TrimSpace(string(raw)))
}

func TestGeneratedFilingsAreIngestedAndLabelled(t *testing.T) {
	dir := t.TempDir()
	c, err := writeFilings(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	folders, _ := filepath.Glob(filepath.Join(dir, "us_filings", "*"))
	store := memory.NewFilings()
	n, err := ingest.IngestUSFilings(context.Background(), store, &ingest.Files{Names: folders})
	if err != nil || n != figure(t, c, "filings")+figure(t, c, "sections") || len(folders) != 2*filingYears {
		t.Fatalf("ingested %d of %v from %d folders: %v", n, c, len(folders), err)
	}
	subs, _ := filepath.Glob(filepath.Join(dir, "us_filings", "9100000002-2010", "CIK9100000002.json"))
	raw, err := os.ReadFile(subs[0])
	if err != nil || !strings.Contains(string(raw), `"name":"benchmark copy of `) {
		t.Fatalf("submissions %s not labelled: %v", raw, err)
	}
	if k := keys(t, dir, "us_filings"); len(k) != 2*2*filingYears {
		t.Fatalf("%d keys", len(k))
	}
}

func TestGeneratedHoldingsAreIngestedAndLabelled(t *testing.T) {
	dir := t.TempDir()
	c, err := writeHoldings(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	n, err := ingest.IngestUSHoldings(context.Background(), memory.NewFundHoldings(), &ingest.Files{Names: []string{filepath.Join(dir, "us_holdings")}})
	if err != nil || n != 2*holderQuarters || figure(t, c, "13f filings") != n {
		t.Fatalf("ingested %d filings of %v: %v", n, c, err)
	}
	acc := strings.Fields(keys(t, dir, "us_holdings")[0])[0]
	f, err := os.Open(filepath.Join(dir, "us_holdings", acc+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	filing, err := form13f.ParseFullSubmission(acc, f)
	if err != nil || !strings.HasPrefix(filing.FundName, "benchmark copy of ") || filing.FundCIK != "9200000001" {
		t.Fatalf("%+v, %v", filing, err)
	}
}

func TestGeneratedBarsAreIngestedAndLabelled(t *testing.T) {
	dir := t.TempDir()
	c, err := writeBars(dir, 4)
	if err != nil {
		t.Fatal(err)
	}
	prices := chinaprices.New(memory.NewChinaPrices(), usecase.SystemClock)
	out, err := ingest.IngestChinaPrices(context.Background(), prices, &ingest.Files{Names: []string{filepath.Join(dir, "china_prices")}})
	if err != nil || out.Read != figure(t, c, "a-share bars") || out.Records != out.Read {
		t.Fatalf("ingested %+v of %v: %v", out, c, err)
	}
	codes := keys(t, dir, "china_prices")
	name := filepath.Join(dir, "china_prices", "benchmark-copy-"+codes[0]+".csv")
	bars, err := ashareprices.ReadFile(ashareprices.File{Name: name, Open: func() (io.ReadCloser, error) { return os.Open(name) }})
	if err != nil || !strings.HasSuffix(bars[0].Code, codes[0][:6]) || !strings.HasPrefix(bars[0].Source, "benchmark-copy-") {
		t.Fatalf("%s: %+v, %v", name, bars[0], err)
	}
}

func TestGeneratedNSEDaysAreIngestedAndLabelled(t *testing.T) {
	dir := t.TempDir()
	c, err := writeNSE(dir, 5000)
	if err != nil {
		t.Fatal(err)
	}
	store := memory.NewIndiaPrices()
	out, err := ingest.IngestIndiaPrices(context.Background(), indiaprices.New(store, usecase.SystemClock), &ingest.Files{Names: []string{filepath.Join(dir, "nse_udiff")}})
	if err != nil || out.Read != figure(t, c, "nse rows") || figure(t, c, "nse days") != 2 {
		t.Fatalf("ingested %+v of %v: %v", out, c, err)
	}
	rows, err := store.OnDate(context.Background(), "2025-06-17")
	if err != nil || len(rows) == 0 || !strings.HasPrefix(rows[0].Source, "benchmark-copy-") {
		t.Fatalf("%d rows on 2025-06-17 (%+v): %v", len(rows), rows[0], err)
	}
}

func TestGeneratedJudgmentsAreTokenizedAndLabelled(t *testing.T) {
	dir := t.TempDir()
	if _, err := writeJudgments(dir, 25); err != nil {
		t.Fatal(err)
	}
	key, err := pii.NewKey([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	store := memory.NewJudgments()
	got, err := ingest.IngestJudgmentFiles(context.Background(), key, store, nil, []string{filepath.Join(dir, "india_judgments", "meta-0000.jsonl")})
	if err != nil || got.Read != 25 || got.Records != 25 || got.Tokens == 0 {
		t.Fatalf("%+v: %v", got, err)
	}
	js, err := store.JudgmentsByID(context.Background(), keys(t, dir, "india_judgments"))
	if err != nil || len(js) != 25 {
		t.Fatalf("%d judgments stored under the keys written: %v", len(js), err)
	}
	for _, j := range js {
		if !strings.HasPrefix(j.Title, "benchmark copy of ") || !strings.Contains(j.CaseNumber, "(benchmark copy ") {
			t.Fatalf("judgment %s: %q %q", j.ID, j.Title, j.CaseNumber)
		}
	}
}
