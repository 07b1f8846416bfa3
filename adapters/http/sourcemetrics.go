package http

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/quarrydata/quarry/app/sourcesync"
)

// sourceCollector exports what the sources fetched, by source: a closed
// set of labels, the sources the binary knows.
type sourceCollector struct {
	meter                              *sourcesync.Meter
	lastSuccess, requests, bytes, errs *prometheus.Desc
}

// CollectSources adds the sources' series to the server's metrics:
// quarry_source_last_success_timestamp_seconds and the requests, bytes and
// errors of each source.
func (s *Server) CollectSources(m *sourcesync.Meter) error {
	label := []string{"source"}
	return s.metrics.registry.Register(&sourceCollector{
		meter: m,
		lastSuccess: prometheus.NewDesc("quarry_source_last_success_timestamp_seconds",
			"When a sync run of the source last finished without an error, in Unix seconds.", label, nil),
		requests: prometheus.NewDesc("quarry_source_requests_total", "HTTP requests sent to the source.", label, nil),
		bytes:    prometheus.NewDesc("quarry_source_bytes_total", "Body bytes received from the source.", label, nil),
		errs:     prometheus.NewDesc("quarry_source_errors_total", "Fetches from the source that failed after their retries.", label, nil),
	})
}

// Describe sends the series' descriptions.
func (c *sourceCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.lastSuccess, c.requests, c.bytes, c.errs} {
		ch <- d
	}
}

// Collect sends each source's figures.
func (c *sourceCollector) Collect(ch chan<- prometheus.Metric) {
	for source, n := range c.meter.Snapshot() {
		if !n.LastSuccess.IsZero() {
			ch <- prometheus.MustNewConstMetric(c.lastSuccess, prometheus.GaugeValue, float64(n.LastSuccess.UnixMilli())/1000, source)
		}
		ch <- prometheus.MustNewConstMetric(c.requests, prometheus.CounterValue, float64(n.Requests), source)
		ch <- prometheus.MustNewConstMetric(c.bytes, prometheus.CounterValue, float64(n.Bytes), source)
		ch <- prometheus.MustNewConstMetric(c.errs, prometheus.CounterValue, float64(n.Errors), source)
	}
}
