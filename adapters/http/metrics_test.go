package http_test

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
)

// letters returns n random ASCII letters, a valid method token or path
// segment.
func letters(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[rng.IntN(52)]
	}
	return string(b)
}

// labelPair is one name="value" pair of an exposition line.
var labelPair = regexp.MustCompile(`(\w+)="([^"]*)"`)

// TestMetricLabelsComeFromAClosedSet sends thousands of requests with
// client-chosen methods and paths and checks that the exposition grows by
// no series: every method beyond the known ones is OTHER, every unrouted
// path "unmatched".
func TestMetricLabelsComeFromAClosedSet(t *testing.T) {
	srv, err := httpadapter.NewServer(httpadapter.Deps{Log: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(23, 1))
	send := func(method, path string) {
		srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, path, nil))
	}
	scrape := func() string {
		w := httptest.NewRecorder()
		srv.MetricsHandler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		return w.Body.String()
	}
	// A handful of requests makes every series the flood below can touch.
	send(http.MethodGet, "/healthz")
	send(letters(rng, 100), "/healthz")
	send(http.MethodGet, "/"+letters(rng, 100))
	send(letters(rng, 100), "/"+letters(rng, 100))
	before := len(scrape())

	for range 2000 {
		send(letters(rng, 100+rng.IntN(100)), "/healthz")
		send(letters(rng, 100+rng.IntN(100)), "/"+letters(rng, 20)+"/"+letters(rng, 100))
	}
	after := scrape()
	t.Logf("exposition: %d bytes after a handful of requests, %d after 4,000 more", before, len(after))
	// The counters' and the runtime collectors' figures may gain digits;
	// one new series per request would add hundreds of kilobytes.
	if margin := 4 << 10; len(after) > before+margin {
		t.Fatalf("exposition grew from %d to %d bytes after 4,000 requests with new methods and paths", before, len(after))
	}
	allowed := map[string]func(string) bool{
		"method": func(v string) bool { return v == "GET" || v == "OTHER" },
		"route":  func(v string) bool { return v == "GET /healthz" || v == "unmatched" },
		"status": func(v string) bool { return v == "200" || v == "404" || v == "405" },
	}
	for line := range strings.Lines(after) {
		if !strings.HasPrefix(line, "quarry_") {
			continue
		}
		for _, m := range labelPair.FindAllStringSubmatch(line, -1) {
			if ok, known := allowed[m[1]]; known && !ok(m[2]) {
				t.Errorf("label %s=%q outside its closed set: %s", m[1], m[2], line)
			}
		}
	}
}

// TestMetricsAreNotAnAPIRoute: the exposition is served on its own
// listener only, so the API answers 404 for it.
func TestMetricsAreNotAnAPIRoute(t *testing.T) {
	srv, err := httpadapter.NewServer(httpadapter.Deps{Log: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "quarry_http_requests_total") {
		t.Fatalf("GET /metrics on the API: %d %.200s", w.Code, w.Body)
	}
}
