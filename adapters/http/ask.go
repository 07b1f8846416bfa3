package http

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
)

type askBody struct {
	Question      string   `json:"question"`
	Jurisdictions []string `json:"jurisdictions"`
	Datasets      []string `json:"datasets"`
	AsOf          string   `json:"as_of"`
	MaxCitations  *int     `json:"max_citations"`
}

type askResponse struct {
	Answer     *string       `json:"answer"`
	Reason     *string       `json:"reason"`
	Citations  []askCitation `json:"citations"`
	Governance askGovernance `json:"governance"`
	Meta       askMeta       `json:"meta"`
}

type askCitation struct {
	Marker        int               `json:"marker"`
	Dataset       dataset.ID        `json:"dataset"`
	DocumentID    string            `json:"document_id"`
	Title         string            `json:"title"`
	Snippet       string            `json:"snippet"`
	SourceOffsets *askSourceOffsets `json:"source_offsets"`
	Fields        map[string]string `json:"fields"`
	Route         string            `json:"route"`
}

// askSourceOffsets locate a cited passage: in a 10-K section (section) or
// in a judgment (judgment_id), never both.
type askSourceOffsets struct {
	Section    string `json:"section,omitempty"`
	JudgmentID string `json:"judgment_id,omitempty"`
	Start      int    `json:"start"`
	End        int    `json:"end"`
}

type askGovernance struct {
	Searched  []dataset.ID   `json:"searched"`
	Excluded  []askExclusion `json:"excluded"`
	Licences  []askLicence   `json:"licences"`
	Statement string         `json:"statement"`
}

// askLicence is the licence of one dataset the answer cites: an
// internal-only one may be read, not republished.
type askLicence struct {
	Dataset dataset.ID `json:"dataset"`
	dataset.Licence
}

type askExclusion struct {
	Dataset dataset.ID `json:"dataset"`
	Reason  string     `json:"reason"`
}

type askMeta struct {
	AsOf     time.Time `json:"as_of"`
	Answerer string    `json:"answerer"`
}

// AskHandlers returns the handler of POST /ask. What the question may read
// is decided before the charge: a question that may read nothing is
// refused and costs nothing (spec-gaps B55).
func AskHandlers(asker *ask.Service, available *usecase.Availability, now usecase.Clock) []DataHandler {
	return []DataHandler{{Method: http.MethodPost, Path: "/ask", Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
		var body askBody
		if err := decodeJSON(r, &body); err != nil {
			return nil, err
		}
		q, err := ask.Parse(ask.Request(body), now())
		if err != nil {
			return nil, err
		}
		key, ok := platform.KeyFrom(r.Context())
		if !ok {
			return nil, errors.New("ask: no API key in the request context")
		}
		reading, err := asker.Governance(r.Context(), q, key.Scopes, available)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			a, err := asker.Answer(ctx, q, reading)
			if err != nil {
				return Response{}, err
			}
			return JSON(toAskResponse(a)), nil
		}, nil
	}}}
}

func toAskResponse(a ask.Answer) askResponse {
	out := askResponse{
		Citations:  make([]askCitation, len(a.Citations)),
		Governance: askGovernance{Searched: a.Searched, Excluded: make([]askExclusion, len(a.Excluded)), Licences: make([]askLicence, len(a.Licences)), Statement: a.Statement},
		Meta:       askMeta{AsOf: a.AsOf, Answerer: a.Answerer},
	}
	if out.Meta.Answerer == "" {
		out.Meta.Answerer = ask.AnswererVersion
	}
	if out.Governance.Searched == nil {
		out.Governance.Searched = []dataset.ID{}
	}
	if a.Reason != "" {
		out.Reason = &a.Reason
	} else {
		out.Answer = &a.Text
	}
	for i, c := range a.Citations {
		ac := askCitation{Marker: i + 1, Dataset: c.Dataset, DocumentID: c.DocumentID, Title: c.Title, Snippet: c.Snippet, Fields: c.Fields, Route: c.Route}
		if c.Offsets != nil {
			ac.SourceOffsets = &askSourceOffsets{Section: c.Offsets.Section, JudgmentID: c.Offsets.Judgment, Start: c.Offsets.Start, End: c.Offsets.End}
		}
		out.Citations[i] = ac
	}
	for i, e := range a.Excluded {
		out.Governance.Excluded[i] = askExclusion{Dataset: e.Dataset, Reason: e.Reason}
	}
	for i, l := range a.Licences {
		out.Governance.Licences[i] = askLicence{Dataset: l.Dataset, Licence: l.Licence}
	}
	return out
}
