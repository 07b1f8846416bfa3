// Command exportbench measures the export file writers (adapters/exportfile)
// on a generated table: one format per run, so that each run's peak RSS is
// its own. The rows are GENERATED, not real data: the shape of an NSE daily
// price row (symbol, series, ISIN, date, six prices, volume, turnover,
// trades), with symbols cycling over a few made-up names and prices drawn
// from a fixed seed. It writes the file to a counting discard and prints
// rows, bytes, seconds, rows/s, MB/s and the peak RSS growth over the
// process's RSS before the export, and fails when that growth reaches the
// limit. `go tool task bench` runs it for every format; see
// scripts/bench-export.sh.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/adapters/exportfile"
	"github.com/quarrydata/quarry/domain/table"
	"github.com/quarrydata/quarry/ports"
)

func main() {
	format := flag.String("format", "csv", "csv, xlsx or parquet")
	rows := flag.Int("rows", 1_000_000, "rows to generate")
	limitMiB := flag.Int64("max-rss-growth", 128, "fail when peak RSS grows by this many MiB")
	flag.Parse()
	var enc ports.TableEncoder
	for _, e := range exportfile.Encoders() {
		if e.Format() == *format {
			enc = e
		}
	}
	if enc == nil {
		fail("unknown format %q", *format)
	}
	before, err := procStatus("VmRSS")
	if err != nil {
		fail("%v", err)
	}
	out := &counter{}
	start := time.Now()
	if err := enc.Encode(context.Background(), out, generated{n: *rows}); err != nil {
		fail("%s: %v", *format, err)
	}
	secs := time.Since(start).Seconds()
	peak, err := procStatus("VmHWM")
	if err != nil {
		fail("%v", err)
	}
	growth := float64(peak-before) / (1 << 20)
	fmt.Printf("%-8s rows=%d bytes=%d seconds=%.1f rows/s=%.0f MB/s=%.1f peak_rss_growth_mib=%.1f (generated rows)\n",
		*format, *rows, out.n, secs, float64(*rows)/secs, float64(out.n)/1e6/secs, growth)
	if growth >= float64(*limitMiB) {
		fail("%s: peak RSS grew by %.1f MiB, limit %d MiB", *format, growth, *limitMiB)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "exportbench: "+format+"\n", args...)
	os.Exit(1)
}

// procStatus reads a memory figure of this process, in bytes, from
// /proc/self/status (Linux).
func procStatus(field string) (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field+":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		return kb << 10, err
	}
	return 0, fmt.Errorf("%s not in /proc/self/status", field)
}

type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

var _ io.Writer = (*counter)(nil)

// generated is a table of n generated price rows, made one at a time into
// one reused Row, as a store's stream is read.
type generated struct{ n int }

var columns = []table.Column{
	{Name: "symbol", Kind: table.String}, {Name: "series", Kind: table.String}, {Name: "isin", Kind: table.String},
	{Name: "date", Kind: table.Date}, {Name: "open", Kind: table.Decimal}, {Name: "high", Kind: table.Decimal},
	{Name: "low", Kind: table.Decimal}, {Name: "close", Kind: table.Decimal}, {Name: "last", Kind: table.Decimal, Nullable: true},
	{Name: "prev_close", Kind: table.Decimal}, {Name: "volume", Kind: table.Int}, {Name: "turnover", Kind: table.Decimal},
	{Name: "trades", Kind: table.Int},
}

// symbols are made up; their ISINs are of the INE form but not real.
var symbols = []string{"GENA", "GENB", "GENC", "GEND", "GENE", "GENF", "GENG", "GENH"}

func (generated) Columns() []table.Column { return columns }

func (g generated) Rows(context.Context) iter.Seq2[table.Row, error] {
	return func(yield func(table.Row, error) bool) {
		rng := rand.New(rand.NewPCG(1, 2))
		row := make(table.Row, len(columns))
		first, _ := table.ParseDay("1995-01-02")
		price := 100.0
		for i := range g.n {
			sym := i % len(symbols)
			price = max(1, price*(1+(rng.Float64()-0.5)/50))
			cents := func(f float64) float64 { return float64(int64(f*100)) / 100 }
			row[0] = table.Value{Str: symbols[sym]}
			row[1] = table.Value{Str: "EQ"}
			row[2] = table.Value{Str: "INE00000" + strconv.Itoa(1000+sym) + "0"}
			row[3] = table.Value{Day: first + table.Day(i/len(symbols))}
			row[4] = table.Value{Num: cents(price)}
			row[5] = table.Value{Num: cents(price * 1.01)}
			row[6] = table.Value{Num: cents(price * 0.99)}
			row[7] = table.Value{Num: cents(price * 1.002)}
			row[8] = table.Value{Num: cents(price * 1.001), Null: i%97 == 0}
			row[9] = table.Value{Num: cents(price * 0.998)}
			vol := rng.Int64N(5_000_000)
			row[10] = table.Value{Int: vol}
			row[11] = table.Value{Num: cents(float64(vol) * price)}
			row[12] = table.Value{Int: vol / 40}
			if !yield(row, nil) {
				return
			}
		}
	}
}
