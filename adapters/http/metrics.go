package http

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the Prometheus series the server exports on GET /metrics.
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
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(method, route, code).Inc()
	m.latency.WithLabelValues(method, route).Observe(latency.Seconds())
	if status == http.StatusPaymentRequired || status == http.StatusTooManyRequests {
		m.refusals.WithLabelValues(code).Inc()
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}
