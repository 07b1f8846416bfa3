package ask

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/quarrydata/quarry/app/usfilings"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/question"
	"github.com/quarrydata/quarry/ports"
)

// filingIndexAnswer answers how many files the filing an accession
// number names has, or what its primary document is, from its file index,
// when it was filed by asOf.
func (a *Service) filingIndexAnswer(ctx context.Context, fi question.FilingIndex, asOf time.Time) ([]sentence, error) {
	acc, err := usfilings.ParseAccession(fi.Accession)
	if err != nil {
		return nil, nil
	}
	f, err := a.filings.Filing(ctx, acc)
	if errors.Is(err, ports.ErrNotFound) || err == nil && f.Filed.After(asOf) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	filed := f.Filed.Format(time.DateOnly)
	fields := map[string]string{
		"accession_number": f.Accession, "cik": f.CIK, "ticker": f.Ticker, "form": f.Form, "filed": filed,
		"primary_document": f.PrimaryDocument, "file_count": strconv.Itoa(len(f.Files)),
	}
	text := fmt.Sprintf("The primary document of %s %s %s, filed on %s, is %s.", f.Ticker, f.Form, f.Accession, filed, f.PrimaryDocument)
	if fi.Files {
		text = fmt.Sprintf("The file index of %s %s %s, filed on %s, lists %d files.", f.Ticker, f.Form, f.Accession, filed, len(f.Files))
	} else if f.PrimaryDocument == "" {
		return nil, nil
	}
	return []sentence{{text: text, cite: Citation{
		Dataset: dataset.USFilingIndexes, DocumentID: f.Accession, Title: fmt.Sprintf("%s %s %s file index", f.Ticker, f.Form, f.Accession),
		Snippet: recordSnippet(fields), Fields: fields, Route: "GET /us/filings/" + f.Accession + "/index",
	}}}, nil
}
