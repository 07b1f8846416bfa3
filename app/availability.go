package app

import (
	"context"
	"sync"

	"github.com/quarrydata/quarry/domain/dataset"
)

// Probe reports whether a dataset's store holds data.
type Probe func(ctx context.Context) (bool, error)

// DatasetProbe binds a probe to the dataset it speaks for. Adapters of new
// datasets contribute one each, so activating a dataset needs no change here.
type DatasetProbe struct {
	Dataset dataset.ID
	Probe   Probe
}

// Availability answers whether each dataset is activated. A dataset without
// a probe is not backfilled. Once a probe reports data, the answer is kept:
// datasets are append-only, so they do not fall back to empty.
type Availability struct {
	probes map[dataset.ID]Probe
	mu     sync.RWMutex
	seen   map[dataset.ID]bool
}

// NewAvailability wires the probes.
func NewAvailability(probes []DatasetProbe) *Availability {
	m := make(map[dataset.ID]Probe, len(probes))
	for _, p := range probes {
		m[p.Dataset] = p.Probe
	}
	return &Availability{probes: m, seen: map[dataset.ID]bool{}}
}

// Status returns the dataset's current status.
func (a *Availability) Status(ctx context.Context, id dataset.ID) (dataset.Status, error) {
	a.mu.RLock()
	known := a.seen[id]
	a.mu.RUnlock()
	if known {
		return dataset.StatusFor(true), nil
	}
	probe, ok := a.probes[id]
	if !ok {
		return dataset.StatusFor(false), nil
	}
	has, err := probe(ctx)
	if err != nil {
		return dataset.Status{}, err
	}
	if has {
		a.mu.Lock()
		a.seen[id] = true
		a.mu.Unlock()
	}
	return dataset.StatusFor(has), nil
}

// Require returns an UnavailableError unless the dataset is serving.
func (a *Availability) Require(ctx context.Context, id dataset.ID) error {
	st, err := a.Status(ctx, id)
	if err != nil {
		return err
	}
	if !st.Serving() {
		return &UnavailableError{Dataset: id, Status: st}
	}
	return nil
}
