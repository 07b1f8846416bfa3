// Command benchstream measures GET /india/prices.csv on a long range: it
// writes a legacy-layout bhavcopy file of -rows rows of one security, made
// by repeating the real rows of RELIANCE EQ in the bundled sample over
// generated consecutive calendar dates from 1900-01-01 (a benchmark data
// set, never committed or served elsewhere: no such dates were traded; the
// service's clock is set to the year 4700 so they count as known),
// serves it from memory storage in this process, and streams the whole
// range once. It prints the rows and megabytes streamed, MB/s, the time to
// the first byte, and the growth of peak RSS over the RSS before the
// request (VmHWM, reset through /proc/self/clear_refs), and exits non-zero
// when that growth reaches -max-growth-mib. Then it times -pages requests
// of a 1,000-row JSON page (GET /india/prices?limit=1000) one after another
// and prints their p50 and p99. `go tool task bench` runs it.
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/sampledata"
)

const reliance = "INE002A01018"

// benchNow is the service's clock in this benchmark: after every
// generated date.
var benchNow = time.Date(4700, 1, 1, 0, 0, 0, 0, time.UTC)

func main() {
	rows := flag.Int("rows", 1_000_000, "rows to generate and stream")
	pages := flag.Int("pages", 200, "1,000-row JSON pages to time")
	maxGrowth := flag.Float64("max-growth-mib", 64, "peak RSS growth that fails the run, MiB")
	flag.Parse()
	if err := run(*rows, *pages, *maxGrowth); err != nil {
		fmt.Fprintln(os.Stderr, "benchstream:", err)
		os.Exit(1)
	}
}

func run(rows, pages int, maxGrowth float64) error {
	dir, err := os.MkdirTemp("", "benchstream")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "generated_reliance_bhav.csv")
	if err := generate(file, rows); err != nil {
		return err
	}
	url, key, stop, err := serve(file)
	if err != nil {
		return err
	}
	defer stop()
	if err := stream(url+"/india/prices.csv?isin="+reliance, key, rows, maxGrowth); err != nil {
		return err
	}
	return page(url+"/india/prices?limit=1000&isin="+reliance, key, pages)
}

// serve starts the service on memory storage with the file as the India
// prices dataset (the other datasets load their samples), and returns its
// address and a fresh API key. Loading a million rows takes longer than
// quarrytest's 30-second start allows, so the graph is started here.
func serve(file string) (url, key string, stop func(), err error) {
	cfg, err := bootstrap.LoadConfig(func(string) string { return "" })
	if err != nil {
		return "", "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", "", nil, err
	}
	cfg.HTTPAddr, cfg.Listener = ln.Addr().String(), ln
	cfg.Files = map[string][]string{"india_prices": {file}}
	cfg.InitialCredits, cfg.RateLimitRPS, cfg.RateLimitBurst = 1_000_000_000, 1e9, 1e9
	// A million consecutive days run to the year 4637; the service's clock
	// is set past them, so the default as_of sees every generated row.
	cfg.Clock = func() time.Time { return benchNow }
	app := fx.New(bootstrap.Options(cfg, zap.NewNop()), fx.NopLogger)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		return "", "", nil, fmt.Errorf("start: %w", err)
	}
	stop = func() { _ = app.Stop(context.Background()) }
	url = "http://" + ln.Addr().String()
	if key, err = mintKey(url); err != nil {
		stop()
		return "", "", nil, err
	}
	return url, key, stop, nil
}

// mintKey signs in (creating the account) and mints an API key.
func mintKey(url string) (string, error) {
	var login struct {
		SessionToken string `json:"session_token"`
	}
	if err := postJSON(url+"/account/login", "", `{"email":"bench@example.com","password":"benchmark passphrase"}`, &login); err != nil {
		return "", err
	}
	var created struct {
		APIKey string `json:"api_key"`
	}
	err := postJSON(url+"/account/keys?name=bench", login.SessionToken, "", &created)
	return created.APIKey, err
}

func postJSON(url, bearer, body string, out any) error {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %d %s", url, resp.StatusCode, b)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// realRows reads the legacy-layout lines of RELIANCE EQ in the sample.
func realRows() ([][]string, error) {
	name := sampledata.IndiaPricesDir + "/nse_legacy_bhavcopy.zip"
	data, err := fs.ReadFile(sampledata.IndiaPrices, name)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var out [][]string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(rc)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "RELIANCE,EQ,") {
				out = append(out, strings.Split(sc.Text(), ","))
			}
		}
		rc.Close()
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no RELIANCE EQ row in %s", name)
	}
	return out, nil
}

// generate writes n rows: the real rows in turn, each on the next
// calendar day from 1900-01-01.
func generate(path string, n int) error {
	real, err := realRows()
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "SYMBOL,SERIES,OPEN,HIGH,LOW,CLOSE,LAST,PREVCLOSE,TOTTRDQTY,TOTTRDVAL,TIMESTAMP,TOTALTRADES,ISIN,")
	day := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		r := slices.Clone(real[i%len(real)])
		r[10] = strings.ToUpper(day.AddDate(0, 0, i).Format("02-Jan-2006"))
		fmt.Fprintln(w, strings.Join(r, ","))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func get(url, key string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-API-KEY", key)
	resp, err := http.DefaultClient.Do(req)
	if err == nil && resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %d %s", url, resp.StatusCode, body)
	}
	return resp, err
}

// stream reads the CSV once and reports its figures.
func stream(url, key string, want int, maxGrowth float64) error {
	runtime.GC()
	debug.FreeOSMemory()
	base, err := status("VmRSS")
	if err != nil {
		return err
	}
	// Writing 5 resets VmHWM to the current RSS (Linux 4.0 and later).
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("reset peak RSS: %w", err)
	}
	start := time.Now()
	resp, err := get(url, key)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	buf := make([]byte, 32<<10)
	var ttfb time.Duration
	var bytesRead, lines int64
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 && bytesRead == 0 {
			ttfb = time.Since(start)
		}
		bytesRead += int64(n)
		lines += int64(bytes.Count(buf[:n], []byte("\n")))
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	elapsed := time.Since(start)
	peak, err := status("VmHWM")
	if err != nil {
		return err
	}
	if lines-1 != int64(want) {
		return fmt.Errorf("streamed %d rows, want %d", lines-1, want)
	}
	growth := float64(peak-base) / 1024
	mb := float64(bytesRead) / 1e6
	fmt.Printf("india prices.csv (memory, generated dates)\trows %d\tMB %.1f\tseconds %.2f\tMB/s %.1f\tTTFB ms %.1f\tpeak RSS growth MiB %.1f (RSS before %.0f MiB)\n",
		lines-1, mb, elapsed.Seconds(), mb/elapsed.Seconds(), float64(ttfb.Microseconds())/1000, growth, float64(base)/1024)
	if growth >= maxGrowth {
		return fmt.Errorf("peak RSS grew %.1f MiB while streaming, not under %.0f MiB", growth, maxGrowth)
	}
	return nil
}

// page times sequential requests of a 1,000-row JSON page.
func page(url, key string, n int) error {
	var took []time.Duration
	start := time.Now()
	for range n {
		t := time.Now()
		resp, err := get(url, key)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		took = append(took, time.Since(t))
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Printf("india prices 1,000-row JSON page (memory, one client)\trequests %d\treq/s %.0f\tp50 ms %.2f\tp99 ms %.2f\n",
		n, float64(n)/time.Since(start).Seconds(), ms(took[n/2]), ms(took[n*99/100]))
	return nil
}

// status reads a /proc/self/status field, in KiB.
func status(field string) (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/self/status", field)
}
