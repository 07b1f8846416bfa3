package usecase

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
	// probing holds one lock per dataset, so that the requests arriving
	// together at a cold server run one probe, not one each: a probe
	// counts the dataset's documents, which FerretDB does by reading the
	// whole collection, and two hundred of them at once took longer than a
	// client waits (docs/benchmarks.md, "Figures behind the design").
	probing map[dataset.ID]*sync.Mutex
	mu      sync.RWMutex
	seen    map[dataset.ID]bool
	// coverage says, by dataset, whether the source that keeps it current
	// holds its configured range up to date (see Cover).
	coverage map[dataset.ID]Probe
	// remedies say, by dataset, how an operator fills an empty one.
	remedies map[dataset.ID]string
	// governedBy holds, by dataset, whether the governed source that alone
	// fills it is configured, read on each request (see GovernUntil).
	governedBy map[dataset.ID]governance
}

// governance is whether a dataset's governed source is configured, and
// what configures it.
type governance struct {
	configured Probe
	remedy     string
}

// Remedy says how an operator fills a dataset that holds no data, for the
// message of its 503: the commands that load it, written by the wiring,
// which knows them.
type Remedy struct {
	Dataset dataset.ID
	Text    string
}

// NewAvailability wires the probes, and the remedies a 503 names.
func NewAvailability(probes []DatasetProbe, remedies ...Remedy) *Availability {
	m := make(map[dataset.ID]Probe, len(probes))
	locks := make(map[dataset.ID]*sync.Mutex, len(probes))
	for _, p := range probes {
		m[p.Dataset] = p.Probe
		locks[p.Dataset] = &sync.Mutex{}
	}
	byID := make(map[dataset.ID]string, len(remedies))
	for _, r := range remedies {
		byID[r.Dataset] = r.Text
	}
	return &Availability{probes: m, probing: locks, seen: map[dataset.ID]bool{}, remedies: byID, coverage: map[dataset.ID]Probe{},
		governedBy: map[dataset.ID]governance{}}
}

// Cover makes a dataset that holds data partial, still serving, while
// covered reports false: the source that keeps it current has not yet
// fetched the range the configuration asks for, up to the latest day due.
// It is set while the service is wired, before any request.
func (a *Availability) Cover(id dataset.ID, covered Probe) { a.coverage[id] = covered }

// GovernUntil makes a dataset that holds no data source_required, rather
// than not_backfilled, while configured reports false: only a governed
// source fills it, and the serving process sees nothing configured to run
// it (configured is read on each request, as another process may configure
// it). remedy says what an operator configures, for the 503. It is set
// while the service is wired, before any request.
func (a *Availability) GovernUntil(id dataset.ID, configured Probe, remedy string) {
	a.governedBy[id] = governance{configured: configured, remedy: remedy}
}

func (a *Availability) known(id dataset.ID) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.seen[id]
}

// Status returns the dataset's current status.
func (a *Availability) Status(ctx context.Context, id dataset.ID) (dataset.Status, error) {
	st, err := a.held(ctx, id)
	if err != nil {
		return st, err
	}
	if !st.Serving() {
		return a.governedStatus(ctx, id, st)
	}
	covered, ok := a.coverage[id]
	if !ok {
		return st, nil
	}
	full, err := covered(ctx)
	if err != nil {
		return dataset.Status{}, err
	}
	if !full {
		st.Availability = dataset.Partial
	}
	return st, nil
}

// governedStatus is source_required when the dataset's governed source is
// not configured, else st.
func (a *Availability) governedStatus(ctx context.Context, id dataset.ID, st dataset.Status) (dataset.Status, error) {
	g, ok := a.governedBy[id]
	if !ok {
		return st, nil
	}
	configured, err := g.configured(ctx)
	if err != nil || configured {
		return st, err
	}
	return dataset.SourceRequiredStatus(), nil
}

// held is the status that follows from whether the store holds data.
func (a *Availability) held(ctx context.Context, id dataset.ID) (dataset.Status, error) {
	if a.known(id) {
		return dataset.StatusFor(true), nil
	}
	probe, ok := a.probes[id]
	if !ok {
		return dataset.StatusFor(false), nil
	}
	lock := a.probing[id]
	lock.Lock()
	defer lock.Unlock()
	if a.known(id) { // found by the probe this request waited for
		return dataset.StatusFor(true), nil
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
		remedy := a.remedies[id]
		if st.Availability == dataset.SourceRequired {
			remedy = a.governedBy[id].remedy
		}
		return &UnavailableError{Dataset: id, Status: st, Remedy: remedy}
	}
	return nil
}
