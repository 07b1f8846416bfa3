package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/sampledata"
)

// holderQuarters is how many quarterly 13F-HRs each generated filer files
// (issue 25: 8,000 filers × 40 quarters).
const holderQuarters = 40

// firstHolderCIK numbers the generated 13F filers.
const firstHolderCIK = 9_200_000_001

// lastQuarterEnd is the newest report period generated; earlier quarters
// go back from it.
var lastQuarterEnd = time.Date(2025, time.September, 30, 0, 0, 0, 0, time.UTC)

// infoTable is one real information table of the sample.
type infoTable struct {
	accession string
	xml       string
	thousands bool   // VALUE in thousands of dollars, as filed before holdings.DollarsCutover
	cusip     string // a security of the table the sample's master resolves
}

var (
	valueTag      = regexp.MustCompile(`(<(?:\w+:)?value>)\s*(\d+)\s*(</(?:\w+:)?value>)`)
	cusipTag      = regexp.MustCompile(`<(?:\w+:)?cusip>\s*(\w{9})\s*<`)
	accessionPath = regexp.MustCompile(`/(\d{10})(\d{2})(\d{6})/`)
)

// submissionText is a 13F-HR's full submission text file as EDGAR serves
// it, cut to the header lines the reader takes: accession, period, filing
// date (YYYYMMDD), filer name and CIK, then the information table.
const submissionText = `<SEC-DOCUMENT>%[1]s.txt : %[4]s
<SEC-HEADER>%[1]s.hdr.sgml : %[4]s
ACCESSION NUMBER:		%[1]s
CONFORMED SUBMISSION TYPE:	13F-HR
PUBLIC DOCUMENT COUNT:		2
CONFORMED PERIOD OF REPORT:	%[3]s
FILED AS OF DATE:		%[4]s

FILER:

	COMPANY DATA:	
		COMPANY CONFORMED NAME:			%[5]s
		CENTRAL INDEX KEY:			%[2]s
</SEC-HEADER>
<DOCUMENT>
<TYPE>INFORMATION TABLE
<SEQUENCE>2
<FILENAME>infotable.xml
<TEXT>
<XML>
%[6]s
</XML>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
`

// writeHoldings writes filers × 40 quarterly 13F-HR full submission text
// files under us_holdings/: filer n is CIK 9200000000+n, named "benchmark
// copy of the 13F <accession>" after the real filing whose information
// table it repeats (the sample's tables taken in turn), with VALUE moved
// between thousands and dollars when the new filing date crosses
// holdings.DollarsCutover.
func writeHoldings(dir string, filers int) (counts, error) {
	tables, err := sampleInfoTables()
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "us_holdings")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var keys []string
	rows := 0
	for i := range filers {
		for q := range holderQuarters {
			t := tables[(i+q)%len(tables)]
			acc, err := writeHolding(out, t, firstHolderCIK+i, q)
			if err != nil {
				return nil, err
			}
			keys = append(keys, acc+" "+t.cusip)
			rows += len(cusipTag.FindAllString(t.xml, -1))
		}
	}
	return counts{{"13f filings", len(keys)}, {"13f rows", rows}}, writeKeys(dir, "us_holdings", keys)
}

// writeHolding writes t as cik's 13F-HR for the quarter quartersBack
// before lastQuarterEnd, filed 45 days after it, and returns its
// accession number.
func writeHolding(dir string, t infoTable, cik, quartersBack int) (string, error) {
	months := lastQuarterEnd.Month() - time.Month(3*quartersBack) + 1
	period := time.Date(lastQuarterEnd.Year(), months, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	filed := period.AddDate(0, 0, 45)
	acc := fmt.Sprintf("%010d-%02d-%06d", cik, filed.Year()%100, quartersBack+1)
	body := fmt.Sprintf(submissionText, acc, fmt.Sprintf("%010d", cik), period.Format("20060102"), filed.Format("20060102"),
		"benchmark copy of the 13F "+t.accession, revalue(t, filed.Before(holdings.DollarsCutover)))
	return acc, os.WriteFile(filepath.Join(dir, acc+".txt"), []byte(body), 0o644)
}

// revalue writes t's VALUEs in thousands of dollars or in dollars.
func revalue(t infoTable, thousands bool) string {
	if t.thousands == thousands {
		return t.xml
	}
	return valueTag.ReplaceAllStringFunc(t.xml, func(m string) string {
		p := valueTag.FindStringSubmatch(m)
		v, _ := strconv.ParseFloat(p[2], 64)
		if thousands {
			v = math.Round(v / 1000)
		} else {
			v *= 1000
		}
		return p[1] + strconv.FormatFloat(v, 'f', 0, 64) + p[3]
	})
}

// sampleInfoTables reads the information tables of the sample's 13F
// files: inside each full submission text file, and each information
// table XML (the cover page primary_doc.xml is not one).
func sampleInfoTables() ([]infoTable, error) {
	master, err := masterCUSIPs()
	if err != nil {
		return nil, err
	}
	var out []infoTable
	for _, name := range sampledata.FundHoldersFilings {
		raw, err := fs.ReadFile(sampledata.FundHolders, name)
		if err != nil {
			return nil, err
		}
		var t infoTable
		switch {
		case strings.HasSuffix(name, ".txt"):
			t.accession = strings.TrimSuffix(path.Base(name), ".txt")
			t.xml = between(string(raw), "<XML>", "</XML>")
		case strings.HasSuffix(name, ".xml") && path.Base(name) != "primary_doc.xml":
			m := accessionPath.FindStringSubmatch(name)
			if m == nil {
				return nil, fmt.Errorf("%s: no accession folder", name)
			}
			t.accession, t.xml = m[1]+"-"+m[2]+"-"+m[3], string(raw)
		default:
			continue
		}
		yy, _ := strconv.Atoi(t.accession[11:13])
		t.thousands = 2000+yy < holdings.DollarsCutover.Year()
		t.cusip = firstOf(cusipTag.FindAllStringSubmatch(t.xml, -1), master)
		out = append(out, t)
	}
	return out, nil
}

func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	body, _, _ := strings.Cut(rest, to)
	return strings.TrimSpace(body)
}

// firstOf is the first CUSIP of a table the master resolves, or the first.
func firstOf(found [][]string, master map[string]bool) string {
	for _, m := range found {
		if master[m[1]] {
			return m[1]
		}
	}
	return found[0][1]
}

// masterCUSIPs are the CUSIPs of the sample's securities master.
func masterCUSIPs() (map[string]bool, error) {
	raw, err := fs.ReadFile(sampledata.FundHolders, sampledata.FundHoldersCUSIPs)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		cusip, _, _ := strings.Cut(sc.Text(), ",")
		out[cusip] = true
	}
	return out, sc.Err()
}
