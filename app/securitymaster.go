package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
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

// ParseSecuritiesMaster joins the SEC's company_tickers.json (ticker to CIK
// and issuer name) with a CUSIP map (cusip,ticker) into the securities
// master: one security per CUSIP of the map. The batch is ordered so that,
// where an issuer has several securities, its CIK resolves to the one
// company_tickers.json lists first (the SEC lists an issuer's primary class
// first).
func ParseSecuritiesMaster(tickersFile string, tickers io.Reader, cusipFile string, cusips io.Reader) ([]holdings.Security, error) {
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
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadInput, file, err)
	}
	var m map[string]masterTickerEntry
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, badInput(file, masterJSONErrorLine(raw, err), "JSON: %v", err)
	}
	if len(m) == 0 {
		return nil, badInput(file, 1, "no entries")
	}
	out := make([]masterTickerEntry, len(m))
	for k, e := range m {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(m) {
			return nil, fmt.Errorf("%w: %s: $[%q]: keys must be 0 to %d", ErrBadInput, file, k, len(m)-1)
		}
		if e, err = checkMasterTickerEntry(e); err != nil {
			return nil, fmt.Errorf("%w: %s: $[%q]: %v", ErrBadInput, file, k, err)
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
		return nil, badInput(file, 2, "no CUSIPs")
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
