// Package securitymaster reads the securities master that resolves a
// fund-holder lookup: the SEC's company_tickers.json (ticker to CIK and
// issuer name) joined with a cusip,ticker CSV, into the securities of
// domain/holdings. Every entry is checked and the first bad one refuses the
// files, named by file and line or JSON key.
package securitymaster

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
)

// cusipMapHeader is the layout of the CUSIP map: one security per line,
// its 9-character CUSIP and its exchange ticker as company_tickers.json
// spells it.
var cusipMapHeader = []string{"cusip", "ticker"}

// masterTickerEntry is one entry of the SEC's company_tickers.json.
type masterTickerEntry struct {
	CIK    json.Number `json:"cik_str"`
	Ticker string      `json:"ticker"`
	Title  string      `json:"title"`
}

// Parse joins the SEC's company_tickers.json (ticker to CIK
// and issuer name) with a CUSIP map (cusip,ticker) into the securities
// master: one security per CUSIP of the map. The batch is ordered so that,
// where an issuer has several securities, its CIK resolves to the one
// company_tickers.json lists first (the SEC lists an issuer's primary class
// first).
func Parse(tickersFile string, tickers io.Reader, cusipFile string, cusips io.Reader) ([]holdings.Security, error) {
	entries, err := parseMasterTickers(tickersFile, tickers)
	if err != nil {
		return nil, err
	}
	rank := map[string]int{}
	byTicker := map[string]masterTickerEntry{}
	for i, e := range entries {
		if _, dup := byTicker[e.Ticker]; !dup {
			byTicker[e.Ticker], rank[e.Ticker] = e, i
		}
	}
	secs, err := parseCUSIPMap(cusipFile, cusips, byTicker)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(secs, func(a, b holdings.Security) int { return rank[b.Ticker] - rank[a.Ticker] })
	return secs, nil
}

// parseMasterTickers reads {"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."},...}
// in the order of its numeric keys, checking every entry.
func parseMasterTickers(file string, r io.Reader) ([]masterTickerEntry, error) {
	raw, err := source.ReadAll(file, r, source.MaxDocumentBytes)
	if errors.Is(err, source.ErrBadInput) {
		return nil, err
	}
	if err != nil {
		return nil, source.Whole(file, "%v", err)
	}
	var m map[string]masterTickerEntry
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, source.AtLine(file, masterJSONErrorLine(raw, err), "JSON: %v", err)
	}
	if len(m) == 0 {
		return nil, source.AtLine(file, 1, "no entries")
	}
	out := make([]masterTickerEntry, len(m))
	for k, e := range m {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(m) {
			return nil, source.AtPath(file, fmt.Sprintf("$[%s]", source.Quote(k)), "keys must be 0 to %d", len(m)-1)
		}
		if e, err = checkMasterTickerEntry(e); err != nil {
			return nil, source.AtPath(file, fmt.Sprintf("$[%s]", source.Quote(k)), "%v", err)
		}
		out[i] = e
	}
	return out, nil
}

func checkMasterTickerEntry(e masterTickerEntry) (masterTickerEntry, error) {
	cik, err := edgar.ParseCIK(e.CIK.String())
	if err != nil {
		return e, fmt.Errorf("cik_str: %w", err)
	}
	t, err := edgar.ParseTicker(e.Ticker)
	if err != nil {
		return e, fmt.Errorf("ticker: %w", err)
	}
	if strings.TrimSpace(e.Title) == "" {
		return e, errors.New("title is empty")
	}
	return masterTickerEntry{CIK: json.Number(cik), Ticker: t, Title: strings.TrimSpace(e.Title)}, nil
}

// masterJSONErrorLine turns a decoder error's byte offset into a line number.
func masterJSONErrorLine(raw []byte, err error) int {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(len(raw))
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	return bytes.Count(raw[:min(off, int64(len(raw)))], []byte("\n")) + 1
}

// parseCUSIPMap reads the cusip,ticker CSV, resolving every ticker.
func parseCUSIPMap(file string, r io.Reader, byTicker map[string]masterTickerEntry) ([]holdings.Security, error) {
	var out []holdings.Security
	seen := map[string]bool{}
	err := eachCSVRow(file, r, cusipMapHeader, func(rec []string) error {
		sec, err := cusipMapRow(rec, byTicker)
		if err != nil {
			return err
		}
		if seen[sec.CUSIP] || seen[sec.Ticker] {
			return fmt.Errorf("CUSIP %s or ticker %s is mapped twice", sec.CUSIP, sec.Ticker)
		}
		seen[sec.CUSIP], seen[sec.Ticker] = true, true
		out = append(out, sec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, source.AtLine(file, 2, "no CUSIPs")
	}
	return out, nil
}

func cusipMapRow(rec []string, byTicker map[string]masterTickerEntry) (holdings.Security, error) {
	cusip, err := edgar.ParseCUSIP(rec[0])
	if err != nil {
		return holdings.Security{}, err
	}
	ticker, err := edgar.ParseTicker(rec[1])
	if err != nil {
		return holdings.Security{}, err
	}
	e, ok := byTicker[ticker]
	if !ok {
		return holdings.Security{}, fmt.Errorf("ticker %s is not in company_tickers.json", ticker)
	}
	return holdings.Security{Ticker: ticker, CIK: e.CIK.String(), CUSIP: cusip, Name: e.Title}, nil
}

// eachCSVRow reads a CSV file whose first line must be header and hands
// every record to row. A read error or an error from row stops it, as
// source.ErrBadInput naming the file and the record's line.
func eachCSVRow(file string, r io.Reader, header []string, row func(rec []string) error) error {
	cr := csv.NewReader(source.Lines(file, r, source.MaxLineBytes))
	cr.FieldsPerRecord = len(header)
	got, err := cr.Read()
	if err != nil {
		return source.AtLine(file, 1, "reading header: %v", err)
	}
	if !slices.Equal(got, header) {
		return source.AtLine(file, 1, "header must be %s", strings.Join(header, ","))
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, source.ErrBadInput) {
			return err
		}
		if err != nil {
			var pe *csv.ParseError
			line := 0
			if errors.As(err, &pe) {
				line = pe.Line
			}
			return source.AtLine(file, line, "%v", err)
		}
		if err := row(rec); err != nil {
			line, _ := cr.FieldPos(0)
			return source.AtLine(file, line, "%v", err)
		}
	}
}
