// Command loadgen drives one URL with a fixed number of concurrent
// keep-alive connections for a fixed time and prints throughput, latency
// percentiles and the mean bytes of a response body. With -rate it sends
// at most that many requests per second in all, to measure latency at a
// given load rather than at saturation. With
// -urls it takes each request's URL at random from a file, so that a route
// is measured over many keys rather than its hottest one; with -bodies it
// takes each request's JSON body at random from a file, one a line, so that
// a search is measured over many queries or filters. `go tool task
// bench` and `go tool task bench-scale` use it against the served binary.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

type result struct {
	latencies []time.Duration
	statuses  map[int]int
	errors    int
	// bytes is the response body bytes read in all.
	bytes int64
}

func main() {
	url := flag.String("url", "", "URL to request")
	urlFile := flag.String("urls", "", "file of URLs, one a line; each request takes one at random (instead of -url)")
	method := flag.String("method", http.MethodGet, "HTTP method")
	body := flag.String("body", "", "request body (sent as JSON)")
	bodyFile := flag.String("bodies", "", "file of JSON bodies, one a line; each request takes one at random (instead of -body)")
	header := flag.String("header", "", "one request header, as Name: value")
	conns := flag.Int("c", 32, "concurrent connections")
	duration := flag.Duration("d", 10*time.Second, "how long to run")
	label := flag.String("label", "", "row label to print")
	perSecond := flag.Float64("rate", 0, "requests per second in all (0: as fast as the connections go)")
	flag.Parse()
	urls, err := targets(*url, *urlFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	bodies, err := lines(*body, *bodyFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	limit := rate.NewLimiter(rate.Inf, 0)
	if *perSecond > 0 {
		limit = rate.NewLimiter(rate.Limit(*perSecond), 1)
	}
	res := run(target{method: *method, urls: urls, header: *header, bodies: bodies, limit: limit}, *conns, *duration)
	report(*label, res, *duration)
}

// targets is the URL given, or the lines of the file given.
func targets(url, file string) ([]string, error) {
	switch {
	case (url == "") == (file == ""):
		return nil, errors.New("give one of -url and -urls")
	case url != "":
		return []string{url}, nil
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	urls := strings.Fields(string(raw))
	if len(urls) == 0 {
		return nil, fmt.Errorf("%s holds no URL", file)
	}
	return urls, nil
}

// lines is the body given, or the lines of the file given (a JSON body
// holds no line break), or one empty body.
func lines(body, file string) ([]string, error) {
	if file == "" {
		return []string{body}, nil
	}
	if body != "" {
		return nil, errors.New("give at most one of -body and -bodies")
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if out[0] == "" {
		return nil, fmt.Errorf("%s holds no body", file)
	}
	return out, nil
}

// target is the request every worker repeats, as often as limit lets, to
// one of urls at random.
type target struct {
	method, header string
	urls           []string
	// bodies are the request bodies to take one of at random; one empty
	// body when none is given.
	bodies []string
	limit  *rate.Limiter
}

func run(t target, conns int, d time.Duration) result {
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	results := make([]result, conns)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = worker(ctx, client, t)
		}()
	}
	wg.Wait()
	return merge(results)
}

func worker(ctx context.Context, client *http.Client, t target) result {
	r := result{statuses: map[int]int{}}
	name, value, _ := strings.Cut(t.header, ":")
	for ctx.Err() == nil {
		if t.limit.Wait(ctx) != nil {
			break // the run is over
		}
		body := t.bodies[rand.IntN(len(t.bodies))]
		req, err := http.NewRequest(t.method, t.urls[rand.IntN(len(t.urls))], strings.NewReader(body))
		if err != nil {
			r.errors++
			return r
		}
		if name != "" {
			req.Header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			r.errors++
			continue
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		r.bytes += n
		r.latencies = append(r.latencies, time.Since(start))
		r.statuses[resp.StatusCode]++
	}
	return r
}

func merge(rs []result) result {
	out := result{statuses: map[int]int{}}
	for _, r := range rs {
		out.latencies = append(out.latencies, r.latencies...)
		out.errors += r.errors
		out.bytes += r.bytes
		for code, n := range r.statuses {
			out.statuses[code] += n
		}
	}
	slices.Sort(out.latencies)
	return out
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(float64(len(sorted)-1)*p)]
}

// report prints one tab-separated row: label, req/s, p50 ms, p99 ms,
// statuses, and the mean bytes of a response body.
func report(label string, r result, d time.Duration) {
	rps := float64(len(r.latencies)) / d.Seconds()
	var mean int64
	if n := int64(len(r.latencies)); n > 0 {
		mean = r.bytes / n
	}
	fmt.Printf("%s\t%.0f\t%.3f\t%.3f\t%v errors=%d\t%d\n", label, rps,
		float64(percentile(r.latencies, 0.50).Microseconds())/1000,
		float64(percentile(r.latencies, 0.99).Microseconds())/1000, r.statuses, r.errors, mean)
}
