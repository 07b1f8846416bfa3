package sourcesync

import (
	"maps"
	"sync"
	"time"

	"github.com/quarrydata/quarry/ports"
)

// Meter counts, per source, the requests sent, the body bytes received,
// the fetches that failed and when a run last succeeded; the metrics
// listener reads it.
type Meter struct {
	mu sync.Mutex
	by map[string]Counts
}

var _ ports.SourceMeter = (*Meter)(nil)

// Counts are one source's figures.
type Counts struct {
	Requests, Bytes, Errors int64
	// LastSuccess is when a run of the source last finished well.
	LastSuccess time.Time
}

// NewMeter returns a meter counting nothing yet.
func NewMeter() *Meter { return &Meter{by: map[string]Counts{}} }

func (m *Meter) add(source string, fn func(*Counts)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.by[source]
	fn(&c)
	m.by[source] = c
}

// Requested counts a request sent.
func (m *Meter) Requested(source string) { m.add(source, func(c *Counts) { c.Requests++ }) }

// Failed counts a fetch that failed.
func (m *Meter) Failed(source string) { m.add(source, func(c *Counts) { c.Errors++ }) }

// Received counts body bytes received.
func (m *Meter) Received(source string, n int) {
	m.add(source, func(c *Counts) { c.Bytes += int64(n) })
}

// succeeded records a run of source that finished well at t.
func (m *Meter) succeeded(source string, t time.Time) {
	m.add(source, func(c *Counts) { c.LastSuccess = t })
}

// Snapshot returns every source's figures, by source.
func (m *Meter) Snapshot() map[string]Counts {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.by)
}
