package ask

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/scope"
)

// Reasons a dataset is left out of an answer.
const (
	ExcludedNotActivated      = "not_activated"
	ExcludedPermissionMissing = "permission_missing"
	ExcludedNotRequested      = "not_requested"
	ExcludedNotIndexed        = "not_indexed_for_ask"
)

// askSources are the datasets Ask reads, in catalog order, each with the
// permissions its own routes require: Ask never shows a credential what
// the dataset's route would refuse it.
var askSources = func() []dataset.ID {
	var out []dataset.ID
	for _, d := range dataset.Catalog() {
		if d.Ask {
			out = append(out, d.ID)
		}
	}
	return out
}()

// askTogether pairs the datasets Ask reads only as one (the catalog's
// AskWith): India judgments are found through India search's index of
// their tokenized text and cited as judgments, so a question reads them
// when both may be read (india:read, litigation:read and search:read), and
// naming either in datasets names both.
var askTogether = func() map[dataset.ID]dataset.ID {
	out := map[dataset.ID]dataset.ID{}
	for _, d := range dataset.Catalog() {
		if d.AskWith != "" {
			out[d.ID] = d.AskWith
		}
	}
	return out
}()

// Governance says on every answer what Ask never reads.
const GovernanceStatement = "The persons, addresses and PANs in India judgments are tokens (PTY_, ADR_, PAN_); Ask searches the tokenized text only, and the PII vault is never read: a person's real name finds nothing of theirs."

// Exclusion is a dataset left out of an answer and why.
type Exclusion struct {
	Dataset dataset.ID
	Reason  string
}

// Statuses says whether each dataset is activated; Availability does.
type Statuses interface {
	Status(ctx context.Context, id dataset.ID) (dataset.Status, error)
}

// DatasetLicence is the licence of one dataset an answer cites.
type DatasetLicence struct {
	Dataset dataset.ID
	Licence dataset.Licence
}

// licences lists the licence of each dataset the citations cite, once,
// in the order of their first citation.
func licences(citations []Citation) []DatasetLicence {
	out := []DatasetLicence{}
	for _, c := range citations {
		if slices.ContainsFunc(out, func(l DatasetLicence) bool { return l.Dataset == c.Dataset }) {
			continue
		}
		d, _ := dataset.Lookup(c.Dataset)
		out = append(out, DatasetLicence{Dataset: c.Dataset, Licence: d.Licence})
	}
	return out
}

// Reading is what a question may read for one credential: every dataset
// of the catalog but Ask itself, searched or excluded with its reason.
type Reading struct {
	Searched []dataset.ID
	Excluded []Exclusion
}

// Governance decides which datasets a question over q may read for a
// credential holding scopes. A question that may read nothing is refused
// before it is charged (spec-gaps B55): with ErrForbidden when a dataset it
// asks for is left out only for a permission the key lacks, else with
// ErrValidation; either message lists every exclusion.
func (a *Service) Governance(ctx context.Context, q Query, scopes []string, st Statuses) (Reading, error) {
	r, err := a.reading(ctx, q, scope.FromStrings(scopes), st)
	if err != nil || len(r.Searched) > 0 {
		return r, err
	}
	listed := make([]string, len(r.Excluded))
	forbidden := false
	for i, e := range r.Excluded {
		listed[i] = string(e.Dataset) + " (" + e.Reason + ")"
		forbidden = forbidden || e.Reason == ExcludedPermissionMissing
	}
	if forbidden {
		return r, fmt.Errorf("%w: nothing to search: the datasets this question could read need permissions the key lacks; excluded: %s",
			platform.ErrForbidden, strings.Join(listed, ", "))
	}
	return r, fmt.Errorf("%w: nothing to search: datasets and jurisdictions leave no dataset Ask reads (%s) that is activated; excluded: %s",
		usecase.ErrValidation, strings.Join(askReadable(), ", "), strings.Join(listed, ", "))
}

// askReadable names the datasets Ask can read, for a refusal's message.
func askReadable() []string {
	out := make([]string, len(askSources))
	for i, id := range askSources {
		out[i] = string(id)
	}
	return out
}

// reading sorts every dataset of the catalog but Ask into searched and
// excluded, with the first reason that applies.
func (a *Service) reading(ctx context.Context, q Query, held []scope.Permission, st Statuses) (Reading, error) {
	var ids []dataset.ID
	reasons := map[dataset.ID]string{}
	for _, d := range dataset.Catalog() {
		if d.ID == dataset.AskRetrieval {
			continue
		}
		reason, err := exclusion(ctx, q, held, d, st)
		if err != nil {
			return Reading{}, err
		}
		ids, reasons[d.ID] = append(ids, d.ID), reason
	}
	var r Reading
	for _, id := range ids {
		reason := reasons[id]
		if partner, ok := askTogether[id]; ok && reason == "" {
			reason = reasons[partner] // read as one: what excludes one excludes both
		}
		if reason == "" {
			r.Searched = append(r.Searched, id)
		} else {
			r.Excluded = append(r.Excluded, Exclusion{Dataset: id, Reason: reason})
		}
	}
	return r, nil
}

// exclusion is the first reason d is left out of a question over q for a
// credential holding held, or "" when d is read.
func exclusion(ctx context.Context, q Query, held []scope.Permission, d dataset.Dataset, statuses Statuses) (string, error) {
	switch {
	case len(q.Datasets) > 0 && !slices.Contains(q.Datasets, d.ID) && !slices.Contains(q.Datasets, askTogether[d.ID]),
		len(q.Jurisdictions) > 0 && !slices.Contains(q.Jurisdictions, d.Jurisdiction):
		return ExcludedNotRequested, nil
	}
	// A dataset held for internal use only is read as any other: the key
	// may read its rows through their own routes, and answering from them
	// is a read, not a redistribution; the answer carries the licence of
	// every dataset it cites (Licences, spec-gaps B198).
	st, err := statuses.Status(ctx, d.ID)
	switch {
	case err != nil:
		return "", err
	case !st.Serving():
		return ExcludedNotActivated, nil
	case !slices.Contains(askSources, d.ID):
		return ExcludedNotIndexed, nil
	}
	for _, rt := range d.Routes {
		if len(scope.Missing(held, rt.Permissions)) > 0 {
			return ExcludedPermissionMissing, nil
		}
	}
	return "", nil
}
