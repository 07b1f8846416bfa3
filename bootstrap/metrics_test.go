package bootstrap_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
)

// TestMetricsServedOnTheirOwnListener: with MetricsListener, GET /metrics
// answers on the metrics address and 404 on the API's.
func TestMetricsServedOnTheirOwnListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := memoryConfig(t)
	cfg.Listener = ln
	cfg.MetricsAddr = freePort(t)
	start(t, cfg, bootstrap.MetricsListener(cfg))

	code, _ := get(t, "http://"+ln.Addr().String()+"/metrics")
	if code != http.StatusNotFound {
		t.Fatalf("GET /metrics on the API listener: %d", code)
	}
	code, body := get(t, "http://"+cfg.MetricsAddr+"/metrics")
	if code != http.StatusOK || !strings.Contains(body, `quarry_http_requests_total{method="GET",route="unmatched",status="404"} 1`) {
		t.Fatalf("GET /metrics on the metrics listener: %d\n%.2000s", code, body)
	}
	if code, _ = get(t, "http://"+cfg.MetricsAddr+"/healthz"); code != http.StatusNotFound {
		t.Fatalf("GET /healthz on the metrics listener: %d, want only /metrics there", code)
	}
}

// freePort reserves a loopback address and frees it for the service.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}
