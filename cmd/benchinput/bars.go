package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/sampledata"
)

// barsHeader is Tushare's daily layout, as the sample's files have it.
var barsHeader = []string{"ts_code", "trade_date", "open", "high", "low", "close", "pre_close", "change", "pct_chg", "vol", "amount"}

// freeRanges are the A-share code prefixes generated codes are taken from,
// highest numbers first, skipping every code the real listing holds.
var freeRanges = []string{"003", "001", "605", "689", "302", "920", "301", "601", "603", "002", "300", "688"}

// writeBars writes one Tushare daily file per generated code under
// china_prices/, named benchmark-copy-<code>.csv (every bar's source then
// says so). Codes are valid A-share codes no real listing holds; code n
// has between 500 and 8,428 bars (about 4,460 on average, issue 25's 25
// million bars over 5,600 codes), on the weekdays up to yesterday, each
// a real bar of the sample (its files taken in turn, their bars in date
// order and repeated) with only its code and date changed, so its OHLC,
// change, volume and amount stay the real, consistent ones.
func writeBars(dir string, codes int) (counts, error) {
	series, err := sampleBarSeries()
	if err != nil {
		return nil, err
	}
	names, err := freeCodes(codes)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "china_prices")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	end := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -1)
	bars := 0
	for i, code := range names {
		n := barsOf(i)
		if err := writeBarFile(filepath.Join(out, "benchmark-copy-"+code+".csv"), code, series[i%len(series)], weekdaysTo(end, n)); err != nil {
			return nil, err
		}
		bars += n
	}
	return counts{{"a-share codes", len(names)}, {"a-share bars", bars}}, writeKeys(dir, "china_prices", names)
}

// barsOf is how many bars code i has: 500 to 8,428, spread evenly by the
// golden ratio's fractions (so any first n codes average about 4,460).
func barsOf(i int) int {
	_, frac := math.Modf(float64(i) * 0.6180339887498949)
	return 500 + int(frac*7929)
}

func writeBarFile(name, code string, src [][]string, days []string) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(barsHeader)
	for k, d := range days {
		rec := slices.Clone(src[k%len(src)])
		rec[0], rec[1] = code, d
		_ = w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

// weekdaysTo lists the n weekdays up to end, oldest first, as YYYYMMDD.
func weekdaysTo(end time.Time, n int) []string {
	out := make([]string, n)
	d := end
	for i := n - 1; i >= 0; d = d.AddDate(0, 0, -1) {
		if d.Weekday() != time.Saturday && d.Weekday() != time.Sunday {
			out[i] = d.Format("20060102")
			i--
		}
	}
	return out
}

// sampleBarSeries reads the sample's bar files, each as its records in
// date order.
func sampleBarSeries() ([][][]string, error) {
	entries, err := fs.ReadDir(sampledata.ChinaPrices, sampledata.ChinaPricesDir)
	if err != nil {
		return nil, err
	}
	var out [][][]string
	for _, e := range entries {
		raw, err := fs.ReadFile(sampledata.ChinaPrices, path.Join(sampledata.ChinaPricesDir, e.Name()))
		if err != nil {
			return nil, err
		}
		recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		if !slices.Equal(recs[0], barsHeader) {
			return nil, fmt.Errorf("%s: not Tushare's daily layout", e.Name())
		}
		rows := recs[1:]
		slices.SortFunc(rows, func(a, b []string) int { return strings.Compare(a[1], b[1]) })
		out = append(out, rows)
	}
	return out, nil
}

// freeCodes lists n A-share codes that no listing of the sample's real
// list of every A-share holds.
func freeCodes(n int) ([]string, error) {
	listed, err := listedCodes()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, prefix := range freeRanges {
		for k := 999; k >= 0 && len(out) < n; k-- {
			digits := fmt.Sprintf("%s%03d", prefix, k)
			if !listed[digits] {
				out = append(out, digits+"."+exchangeSuffix(prefix))
			}
		}
	}
	if len(out) < n {
		return nil, fmt.Errorf("only %d unlisted codes in the ranges %v", len(out), freeRanges)
	}
	return out, nil
}

func exchangeSuffix(prefix string) string {
	switch prefix[0] {
	case '6':
		return "SH"
	case '0', '3':
		return "SZ"
	}
	return "BJ"
}

// listedCodes are the six digits of every code in the real listing.
func listedCodes() (map[string]bool, error) {
	raw, err := fs.ReadFile(sampledata.Files, sampledata.ChinaSecurities)
	if err != nil {
		return nil, err
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, r := range recs[1:] {
		out[r[1]] = true
	}
	return out, nil
}
