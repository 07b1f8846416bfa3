package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// ExportRequest is the body of POST /india/exports.
type ExportRequest struct {
	Dataset string
	Format  string
	Filters map[string]string
}

// PreparedExport is a validated export request, ready to run once charged.
type PreparedExport struct {
	Encoder ports.TableEncoder
	plan    ExportPlan
}

// Open opens the export.
func (p PreparedExport) Open(ctx context.Context) (Export, error) { return p.plan(ctx) }

// Exports validates export requests against the datasets that can be
// exported and the file formats there are encoders for.
type Exports struct {
	datasets     map[string]ExportDataset
	encoders     map[string]ports.TableEncoder
	availability *Availability
}

// NewExports wires the use case.
func NewExports(datasets []ExportDataset, encoders []ports.TableEncoder, availability *Availability) *Exports {
	e := &Exports{datasets: map[string]ExportDataset{}, encoders: map[string]ports.TableEncoder{}, availability: availability}
	for _, d := range datasets {
		e.datasets[d.Name] = d
	}
	for _, enc := range encoders {
		e.encoders[enc.Format()] = enc
	}
	return e
}

// Prepare checks a request in the interface's order: the dataset and
// format (422), the filters' names (400), the dataset's own permissions
// (403) and availability (503), then the filters' values as the dataset's
// list route checks them.
func (e *Exports) Prepare(ctx context.Context, k apikey.Key, req ExportRequest) (PreparedExport, error) {
	ds, ok := e.datasets[req.Dataset]
	if !ok {
		return PreparedExport{}, fmt.Errorf("%w: dataset %q: want one of %s", ErrValidation, req.Dataset, names(e.datasets))
	}
	enc, ok := e.encoders[req.Format]
	if !ok {
		return PreparedExport{}, fmt.Errorf("%w: format %q: want one of %s", ErrValidation, req.Format, names(e.encoders))
	}
	for name := range req.Filters {
		if !slices.Contains(ds.Filters, name) {
			return PreparedExport{}, fmt.Errorf("%w: unknown filter %q for %s: want %s", ErrInvalidRequest, name, ds.Name, strings.Join(ds.Filters, ", "))
		}
	}
	if missing := scope.Missing(scope.FromStrings(k.Scopes), ds.Permissions); len(missing) > 0 {
		return PreparedExport{}, fmt.Errorf("%w: exporting %s requires %v", ErrForbidden, ds.Name, scope.Strings(missing))
	}
	if err := e.availability.Require(ctx, ds.ID); err != nil {
		return PreparedExport{}, err
	}
	plan, err := ds.Plan(req.Filters)
	if err != nil {
		return PreparedExport{}, err
	}
	return PreparedExport{Encoder: enc, plan: plan}, nil
}

// ExportsProbe makes the export route available once any dataset it
// exports holds data. It asks the datasets' own probes, not Availability:
// Availability is built from every probe, this one among them.
func ExportsProbe(datasets []ExportDataset) DatasetProbe {
	return DatasetProbe{Dataset: dataset.IndiaExports, Probe: func(ctx context.Context) (bool, error) {
		var errs []error
		for _, d := range datasets {
			held, err := d.Held(ctx)
			if held {
				return true, nil
			}
			errs = append(errs, err)
		}
		return false, errors.Join(errs...)
	}}
}

func names[V any](m map[string]V) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
