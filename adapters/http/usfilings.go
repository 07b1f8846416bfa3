package http

import (
	"context"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

type filingIndexResponse struct {
	AccessionNumber string     `json:"accession_number"`
	Files           []fileBody `json:"files"`
	Meta            Meta       `json:"meta"`
}

type fileBody struct {
	FileName      string  `json:"file_name"`
	Role          string  `json:"role"`
	StorageStatus string  `json:"storage_status"`
	ContentType   string  `json:"content_type"`
	SECURL        string  `json:"sec_url"`
	SHA256        *string `json:"sha256"`
	ByteSize      *int64  `json:"byte_size"`
}

type searchBody struct {
	Query      string `json:"query"`
	Ticker     string `json:"ticker"`
	CIK        string `json:"cik"`
	FilingType string `json:"filing_type"`
	ItemNumber string `json:"item_number"`
	FiledFrom  string `json:"filed_from"`
	FiledTo    string `json:"filed_to"`
	Limit      *int   `json:"limit"`
	Offset     *int   `json:"offset"`
}

type searchResponse struct {
	Results []searchResult `json:"results"`
	Meta    Meta           `json:"meta"`
}

type searchResult struct {
	AccessionNumber string        `json:"accession_number"`
	Ticker          string        `json:"ticker"`
	CIK             string        `json:"cik"`
	FilingType      string        `json:"filing_type"`
	ItemNumber      string        `json:"item_number"`
	ItemName        string        `json:"item_name"`
	Snippet         string        `json:"snippet"`
	Score           float64       `json:"score"`
	SourceOffsets   sourceOffsets `json:"source_offsets"`
}

type sourceOffsets struct {
	Section string `json:"section"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
}

// snippetContext is how many characters of context a snippet shows on
// each side of the matched passage.
const snippetContext = 80

// USFilingHandlers returns the handlers of the US filing index and search.
func USFilingHandlers(f *usfilings.Service, now usecase.Clock) []DataHandler {
	return []DataHandler{
		{Method: http.MethodGet, Path: "/us/filings/{accession_number}/index", Prepare: filingIndex(f, now)},
		{Method: http.MethodPost, Path: "/us/search", Prepare: searchFilings(f, now)},
	}
}

func filingIndex(f *usfilings.Service, now usecase.Clock) Prepare {
	return func(_ *http.Request, p httprouter.Params) (Serve, error) {
		acc, err := usfilings.ParseAccession(p.ByName("accession_number"))
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			fl, err := f.Filing(ctx, acc)
			if err != nil {
				return Response{}, err
			}
			files := make([]fileBody, len(fl.Files))
			for i, x := range fl.Files {
				files[i] = toFileBody(fl, x)
			}
			n := len(files)
			return JSON(filingIndexResponse{
				AccessionNumber: fl.Accession, Files: files,
				Meta: NewMeta("", n, 0, n, n, now(), usfilings.FilingIndexVersion, secProvenance(fl.RetrievedAt)),
			}), nil
		}, nil
	}
}

func toFileBody(fl filing.Filing, x filing.File) fileBody {
	b := fileBody{
		FileName: x.Name, Role: string(x.Role), StorageStatus: "not_stored", ContentType: x.ContentType,
		SECURL: filing.SECURL(fl.CIK, fl.Accession, x.Name),
	}
	if x.Stored {
		b.StorageStatus, b.SHA256 = "stored", &x.SHA256
	}
	if x.Size >= 0 {
		b.ByteSize = &x.Size
	}
	return b
}

func searchFilings(f *usfilings.Service, now usecase.Clock) Prepare {
	return func(r *http.Request, _ httprouter.Params) (Serve, error) {
		var body searchBody
		if err := decodeJSON(r, &body); err != nil {
			return nil, err
		}
		q, err := usfilings.ParseSearch(usfilings.SearchRequest(body))
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			hits, total, err := f.Search(ctx, q)
			if err != nil {
				return Response{}, err
			}
			results := make([]searchResult, len(hits))
			for i, h := range hits {
				results[i] = toSearchResult(h)
			}
			return JSON(searchResponse{
				Results: results,
				Meta:    NewMeta("US", q.Limit, q.Offset, len(results), total, now(), usfilings.SectionsVersion, secProvenance(f.RetrievedAt())),
			}), nil
		}, nil
	}
}

func toSearchResult(h ports.SectionHit) searchResult {
	s := h.Section
	return searchResult{
		AccessionNumber: s.Accession, Ticker: s.Ticker, CIK: s.CIK, FilingType: s.Form,
		ItemNumber: s.ItemNumber, ItemName: s.ItemName, Snippet: snippet(s.Text, h.Start, h.End),
		Score: h.Score, SourceOffsets: sourceOffsets{Section: s.ID, Start: h.Start, End: h.End},
	}
}

// snippet shows the passage [start, end) (in code points) with some context,
// cut at spaces so that no word is split. Only the code points around the
// passage are decoded: a section runs to hundreds of kilobytes, and ten
// hits a page decoded whole were a sixth of a search's CPU.
func snippet(text string, start, end int) string {
	from, to := max(start-snippetContext, 0), end+snippetContext
	lo := max(from-1, 0)
	window := make([]rune, 0, min(to-lo+1, len(text)))
	n := 0 // code points read: all of the text's when it ends before to
	for _, r := range text {
		if n > to {
			break
		}
		if n >= lo {
			window = append(window, r)
		}
		n++
	}
	to = min(to, n)
	from = min(from, to)
	at := func(i int) rune { return window[i-lo] }
	for from > 0 && from < start && at(from-1) != ' ' {
		from++
	}
	for to < n && to > end && at(to) != ' ' {
		to--
	}
	return string(window[from-lo : to-lo])
}

// secProvenance is the provenance of EDGAR data retrieved at t.
func secProvenance(t time.Time) Provenance {
	return Provenance{Source: "SEC EDGAR", RetrievedAt: t, Licence: licenceTerms(dataset.USFilingIndexes)}
}
