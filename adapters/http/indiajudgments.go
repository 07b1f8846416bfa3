package http

import (
	"context"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

type judgmentParty struct {
	Token string `json:"token"`
	Role  string `json:"role"`
}

type judgmentBody struct {
	JudgmentID   string          `json:"judgment_id"`
	Court        string          `json:"court"`
	Bench        *string         `json:"bench"`
	CaseNumber   string          `json:"case_number"`
	Title        string          `json:"title"`
	Parties      []judgmentParty `json:"parties"`
	Judges       []string        `json:"judges"`
	DecisionDate string          `json:"decision_date"`
	Citations    []string        `json:"citations"`
	Language     string          `json:"language"`
	PageCount    *int            `json:"page_count"`
	PDFRoute     string          `json:"pdf_route"`
}

type judgmentResponse struct {
	Judgment judgmentBody `json:"judgment"`
	Meta     Meta         `json:"meta"`
}

type indiaSearchBody struct {
	Query       string `json:"query"`
	Court       string `json:"court"`
	DecidedFrom string `json:"decided_from"`
	DecidedTo   string `json:"decided_to"`
	Limit       *int   `json:"limit"`
	Offset      *int   `json:"offset"`
}

type indiaSearchResult struct {
	JudgmentID    string                `json:"judgment_id"`
	Court         string                `json:"court"`
	CaseNumber    string                `json:"case_number"`
	Title         string                `json:"title"`
	DecisionDate  string                `json:"decision_date"`
	Snippet       string                `json:"snippet"`
	Score         float64               `json:"score"`
	SourceOffsets judgmentSourceOffsets `json:"source_offsets"`
}

type judgmentSourceOffsets struct {
	JudgmentID string `json:"judgment_id"`
	Start      int    `json:"start"`
	End        int    `json:"end"`
}

type indiaSearchResponse struct {
	Results []indiaSearchResult `json:"results"`
	Meta    Meta                `json:"meta"`
}

// IndiaJudgmentHandlers returns the handlers of the India judgments, their
// PDFs and India search.
func IndiaJudgmentHandlers(u *indiajudgments.Service, now usecase.Clock) []DataHandler {
	return []DataHandler{
		{Method: http.MethodGet, Path: "/india/judgments/{judgment_id}", Prepare: getJudgment(u, now)},
		{Method: http.MethodGet, Path: "/india/judgments/{judgment_id}/pdf", Prepare: getJudgmentPDF(u)},
		{Method: http.MethodPost, Path: "/india/search", Prepare: searchJudgments(u, now)},
	}
}

func getJudgment(u *indiajudgments.Service, now usecase.Clock) Prepare {
	return func(_ *http.Request, p httprouter.Params) (Serve, error) {
		id, err := indiajudgments.ParseID(p.ByName("judgment_id"))
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			j, err := u.Judgment(ctx, id)
			if err != nil {
				return Response{}, err
			}
			return JSON(judgmentResponse{
				Judgment: toJudgmentBody(j),
				Meta:     NewMeta("IN", 1, 0, 1, 1, now(), indiajudgments.Version, courtsProvenance(j.RetrievedAt)),
			}), nil
		}, nil
	}
}

func toJudgmentBody(j judgment.Judgment) judgmentBody {
	b := judgmentBody{
		JudgmentID: j.ID, Court: j.Court, CaseNumber: j.CaseNumber, Title: j.Title, Parties: make([]judgmentParty, len(j.Parties)),
		Judges: nonNilStrings(j.Judges), DecisionDate: j.DecisionDate, Citations: nonNilStrings(j.Citations), Language: j.Language,
		PDFRoute: "/india/judgments/" + j.ID + "/pdf",
	}
	for i, p := range j.Parties {
		b.Parties[i] = judgmentParty{Token: p.Token, Role: string(p.Role)}
	}
	if j.Bench != "" {
		b.Bench = &j.Bench
	}
	if j.PageCount > 0 {
		b.PageCount = &j.PageCount
	}
	return b
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// getJudgmentPDF streams the judgment's PDF. The judgment is read before
// the body starts, so an unknown id is a refunded 404; the PDF is
// rendered from the tokenized text, never from an original.
func getJudgmentPDF(u *indiajudgments.Service) Prepare {
	return func(_ *http.Request, p httprouter.Params) (Serve, error) {
		id, err := indiajudgments.ParseID(p.ByName("judgment_id"))
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			_, render, err := u.PDF(ctx, id)
			if err != nil {
				return Response{}, err
			}
			h := http.Header{}
			h.Set("Content-Disposition", `inline; filename="`+id+`.pdf"`)
			return Response{MediaType: u.MediaType(), Header: h, Body: render}, nil
		}, nil
	}
}

func searchJudgments(u *indiajudgments.Service, now usecase.Clock) Prepare {
	return func(r *http.Request, _ httprouter.Params) (Serve, error) {
		var body indiaSearchBody
		if err := decodeJSON(r, &body); err != nil {
			return nil, err
		}
		q, err := indiajudgments.ParseSearch(indiajudgments.SearchRequest(body))
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			hits, total, err := u.Search(ctx, q)
			if err != nil {
				return Response{}, err
			}
			results := make([]indiaSearchResult, len(hits))
			for i, h := range hits {
				results[i] = toIndiaSearchResult(h)
			}
			return JSON(indiaSearchResponse{
				Results: results,
				Meta:    NewMeta("IN", q.Limit, q.Offset, len(results), total, now(), indiajudgments.Version, courtsProvenance(u.RetrievedAt())),
			}), nil
		}, nil
	}
}

func toIndiaSearchResult(h ports.JudgmentHit) indiaSearchResult {
	j := h.Judgment
	return indiaSearchResult{
		JudgmentID: j.ID, Court: j.Court, CaseNumber: j.CaseNumber, Title: j.Title, DecisionDate: j.DecisionDate,
		Snippet: snippet(j.Text, h.Start, h.End), Score: h.Score,
		SourceOffsets: judgmentSourceOffsets{JudgmentID: j.ID, Start: h.Start, End: h.End},
	}
}

// courtsProvenance is the provenance of judgments retrieved at t.
func courtsProvenance(t time.Time) Provenance {
	return Provenance{Source: "Indian courts (published judgments)", RetrievedAt: t, Licence: licenceTerms(dataset.IndiaJudgments)}
}
