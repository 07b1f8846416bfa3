package main

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/adapters/nsebhavcopy"
	"github.com/quarrydata/quarry/sampledata"
)

// The UDiFF columns a copy changes: the trade and business dates, the
// symbol and series (for the keys) and the instrument's name (the label).
const (
	udiffTradDt = 0
	udiffBizDt  = 1
	udiffSymbol = 7
	udiffSeries = 8
	udiffName   = 13
)

// writeNSE writes whole trading days of NSE's UDiFF bhavcopy under
// nse_udiff/, until they hold at least rows rows: the sample's eight real
// days taken in turn, re-dated to the weekdays before the first of them
// (skipping the days the bundled india_prices sample holds), each a zip
// holding one file in NSE's layout, both named benchmark-copy-<NSE's name>
// (so every row's source says so), every instrument's name prefixed
// "benchmark copy of ".
func writeNSE(dir string, rows int) (counts, error) {
	days, err := sampleUDiFFDays()
	if err != nil {
		return nil, err
	}
	held, err := sampleNSEDates()
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "nse_udiff")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	first, _ := time.Parse(time.DateOnly, days[0][0][udiffTradDt])
	written, files := 0, 0
	for d := first.AddDate(0, 0, -1); written < rows; d = d.AddDate(0, 0, -1) {
		if d.Weekday() == time.Saturday || d.Weekday() == time.Sunday || held[d.Format(time.DateOnly)] {
			continue
		}
		src := days[files%len(days)]
		if err := writeUDiFFDay(out, src, d); err != nil {
			return nil, err
		}
		written, files = written+len(src), files+1
	}
	return counts{{"nse days", files}, {"nse rows", written}}, writeKeys(dir, "nse", equitySymbols(days[0]))
}

// writeUDiFFDay writes src re-dated to day.
func writeUDiFFDay(dir string, src [][]string, day time.Time) error {
	name := fmt.Sprintf("benchmark-copy-BhavCopy_NSE_CM_0_0_0_%s_F_0000.csv", day.Format("20060102"))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create(name)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	_ = cw.Write(udiffHeader)
	for _, rec := range src {
		rec = slices.Clone(rec)
		rec[udiffTradDt], rec[udiffBizDt] = day.Format(time.DateOnly), day.Format(time.DateOnly)
		rec[udiffName] = "benchmark copy of " + rec[udiffName]
		_ = cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".zip"), buf.Bytes(), 0o644)
}

// udiffHeader is the header of the sample's UDiFF days (sampleUDiFFDays
// checks each against it).
var udiffHeader []string

// sampleUDiFFDays reads the sample's real UDiFF days, oldest first, each
// as its records without the header.
func sampleUDiFFDays() ([][][]string, error) {
	entries, err := fs.ReadDir(sampledata.NSEUDiFF, sampledata.NSEUDiFFDir)
	if err != nil {
		return nil, err
	}
	var out [][][]string
	for _, e := range entries {
		recs, err := readZippedCSV(path.Join(sampledata.NSEUDiFFDir, e.Name()))
		if err != nil {
			return nil, err
		}
		if udiffHeader == nil {
			udiffHeader = recs[0]
		}
		if !slices.Equal(recs[0], udiffHeader) {
			return nil, fmt.Errorf("%s: another header than the other days'", e.Name())
		}
		out = append(out, recs[1:])
	}
	slices.SortFunc(out, func(a, b [][]string) int { return strings.Compare(a[0][udiffTradDt], b[0][udiffTradDt]) })
	return out, nil
}

func readZippedCSV(name string) ([][]string, error) {
	raw, err := fs.ReadFile(sampledata.NSEUDiFF, name)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil || len(zr.File) != 1 {
		return nil, fmt.Errorf("%s: not a zip of one file: %v", name, err)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	cr := csv.NewReader(rc)
	cr.FieldsPerRecord = -1
	return cr.ReadAll()
}

// sampleNSEDates are the days the bundled india_prices sample holds rows
// of, read by the ingest's own reader, so no generated day is one of them.
func sampleNSEDates() (map[string]bool, error) {
	entries, err := fs.ReadDir(sampledata.IndiaPrices, sampledata.IndiaPricesDir)
	if err != nil {
		return nil, err
	}
	var files []nsebhavcopy.File
	for _, e := range entries {
		raw, err := fs.ReadFile(sampledata.IndiaPrices, path.Join(sampledata.IndiaPricesDir, e.Name()))
		if err != nil {
			return nil, err
		}
		zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			files = append(files, nsebhavcopy.File{Name: f.Name, Open: func() (io.ReadCloser, error) { return f.Open() }, RetrievedAt: sampledata.IndiaPricesRetrievedAt})
		}
	}
	set, err := nsebhavcopy.Read(files)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range set.Rows {
		out[r.Date] = true
	}
	return out, nil
}

// equitySymbols are the symbols of a day's EQ-series rows.
func equitySymbols(day [][]string) []string {
	var out []string
	for _, rec := range day {
		if rec[udiffSeries] == "EQ" {
			out = append(out, rec[udiffSymbol])
		}
	}
	return out
}
