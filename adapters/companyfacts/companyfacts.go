// Package companyfacts reads the SEC's XBRL companyfacts documents
// (data.sec.gov/api/xbrl/companyfacts/CIK##########.json) and the
// company_tickers.json that names their tickers into the companies of
// domain/financials. Which facts are kept, and how they make statements,
// are the domain's rules; this package only reads and checks the files.
package companyfacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/source"
)

// File is one downloaded SEC file to read: a companyfacts document or a
// company_tickers.json. RetrievedAt is when it was downloaded.
type File struct {
	Name        string
	Body        io.Reader
	RetrievedAt time.Time
}

// companyFactsDoc is the layout of data.sec.gov/api/xbrl/companyfacts.
type companyFactsDoc struct {
	CIK        json.RawMessage                      `json:"cik"`
	EntityName string                               `json:"entityName"`
	Facts      map[string]map[string]companyConcept `json:"facts"`
}

type companyConcept struct {
	// Each fact is decoded on its own, so that an error names its path.
	Units map[string][]json.RawMessage `json:"units"`
}

type companyFact struct {
	Start string          `json:"start"`
	End   string          `json:"end"`
	Val   json.RawMessage `json:"val"`
	Accn  string          `json:"accn"`
	FY    *int            `json:"fy"`
	FP    *string         `json:"fp"`
	Form  string          `json:"form"`
	Filed string          `json:"filed"`
	Frame string          `json:"frame"`
}

// tickerEntry is one row of www.sec.gov/files/company_tickers.json.
type tickerEntry struct {
	CIK    json.RawMessage `json:"cik_str"`
	Ticker string          `json:"ticker"`
	Title  string          `json:"title"`
}

// Read parses every file before returning anything, so one bad
// file refuses the whole batch. Companyfacts documents become companies; a
// company_tickers.json among the files names their tickers, and a company
// without one is refused. Errors name the file, the byte offset or JSON path,
// and the reason.
func Read(files []File) ([]financials.Company, error) {
	var companies []financials.Company
	var origin []string
	tickers := map[string][]string{}
	for _, f := range files {
		raw, err := source.ReadAll(f.Name, f.Body, source.MaxDocumentBytes)
		if errors.Is(err, source.ErrBadInput) {
			return nil, err
		}
		if err != nil {
			return nil, source.Whole(f.Name, "%v", err)
		}
		isFacts, err := looksLikeCompanyFacts(f.Name, raw)
		if err != nil {
			return nil, err
		}
		if !isFacts {
			if _, err := readTickers(f.Name, raw, tickers); err != nil {
				return nil, err
			}
			continue
		}
		c, err := Parse(f.Name, raw, f.RetrievedAt)
		if err != nil {
			return nil, err
		}
		companies, origin = append(companies, c), append(origin, f.Name)
	}
	for i := range companies {
		companies[i].Tickers = tickers[companies[i].CIK]
		if len(companies[i].Tickers) == 0 {
			return nil, source.Whole(origin[i], "CIK %s has no ticker in the company_tickers.json files given", companies[i].CIK)
		}
	}
	return companies, nil
}

// looksLikeCompanyFacts tells the two layouts apart by their top-level keys
// and reports a syntax error with its byte offset.
func looksLikeCompanyFacts(name string, raw []byte) (bool, error) {
	var top map[string]json.RawMessage
	if err := decodeStrict(raw, &top); err != nil {
		return false, jsonError(name, raw, err)
	}
	_, ok := top["facts"]
	return ok, nil
}

// decodeStrict decodes one JSON value and refuses anything after it.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	if dec.More() {
		return &trailingError{offset: dec.InputOffset()}
	}
	return nil
}

type trailingError struct{ offset int64 }

func (e *trailingError) Error() string { return "data after the JSON document" }

// jsonError names where decoding failed: the byte offset, and the JSON path
// when the decoder knows it.
func jsonError(name string, raw []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var trail *trailingError
	switch {
	case errors.As(err, &syn):
		return source.AtPath(name, fmt.Sprintf("byte %d", syn.Offset), "%v", syn)
	case errors.As(err, &typ):
		return source.AtPath(name, fmt.Sprintf("byte %d", typ.Offset), "%s: %s where %s is expected", typ.Field, typ.Value, typ.Type)
	case errors.As(err, &trail):
		return source.AtPath(name, fmt.Sprintf("byte %d", trail.offset), "%v", trail)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return source.AtPath(name, fmt.Sprintf("byte %d", len(raw)), "truncated JSON")
	}
	return source.Whole(name, "%v", err)
}

// Parse reads one companyfacts document. It keeps the us-gaap
// facts of mapped concepts whose unit is a currency or currency per share,
// and checks each of them; the rest of the document need only be well formed.
func Parse(name string, raw []byte, retrievedAt time.Time) (financials.Company, error) {
	var doc companyFactsDoc
	if err := decodeStrict(raw, &doc); err != nil {
		return financials.Company{}, jsonError(name, raw, err)
	}
	cik, err := parseCIK(doc.CIK)
	if err != nil {
		return financials.Company{}, source.AtPath(name, "cik", "%v", err)
	}
	if doc.EntityName == "" {
		return financials.Company{}, source.AtPath(name, "entityName", "empty")
	}
	c := financials.Company{CIK: cik, Name: doc.EntityName, RetrievedAt: retrievedAt.UTC().Truncate(time.Millisecond)}
	concepts := doc.Facts["us-gaap"]
	for _, concept := range slices.Sorted(maps.Keys(concepts)) {
		if !financials.Mapped(concept) {
			continue
		}
		units := concepts[concept].Units
		for _, unit := range slices.Sorted(maps.Keys(units)) {
			if _, ok := financials.Currency(unit); !ok {
				continue
			}
			for i, raw := range units[unit] {
				path := fmt.Sprintf("facts.us-gaap.%s.units.%s[%d]", concept, unit, i)
				f, err := toFact(concept, unit, raw)
				var field *fieldError
				if errors.As(err, &field) {
					return financials.Company{}, source.AtPath(name, path+"."+field.name, "%v", field.err)
				}
				if err != nil {
					return financials.Company{}, source.AtPath(name, path, "%v", err)
				}
				c.Facts = append(c.Facts, f)
			}
		}
	}
	return c, nil
}

// fieldError is a problem with one field of a fact, named by its key.
type fieldError struct {
	name string
	err  error
}

func (e *fieldError) Error() string { return e.name + ": " + e.err.Error() }

func toFact(concept, unit string, raw json.RawMessage) (financials.Fact, error) {
	var r companyFact
	if err := json.Unmarshal(raw, &r); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return financials.Fact{}, &fieldError{typ.Field, fmt.Errorf("%s where %s is expected", typ.Value, typ.Type)}
		}
		return financials.Fact{}, err
	}
	accn, err := edgar.ParseAccession(r.Accn)
	if err != nil {
		return financials.Fact{}, &fieldError{"accn", err}
	}
	num, err := jsonNumber(r.Val)
	if err != nil {
		return financials.Fact{}, &fieldError{"val", err}
	}
	val, err := strconv.ParseFloat(num.String(), 64)
	if err != nil {
		return financials.Fact{}, &fieldError{"val", fmt.Errorf("%s is out of range", num)}
	}
	f := financials.Fact{
		Concept: concept, Unit: unit, Start: r.Start, End: r.End, Value: val,
		Accession: accn, Form: r.Form, Filed: r.Filed,
	}
	if r.FY != nil {
		f.FiscalYear = *r.FY
	}
	if r.FP != nil {
		f.FiscalPeriod = *r.FP
	}
	return f, f.Validate()
}

// readTickers adds the rows of a company_tickers.json to tickers, in the
// file's order (the SEC lists a filer's primary ticker first), and says how
// many rows the file has.
func readTickers(name string, raw []byte, tickers map[string][]string) (int, error) {
	var rows map[string]tickerEntry
	if err := decodeStrict(raw, &rows); err != nil {
		return 0, jsonError(name, raw, err)
	}
	keys := make([]int, 0, len(rows))
	for k := range rows {
		n, err := strconv.Atoi(k)
		if err != nil || n < 0 || strconv.Itoa(n) != k {
			return 0, source.AtPath(name, source.Quote(k), "key is not a row number")
		}
		keys = append(keys, n)
	}
	slices.Sort(keys)
	for _, k := range keys {
		row := rows[strconv.Itoa(k)]
		cik, err := parseCIK(row.CIK)
		if err != nil {
			return 0, source.AtPath(name, fmt.Sprintf("%d.cik_str", k), "%v", err)
		}
		ticker, err := edgar.ParseTicker(row.Ticker)
		if err != nil {
			return 0, source.AtPath(name, fmt.Sprintf("%d.ticker", k), "%v", err)
		}
		if !slices.Contains(tickers[cik], ticker) {
			tickers[cik] = append(tickers[cik], ticker)
		}
	}
	return len(rows), nil
}

// parseCIK reads a CIK written as a JSON number, as the SEC writes it.
func parseCIK(raw json.RawMessage) (string, error) {
	n, err := jsonNumber(raw)
	if err != nil {
		return "", err
	}
	return edgar.ParseCIK(n.String())
}

// jsonNumber reads a value that must be a JSON number. A string is refused
// even when it holds digits ("93736000000"): the SEC writes every amount
// and CIK as a number, so a quoted one comes from a file that something
// else wrote, and taking it would hide that.
func jsonNumber(raw json.RawMessage) (json.Number, error) {
	if len(raw) == 0 {
		return "", errors.New("missing; a number belongs here")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	switch v := v.(type) {
	case json.Number:
		return v, nil
	case string:
		return "", fmt.Errorf("%s is a string; a number belongs here", source.Quote(v))
	case nil:
		return "", errors.New("null; a number belongs here")
	}
	return "", fmt.Errorf("%.40s is not a number", raw)
}
