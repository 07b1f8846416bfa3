package http

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/quarrydata/quarry/domain/dataset"
)

// boundedInt reads an optional integer query parameter within [lo, hi];
// anything else is 422 naming the bounds.
func boundedInt(r *http.Request, name string, def, lo, hi int) (int, error) {
	raw := r.URL.Query().Get(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, unprocessable(fmt.Sprintf("%s must be an integer from %d to %d", name, lo, hi))
	}
	return n, nil
}

// Provenance names the source of served data, when it was retrieved, and
// its licence.
type Provenance struct {
	Source      string    `json:"source"`
	RetrievedAt time.Time `json:"retrieved_at"`
	Licence     string    `json:"licence"`
}

// Meta is the metadata object of list responses. Jurisdiction is omitted
// where the interface says so (the filing index).
type Meta struct {
	Jurisdiction         string     `json:"jurisdiction,omitempty"`
	Count                int        `json:"count"`
	Limit                int        `json:"limit"`
	Offset               int        `json:"offset"`
	NextOffset           *int       `json:"next_offset"`
	AsOf                 time.Time  `json:"as_of"`
	NormalizationVersion string     `json:"normalization_version"`
	Provenance           Provenance `json:"provenance"`
}

// NewMeta builds the metadata of one page; next_offset is null when total
// says no further item exists.
func NewMeta(jurisdiction string, limit, offset, count, total int, asOf time.Time, version string, p Provenance) Meta {
	m := Meta{
		Jurisdiction: jurisdiction, Count: count, Limit: limit, Offset: offset,
		AsOf: asOf, NormalizationVersion: version, Provenance: p,
	}
	if next := offset + count; count > 0 && next < total {
		m.NextOffset = &next
	}
	return m
}

// pageTotal is the total a page of count items at offset lets NewMeta know:
// one past the page when more follow, so that next_offset is set.
func pageTotal(offset, count int, more bool) int {
	if more {
		return offset + count + 1
	}
	return offset + count
}

// licenceSource returns the catalog's licensed source of a dataset, empty
// for one the catalog does not hold.
func licenceSource(id dataset.ID) string {
	d, _ := dataset.Lookup(id)
	return d.Licence.Source
}

// licenceTerms returns the catalog's licence terms of a dataset, empty for
// one the catalog does not hold.
func licenceTerms(id dataset.ID) string {
	d, _ := dataset.Lookup(id)
	return d.Licence.Terms
}
