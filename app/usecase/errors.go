package usecase

import (
	"errors"

	"github.com/quarrydata/quarry/domain/dataset"
)

// Errors the use cases return. The HTTP adapter maps each to one status.
var (
	// ErrInvalidRequest: a parameter combination is invalid (400).
	ErrInvalidRequest = errors.New("invalid request")
	// ErrValidation: a value fails its schema or format rule (422).
	ErrValidation = errors.New("validation failed")
)

// UnavailableError reports a dataset that is not activated (503).
type UnavailableError struct {
	Dataset dataset.ID
	Status  dataset.Status
	// Remedy says how an operator fills the dataset, such as "an operator
	// loads it with `quarry ingest us_financials`"; empty when none is known.
	Remedy string
}

func (e *UnavailableError) Error() string {
	msg := "dataset " + string(e.Dataset) + " is not available: " + string(e.Status.Reason)
	if e.Remedy != "" {
		msg += "; " + e.Remedy
	}
	return msg
}

// SuggestionError is a refused value with the value the service takes it
// to mean, which the HTTP adapter reports as the error body's
// did_you_mean; it wraps the refusal, whose sentinel gives the status.
type SuggestionError struct {
	Err   error
	Meant string
}

func (e *SuggestionError) Error() string { return e.Err.Error() }

// Unwrap returns the refusal.
func (e *SuggestionError) Unwrap() error { return e.Err }
