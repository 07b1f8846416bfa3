package companyfacts

import (
	"errors"
	"io"
	"iter"
	"regexp"
	"time"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/source"
)

// Source is one file of an ingestion run, opened only when it is read, so
// that a run over thousands of files holds one of them open at a time.
type Source struct {
	// Name is what errors cite: a path, or archive.zip:entry.
	Name string
	// RetrievedAt is when the file was downloaded.
	RetrievedAt time.Time
	Open        func() (io.ReadCloser, error)
}

var documentName = regexp.MustCompile(`^CIK[0-9]{10}\.json$`)

// IsDocumentName reports whether a file is named as the SEC names a
// companyfacts document, CIK##########.json; companyfacts.zip holds only
// such files.
func IsDocumentName(name string) bool { return documentName.MatchString(source.BaseName(name)) }

// Stream reads the companies of sources one file at a time, in two passes,
// so that memory holds the tickers and one file, never the whole run.
// The first pass reads every source not named CIK##########.json: a
// company_tickers.json adds its tickers, and a companyfacts document under
// another name is kept for the second pass. The second pass reads the
// companyfacts documents in the order given and yields each company with
// its tickers; a company no company_tickers.json names is refused, as is a
// CIK##########.json that is not a companyfacts document. The first error
// ends the sequence. done, when not nil, is told each file read and how
// many records it held: facts kept, or ticker rows.
func Stream(sources []Source, done func(name string, records int)) iter.Seq2[financials.Company, error] {
	if done == nil {
		done = func(string, int) {}
	}
	return func(yield func(financials.Company, error) bool) {
		tickers := map[string][]string{}
		var documents []Source
		for _, s := range sources {
			if IsDocumentName(s.Name) {
				documents = append(documents, s)
				continue
			}
			raw, err := readSource(s)
			if err != nil {
				yield(financials.Company{}, err)
				return
			}
			isFacts, err := looksLikeCompanyFacts(s.Name, raw)
			if err != nil {
				yield(financials.Company{}, err)
				return
			}
			if isFacts {
				documents = append(documents, s)
				continue
			}
			n, err := readTickers(s.Name, raw, tickers)
			if err != nil {
				yield(financials.Company{}, err)
				return
			}
			done(s.Name, n)
		}
		for _, s := range documents {
			c, err := readDocument(s, tickers)
			if err != nil {
				yield(financials.Company{}, err)
				return
			}
			done(s.Name, len(c.Facts))
			if !yield(c, nil) {
				return
			}
		}
	}
}

func readDocument(s Source, tickers map[string][]string) (financials.Company, error) {
	raw, err := readSource(s)
	if err != nil {
		return financials.Company{}, err
	}
	isFacts, err := looksLikeCompanyFacts(s.Name, raw)
	if err != nil {
		return financials.Company{}, err
	}
	if !isFacts {
		return financials.Company{}, source.Whole(s.Name, "not a companyfacts document: no facts")
	}
	c, err := Parse(s.Name, raw, s.RetrievedAt)
	if err != nil {
		return financials.Company{}, err
	}
	if c.Tickers = tickers[c.CIK]; len(c.Tickers) == 0 {
		return financials.Company{}, source.Whole(s.Name, "CIK %s has no ticker in the company_tickers.json files given", c.CIK)
	}
	return c, nil
}

// readSource reads one source whole and closes it; a read that fails (a
// truncated or corrupt archive entry) refuses the file by name, as does a
// document larger than source.MaxDocumentBytes, before more of it is read.
func readSource(s Source) ([]byte, error) {
	rc, err := s.Open()
	if err != nil {
		return nil, err
	}
	raw, err := source.ReadAll(s.Name, rc, source.MaxDocumentBytes)
	if cerr := rc.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if errors.Is(err, source.ErrBadInput) {
		return nil, err
	}
	if err != nil {
		return nil, source.Whole(s.Name, "%v", err)
	}
	return raw, nil
}
