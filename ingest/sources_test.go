package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/sampledata"
)

// writeZip writes an archive of the named entries into dir.
func writeZip(t *testing.T, dir, name string, entries map[string][]byte) string {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range sortedKeys(entries) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate, Modified: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(entries[n]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func sortedKeys(m map[string][]byte) []string { return slices.Sorted(maps.Keys(m)) }

// sampleFinancials returns the bundled companyfacts documents by name, and
// the company_tickers.json naming them.
func sampleFinancials(t *testing.T) (docs map[string][]byte, tickers []byte) {
	t.Helper()
	entries, err := fs.ReadDir(sampledata.USFinancials, sampledata.USFinancialsDir)
	if err != nil {
		t.Fatal(err)
	}
	docs = map[string][]byte{}
	for _, e := range entries {
		raw, err := fs.ReadFile(sampledata.USFinancials, path.Join(sampledata.USFinancialsDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "company_tickers.json" {
			tickers = raw
			continue
		}
		docs[e.Name()] = raw
	}
	return docs, tickers
}

func ingestFinancials(t *testing.T, names ...string) (*memory.Financials, int, error) {
	t.Helper()
	store := memory.NewFinancials()
	n, err := IngestUSFinancials(context.Background(), usfinancials.New(store, time.Now, nil), &Files{Names: names})
	return store, n, err
}

func TestCompanyFactsZipIsReadEntryByEntry(t *testing.T) {
	dir := t.TempDir()
	docs, tickers := sampleFinancials(t)
	tickersFile := filepath.Join(dir, "company_tickers.json")
	if err := os.WriteFile(tickersFile, tickers, 0o644); err != nil {
		t.Fatal(err)
	}
	archive := writeZip(t, dir, "companyfacts.zip", docs)
	// company_tickers.json may come anywhere among the arguments.
	for _, args := range [][]string{{archive, tickersFile}, {tickersFile, archive}} {
		store, n, err := ingestFinancials(t, args...)
		if err != nil || n != len(docs) {
			t.Fatalf("%v: %d companies, %v", args, n, err)
		}
		c, err := store.Company(context.Background(), "0000320193")
		if err != nil || c.Tickers[0] != "AAPL" || len(c.Facts) == 0 {
			t.Fatalf("Apple: %+v, %v", c, err)
		}
		if !c.RetrievedAt.Equal(time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("retrieved at %v, want the entry's modification time", c.RetrievedAt)
		}
	}
}

func TestArchivesThatAreNotOfTheFormatAreRefusedByName(t *testing.T) {
	dir := t.TempDir()
	docs, tickers := sampleFinancials(t)
	tickersFile := filepath.Join(dir, "company_tickers.json")
	if err := os.WriteFile(tickersFile, tickers, 0o644); err != nil {
		t.Fatal(err)
	}
	withTickers := map[string][]byte{"company_tickers.json": tickers}
	for name, raw := range docs {
		withTickers[name] = raw
	}
	good := writeZip(t, dir, "companyfacts.zip", docs)
	raw, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.zip")
	if err := os.WriteFile(truncated, raw[:len(raw)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	// The first entry's compressed data damaged: the central directory
	// still reads, the entry does not.
	damaged := bytes.Clone(raw)
	for i := 60; i < 90; i++ {
		damaged[i] ^= 0xff
	}
	damagedFile := filepath.Join(dir, "damaged.zip")
	if err := os.WriteFile(damagedFile, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		archive string
		want    string
	}{
		"an entry not named CIK##########.json": {writeZip(t, dir, "mixed.zip", withTickers), "mixed.zip:company_tickers.json: not a companyfacts document"},
		"a truncated archive":                   {truncated, "truncated.zip: not a readable zip archive"},
		"a damaged entry":                       {damagedFile, "damaged.zip:CIK0000320193.json: "},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			store, n, err := ingestFinancials(t, tickersFile, c.archive)
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if count, _ := store.CountCompanies(context.Background()); n != 0 || count != 0 {
				t.Fatalf("%d companies written, %d stored", n, count)
			}
		})
	}
}

// TestABadFileStopsTheRunAfterTheFilesBeforeIt: a run over many files
// writes every file before a bad one and none after, says how many, and
// running it again once the file is fixed completes it.
func TestABadFileStopsTheRunAfterTheFilesBeforeIt(t *testing.T) {
	dir := t.TempDir()
	docs, tickers := sampleFinancials(t)
	if err := os.WriteFile(filepath.Join(dir, "company_tickers.json"), tickers, 0o644); err != nil {
		t.Fatal(err)
	}
	names := sortedKeys(docs) // CIK0000320193, CIK0000789019, CIK0001045810
	for i, n := range names {
		raw := docs[n]
		if i == 1 {
			raw = raw[:len(raw)/2]
		}
		if err := os.WriteFile(filepath.Join(dir, n), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, n, err := ingestFinancials(t, dir)
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), names[1]+": byte") || n != 1 {
		t.Fatalf("%d written, err = %v", n, err)
	}
	if _, err := store.Company(context.Background(), "0000320193"); err != nil {
		t.Fatalf("the file before the bad one is not written: %v", err)
	}
	if count, _ := store.CountCompanies(context.Background()); count != 1 {
		t.Fatalf("%d companies stored, want 1", count)
	}
}

func TestForm13FDataSetZip(t *testing.T) {
	dir := t.TempDir()
	read := func(name string) []byte {
		raw, err := fs.ReadFile(sampledata.FundHolders, name)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	// The sample data set's tables, and a table holder lookups skip.
	archive := writeZip(t, dir, "2023q4_form13f.zip", map[string][]byte{
		"SUBMISSION.tsv": read("fundholders/form13f-dataset/SUBMISSION.tsv"),
		"COVERPAGE.tsv":  read("fundholders/form13f-dataset/COVERPAGE.tsv"),
		"SIGNATURE.tsv":  []byte("ACCESSION_NUMBER\tNAME\n"),
	})
	// The information tables the data set identifies, in their EDGAR folders.
	files := []string{archive}
	for _, name := range sampledata.FundHoldersFilings {
		// Berkshire's tables are identified by its submissions JSON in the
		// sample, the others by the data set.
		if !strings.HasSuffix(name, ".xml") || strings.Contains(name, "/1067983/") {
			continue
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, read(name), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	store := memory.NewFundHoldings()
	n, err := IngestUSHoldings(context.Background(), store, &Files{Names: files})
	if err != nil || n == 0 {
		t.Fatalf("%d filings, %v", n, err)
	}
	other := writeZip(t, dir, "other.zip", map[string][]byte{"SUBMISSION.tsv": read("fundholders/form13f-dataset/SUBMISSION.tsv"), "notes.txt": []byte("x")})
	_, err = IngestUSHoldings(context.Background(), memory.NewFundHoldings(), &Files{Names: []string{other}})
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "other.zip:notes.txt: not a file of a Form 13F data set") {
		t.Fatalf("err = %v", err)
	}
}
