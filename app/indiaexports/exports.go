package indiaexports

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// ExportRequest is the body of POST /india/exports.
type Request struct {
	Dataset string
	Format  string
	Filters map[string]string
}

// PreparedExport is a validated export request, ready to run once charged.
type Prepared struct {
	Encoder ports.TableEncoder
	plan    usecase.ExportPlan
}

// Open opens the export.
func (p Prepared) Open(ctx context.Context) (usecase.Export, error) { return p.plan(ctx) }

// Exports validates export requests against the datasets that can be
// exported and the file formats there are encoders for.
type Service struct {
	datasets     map[string]usecase.ExportDataset
	encoders     map[string]ports.TableEncoder
	availability *usecase.Availability
}

// NewExports wires the use case.
func New(datasets []usecase.ExportDataset, encoders []ports.TableEncoder, availability *usecase.Availability) *Service {
	e := &Service{datasets: map[string]usecase.ExportDataset{}, encoders: map[string]ports.TableEncoder{}, availability: availability}
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
func (e *Service) Prepare(ctx context.Context, k apikey.Key, req Request) (Prepared, error) {
	ds, ok := e.datasets[req.Dataset]
	if !ok {
		return Prepared{}, fmt.Errorf("%w: dataset %q: want one of %s", usecase.ErrValidation, req.Dataset, names(e.datasets))
	}
	enc, ok := e.encoders[req.Format]
	if !ok {
		return Prepared{}, fmt.Errorf("%w: format %q: want one of %s", usecase.ErrValidation, req.Format, names(e.encoders))
	}
	for name := range req.Filters {
		if !slices.Contains(ds.Filters, name) {
			return Prepared{}, fmt.Errorf("%w: unknown filter %q for %s: want %s", usecase.ErrInvalidRequest, name, ds.Name, strings.Join(ds.Filters, ", "))
		}
	}
	if missing := scope.Missing(scope.FromStrings(k.Scopes), ds.Permissions); len(missing) > 0 {
		return Prepared{}, fmt.Errorf("%w: exporting %s requires %v", platform.ErrForbidden, ds.Name, scope.Strings(missing))
	}
	if err := e.availability.Require(ctx, ds.ID); err != nil {
		return Prepared{}, err
	}
	plan, err := ds.Plan(req.Filters)
	if err != nil {
		return Prepared{}, err
	}
	return Prepared{Encoder: enc, plan: plan}, nil
}

// ExportsProbe makes the export route available once any dataset it
// exports holds data. It asks the datasets' own probes, not Availability:
// Availability is built from every probe, this one among them.
func Probe(datasets []usecase.ExportDataset) usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.IndiaExports, Probe: func(ctx context.Context) (bool, error) {
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
