package usecase

import (
	"context"
	"time"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// ExportDataset is one dataset POST /india/exports writes. A dataset
// contributes it from its own wiring, over its own use case, so that its
// filters are exactly its list route's and are validated the same way.
type ExportDataset struct {
	// Name is the dataset's name in a request, such as "india.prices".
	Name string
	// ID is the catalog dataset whose availability the export needs.
	ID dataset.ID
	// Permissions are required beyond the route's own (data:export and
	// india:read), such as litigation:read for judgments.
	Permissions []scope.Permission
	// Filters names the filters the dataset takes: its list route's
	// query parameters, paging left out.
	Filters []string
	// Held reports whether the dataset holds data: its own availability
	// probe, which makes the export route available (ExportsProbe).
	Held Probe
	// Plan validates the filters as the list route does (ErrValidation
	// for a malformed value, ErrInvalidRequest for a combination) without
	// reading the store, and returns how to open the export.
	Plan func(filters map[string]string) (ExportPlan, error)
}

// ExportPlan opens a validated export once it is charged: it may read the
// store (an unknown security is ports.ErrNotFound, refunded).
type ExportPlan func(ctx context.Context) (Export, error)

// Export is an opened export: its rows, the as_of its rows were read at,
// and a descriptive file name without its extension.
type Export struct {
	Source ports.TableSource
	AsOf   time.Time
	Stem   string
}

func OrAll(bound string) string {
	if bound == "" {
		return "all"
	}
	return bound
}
