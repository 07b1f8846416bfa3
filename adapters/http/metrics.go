package http

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/fx"
	"go.uber.org/zap"
)

// metrics are the Prometheus series the server exports on GET /metrics, on
// the listener RunMetrics opens. Every label value comes from a closed set
// (methodLabel, statusLabel, the routes of the interface and "unmatched"), so
// no request can add a series: a label value per client-chosen method or
// path would let anyone grow the exposition without bound.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	debited  prometheus.Counter
	refunded prometheus.Counter
	refusals *prometheus.CounterVec
	// truncated counts charged responses whose body failed after its
	// first byte.
	truncated prometheus.Counter
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quarry_http_requests_total", Help: "HTTP requests by method, route and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "quarry_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"method", "route"}),
		debited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "quarry_credits_debited_total", Help: "Credits debited by data requests.",
		}),
		refunded: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "quarry_credits_refunded_total", Help: "Credits refunded to requests that ended in an error.",
		}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quarry_requests_refused_total", Help: "Data requests refused for credits (402) or rate (429).",
		}, []string{"status"}),
		truncated: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "quarry_responses_truncated_total", Help: "Charged responses whose body failed after its first byte and was cut short.",
		}),
	}
	m.registry.MustRegister(m.requests, m.latency, m.debited, m.refunded, m.refusals, m.truncated,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observe(method, route string, status int, latency time.Duration) {
	code := statusLabel(status)
	method = methodLabel(method)
	m.requests.WithLabelValues(method, route, code).Inc()
	m.latency.WithLabelValues(method, route).Observe(latency.Seconds())
	if status == http.StatusPaymentRequired || status == http.StatusTooManyRequests {
		m.refusals.WithLabelValues(code).Inc()
	}
}

// knownMethods are the methods of RFC 9110 and PATCH (RFC 5789), the label
// values a request's method keeps.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodConnect: true,
	http.MethodOptions: true, http.MethodTrace: true,
}

// methodLabel is a request's method as a label value: a known method, or
// OTHER for any other token a client sends.
func methodLabel(method string) string {
	if knownMethods[method] {
		return method
	}
	return "OTHER"
}

// statusLabel is a status as a label value: its three-digit code, or
// "other" when no status in 100-599 was written (a handler that aborted
// before writing anything).
func statusLabel(code int) string {
	if code < 100 || code > 599 {
		return "other"
	}
	return strconv.Itoa(code)
}

// MetricsConfig says where GET /metrics is served; an empty Addr turns the
// listener off.
type MetricsConfig struct {
	Addr string
}

// RunMetrics serves GET /metrics on a listener of its own, apart from the
// API: the exposition holds business figures (credits debited and refunded,
// requests by route) that the public has no business reading, and a
// listener of its own can be bound to loopback or an internal network
// whatever the API faces. Any other path there is 404.
var RunMetrics = fx.Invoke(runMetrics)

func runMetrics(lc fx.Lifecycle, cfg MetricsConfig, s *Server, log *zap.Logger) {
	if cfg.Addr == "" {
		return
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.MetricsHandler())
	srv := &http.Server{
		Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, MaxHeaderBytes: MaxHeaderBytes, ErrorLog: zap.NewStdLog(log),
	}
	listenApart(lc, "metrics", cfg.Addr, srv, log)
}

// MetricsHandler serves the server's metrics in the Prometheus text
// exposition format.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{})
}
