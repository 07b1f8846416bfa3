// Package dataset describes Quarry's datasets: the routes that serve them,
// what each request costs and requires, the licence of the source, and the
// availability states a dataset moves through.
package dataset

import "github.com/quarrydata/quarry/domain/scope"

// Version is the date-form version of the interface.
const Version = "2026-07-20"

// Availability is the activation state of a dataset.
type Availability string

// The availability states of the interface.
const (
	Available      Availability = "available"
	Partial        Availability = "partial"
	NotBackfilled  Availability = "not_backfilled"
	SourceRequired Availability = "source_required"
)

// Reason explains why a dataset is not available.
type Reason string

// The reasons of the interface.
const (
	NormalizationNotBackfilled  Reason = "normalization_not_backfilled"
	GovernedSourceNotConfigured Reason = "governed_source_not_configured"
)

// ID names a dataset.
type ID string

// The datasets the interface names.
const (
	USFinancials    ID = "us_financials"
	USFilingIndexes ID = "us_filing_indexes"
	USSearch        ID = "us_search"
	USFundHolders   ID = "us_security_fund_holders"
	ChinaSecurities ID = "china_securities"
	ChinaPrices     ID = "china_prices"
	IndiaPrices     ID = "india_prices"
	IndiaSearch     ID = "india_search"
	IndiaJudgments  ID = "india_judgments"
	IndiaExports    ID = "india_exports"
	AskRetrieval    ID = "ask"
)

// Licence states what a reader may do with a dataset's data.
type Licence struct {
	Source                string `json:"source"`
	RedistributionAllowed bool   `json:"redistribution_allowed"`
	Terms                 string `json:"terms"`
}

// Route is one operation that serves a dataset.
type Route struct {
	Method string
	// Path is the route's path as the OpenAPI document writes it, a path
	// parameter as "{name}".
	Path        string
	OperationID string
	Cost        int64
	Permissions []scope.Permission
}

// Dataset is one entry of the catalog.
type Dataset struct {
	ID           ID
	Title        string
	Jurisdiction string
	Routes       []Route
	Licence      Licence
	// Ask says whether POST /ask reads the dataset (it still excludes it
	// from a question for its activation or permissions; an internal-only
	// licence is carried on the answer, not a reason to leave it out).
	Ask bool
	// AskWith is the dataset Ask reads only together with this one: India
	// judgments are found through India search's index of their text, so
	// what excludes one excludes both. Empty for most.
	AskWith ID
}

// Status is a dataset's availability at a moment, with the reason when it is
// not available.
type Status struct {
	Availability           Availability
	Reason                 Reason
	BackfillRequired       bool
	ExternalSourceRequired bool
}

// Serving reports whether requests may be answered with data.
func (s Status) Serving() bool {
	return s.Availability == Available || s.Availability == Partial
}

// StatusFor derives the status of a dataset from whether its store holds data.
func StatusFor(hasData bool) Status {
	if hasData {
		return Status{Availability: Available}
	}
	return Status{Availability: NotBackfilled, Reason: NormalizationNotBackfilled, BackfillRequired: true}
}

// SourceRequiredStatus is the status of a dataset that holds no data and
// whose governed source is not configured: an operator configures the
// source, then backfills.
func SourceRequiredStatus() Status {
	return Status{Availability: SourceRequired, Reason: GovernedSourceNotConfigured, BackfillRequired: true, ExternalSourceRequired: true}
}
