package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/sampledata"
)

// filingYears is how many yearly 10-Ks each generated filer files (issue
// 25: 6,000 filers over 20 years).
const filingYears = 20

// lastFilingYear is the year of each generated filer's newest 10-K.
const lastFilingYear = 2025

// firstFilerCIK numbers the generated 10-K filers, apart from the
// generated companyfacts filers and above every CIK the SEC has assigned.
const firstFilerCIK = 9_100_000_001

// filingFolder is one real filing folder of the sample, parsed.
type filingFolder struct {
	index    indexJSON
	subs     submissionsJSON
	primary  []byte
	sections int
}

type indexJSON struct {
	Directory struct {
		Item      []indexItem `json:"item"`
		Name      string      `json:"name"`
		ParentDir string      `json:"parent-dir"`
	} `json:"directory"`
}

type indexItem struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Size string `json:"size"`
}

type submissionsJSON struct {
	CIK        string   `json:"cik"`
	EntityType string   `json:"entityType"`
	Name       string   `json:"name"`
	Tickers    []string `json:"tickers"`
	Exchanges  []string `json:"exchanges"`
	Filings    struct {
		Recent struct {
			AccessionNumber []string `json:"accessionNumber"`
			FilingDate      []string `json:"filingDate"`
			ReportDate      []string `json:"reportDate"`
			Form            []string `json:"form"`
			PrimaryDocument []string `json:"primaryDocument"`
		} `json:"recent"`
	} `json:"filings"`
}

// writeFilings writes filers × 20 filing folders under us_filings/: each a
// copy of one of the sample's real 10-K folders under a synthetic CIK
// (from 9100000001), filed in each of the 20 years to 2025 on the
// source's month and day (its report date moved by as many years), the
// company named "benchmark copy of …" with ticker BENCHF<n>. index.json
// lists the held (trimmed) primary document at its held size, so the
// copy is read as whole.
func writeFilings(dir string, filers int) (counts, error) {
	folders, err := sampleFilingFolders()
	if err != nil {
		return nil, err
	}
	var keys []string
	sections := 0
	for i := range filers {
		for y := range filingYears {
			src := folders[(i+y)%len(folders)]
			acc, err := writeFilingCopy(filepath.Join(dir, "us_filings"), src, firstFilerCIK+i, y)
			if err != nil {
				return nil, err
			}
			keys = append(keys, fmt.Sprintf("%s %d", acc, firstFilerCIK+i))
			sections += src.sections
		}
	}
	return counts{{"filings", len(keys)}, {"sections", sections}}, writeKeys(dir, "us_filings", keys)
}

// writeFilingCopy writes src as a filing of cik filed yearsBack years
// before src was, and returns its accession number.
func writeFilingCopy(root string, src filingFolder, cik, yearsBack int) (string, error) {
	srcFiled, err := time.Parse(time.DateOnly, src.subs.Filings.Recent.FilingDate[0])
	if err != nil {
		return "", err
	}
	report, err := time.Parse(time.DateOnly, src.subs.Filings.Recent.ReportDate[0])
	if err != nil {
		return "", err
	}
	shift := lastFilingYear - yearsBack - srcFiled.Year()
	filed, report := srcFiled.AddDate(shift, 0, 0), report.AddDate(shift, 0, 0)
	acc := fmt.Sprintf("%010d-%02d-%06d", cik, filed.Year()%100, yearsBack+1)
	doc := src.subs.Filings.Recent.PrimaryDocument[0]
	folder := filepath.Join(root, fmt.Sprintf("%d-%d", cik, filed.Year()))
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return "", err
	}
	subs := src.subs
	subs.CIK, subs.Name = fmt.Sprint(cik), "benchmark copy of "+src.subs.Name
	subs.Tickers = []string{fmt.Sprintf("BENCHF%d", cik-firstFilerCIK+1)}
	r := &subs.Filings.Recent
	r.AccessionNumber, r.FilingDate = []string{acc}, []string{filed.Format(time.DateOnly)}
	r.ReportDate = []string{report.Format(time.DateOnly)}
	index := copyIndex(src, cik, acc, doc)
	for name, v := range map[string]any{fmt.Sprintf("CIK%010d.json", cik): subs, "index.json": index} {
		raw, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(folder, name), raw, 0o644); err != nil {
			return "", err
		}
	}
	return acc, os.WriteFile(filepath.Join(folder, doc), src.primary, 0o644)
}

// copyIndex is src's index.json for the copy: its directory renamed, its
// <accession>.txt renamed, and the primary document at its held size.
func copyIndex(src filingFolder, cik int, acc, primary string) indexJSON {
	out := src.index
	out.Directory.ParentDir = fmt.Sprintf("/Archives/edgar/data/%d", cik)
	out.Directory.Name = out.Directory.ParentDir + "/" + strings.ReplaceAll(acc, "-", "")
	out.Directory.Item = make([]indexItem, len(src.index.Directory.Item))
	for i, it := range src.index.Directory.Item {
		switch {
		case it.Name == primary:
			it.Size = fmt.Sprint(len(src.primary))
		case strings.HasSuffix(it.Name, ".txt") && strings.HasPrefix(it.Name, src.subs.Filings.Recent.AccessionNumber[0]):
			it.Name = acc + ".txt"
		}
		out.Directory.Item[i] = it
	}
	return out
}

// sampleFilingFolders reads the sample's real filing folders and counts
// the sections ingestion takes from each.
func sampleFilingFolders() ([]filingFolder, error) {
	_, sections, err := ingest.LoadUSFilingsSample()
	if err != nil {
		return nil, err
	}
	perFiling := map[string]int{}
	for _, s := range sections {
		perFiling[s.Accession]++
	}
	entries, err := fs.ReadDir(sampledata.USFilings, sampledata.USFilingsDir)
	if err != nil {
		return nil, err
	}
	var out []filingFolder
	for _, e := range entries {
		f, err := readFilingFolder(path.Join(sampledata.USFilingsDir, e.Name()))
		if err != nil {
			return nil, err
		}
		f.sections = perFiling[f.subs.Filings.Recent.AccessionNumber[0]]
		out = append(out, f)
	}
	return out, nil
}

func readFilingFolder(dir string) (filingFolder, error) {
	var f filingFolder
	if err := readJSON(path.Join(dir, "index.json"), &f.index); err != nil {
		return f, err
	}
	subs, err := fs.Glob(sampledata.USFilings, path.Join(dir, "CIK*.json"))
	if err != nil || len(subs) != 1 {
		return f, fmt.Errorf("%s: no single submissions file", dir)
	}
	if err := readJSON(subs[0], &f.subs); err != nil {
		return f, err
	}
	if len(f.subs.Filings.Recent.AccessionNumber) != 1 {
		return f, fmt.Errorf("%s: the sample's submissions list one filing", subs[0])
	}
	f.primary, err = fs.ReadFile(sampledata.USFilings, path.Join(dir, f.subs.Filings.Recent.PrimaryDocument[0]))
	return f, err
}

func readJSON(name string, v any) error {
	raw, err := fs.ReadFile(sampledata.USFilings, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
