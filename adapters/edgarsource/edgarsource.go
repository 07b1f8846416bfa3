// Package edgarsource keeps US financial statements and filings current
// from SEC EDGAR: each day's form index, and for every 10-K, 10-Q and
// 10-K/A filed that day the filer's companyfacts, loaded as `quarry ingest
// us_financials` loads them, and the filing's folder (index.json, the
// filer's submissions JSON and the primary document), loaded as `quarry
// ingest us_filing_indexes` loads one; for every 13F-HR and 13F-HR/A the full
// submission text file, loaded as `quarry ingest us_security_fund_holders`
// loads one. It keeps the SEC's fair-access rules: a
// declared User-Agent with a contact address, and at most ten requests a
// second across both of the SEC's hosts.
package edgarsource

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/internal/fetch"
	"github.com/quarrydata/quarry/domain/calendar"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// Name is the source's name on the command line.
const Name = "edgar"

// PerSecond is the most requests a second the SEC allows a client.
const PerSecond = 10

// dueAfter is when a day's form index is due, after midnight UTC of the
// day: 06:00 UTC the next morning, hours after EDGAR's evening close.
const dueAfter = 30 * time.Hour

// statementForms are the forms whose filers' companyfacts are fetched.
var statementForms = []string{"10-K", "10-Q", "10-K/A"}

// holdingsForms are the forms whose full submission text is fetched for
// the 13F holdings.
var holdingsForms = []string{"13F-HR", "13F-HR/A"}

// ErrNoUserAgent: the SEC asks every client to declare who it is.
var ErrNoUserAgent = errors.New("the SEC asks for a User-Agent naming who fetches, with a contact e-mail address")

// Config configures the source.
type Config struct {
	// UserAgent is sent with every request: a name and contact address.
	UserAgent string
	// BaseURL stands for the SEC's host of the Archives (daily indexes).
	BaseURL string
	// DataBaseURL stands for the SEC's host of the XBRL API and the
	// submissions JSON (data.sec.gov).
	DataBaseURL string
	// Backoff is the first wait before a retry; zero is one second.
	Backoff time.Duration
	// MaxFileBytes bounds a file streamed to disk (a full submission
	// text, a primary document, the bulk archive), once decoded
	// (QUARRY_INGEST_MAX_FILE_BYTES); zero is fetch's bound of 1 GiB.
	MaxFileBytes int64
	Meter        ports.SourceMeter
	Log          *zap.Logger
}

// Source is EDGAR's daily form index and the filers' companyfacts.
type Source struct {
	www, data *fetch.Client
	log       *zap.Logger
}

var _ ports.Source = (*Source)(nil)

// New returns the source of cfg, or ErrNoUserAgent when cfg declares no
// User-Agent with a contact address.
func New(cfg Config) (*Source, error) {
	if !strings.Contains(cfg.UserAgent, "@") {
		return nil, ErrNoUserAgent
	}
	www, err := fetch.New(fetch.Options{Source: Name, BaseURL: cfg.BaseURL, UserAgent: cfg.UserAgent,
		PerSecond: PerSecond, Backoff: cfg.Backoff, MaxBytes: cfg.MaxFileBytes, Meter: cfg.Meter, Log: cfg.Log})
	if err != nil {
		return nil, err
	}
	data, err := www.At(cfg.DataBaseURL)
	if err != nil {
		return nil, err
	}
	log := cfg.Log
	if log == nil {
		log = zap.NewNop()
	}
	return &Source{www: www, data: data, log: log}, nil
}

// Name returns "edgar".
func (s *Source) Name() string { return Name }

// Publishes reports whether day is a weekday: EDGAR accepts no filing on
// a weekend.
func (s *Source) Publishes(day time.Time) bool { return feed.Weekday(day) }

// Holiday reports whether day is a US federal holiday, on which EDGAR
// does not disseminate.
func (s *Source) Holiday(day time.Time) bool {
	_, ok := calendar.USFederal(day)
	return ok
}

// Due returns 06:00 UTC of the day after day.
func (s *Source) Due(day time.Time) time.Time { return day.Add(dueAfter) }

// IndexPath is where EDGAR serves the form index of day.
func IndexPath(day time.Time) string {
	return fmt.Sprintf("Archives/edgar/daily-index/%d/QTR%d/form.%s.idx", day.Year(), (int(day.Month())+2)/3, day.Format("20060102"))
}

// FactsPath is where the SEC serves a filer's companyfacts.
func FactsPath(cik int64) string { return fmt.Sprintf("api/xbrl/companyfacts/CIK%010d.json", cik) }

// TickersPath is where the SEC serves company_tickers.json, the tickers
// us_financials keys its companies by.
const TickersPath = "files/company_tickers.json"

// Fetch returns the companyfacts of every filer of a 10-K, 10-Q or 10-K/A
// in day's form index, with the company_tickers.json that names them, the
// folder of each such filing, and the full submission text file of every
// 13F-HR and 13F-HR/A, or
// ports.ErrNoPublication when EDGAR has no index for the day (a holiday,
// if Holiday says so).
// A filer company_tickers.json gives no ticker (us_financials finds
// companies by ticker) or the SEC holds no companyfacts for is skipped and
// logged.
func (s *Source) Fetch(ctx context.Context, day time.Time) ([]ports.SourceFile, error) {
	var filings []Filing
	idx, err := s.www.Get(ctx, IndexPath(day), func(body []byte) (err error) {
		filings, err = ParseFormIndex(body)
		if err == nil {
			err = checkFetched(filings)
		}
		if err == nil {
			err = OfDay(body, filings, day)
		}
		return err
	})
	switch {
	case errors.Is(err, ports.ErrNotFound):
		return nil, fmt.Errorf("edgar %s: %w", day.Format(feed.DayLayout), ports.ErrNoPublication)
	case err != nil:
		return nil, err
	}
	os.Remove(idx.File) // read; nothing loads it
	p := newProgress(s.log, day, filings)
	holdings, err := s.holdings(ctx, filings, p)
	if err != nil {
		return nil, err
	}
	facts, err := s.statements(ctx, Filers(filings), p)
	if err != nil {
		return nil, err
	}
	folders, err := s.folders(ctx, filings, p)
	if err != nil {
		return nil, err
	}
	p.fetched()
	return slices.Concat(facts, folders, holdings), nil
}

// statements fetches the companyfacts of filers, with company_tickers.json.
func (s *Source) statements(ctx context.Context, filers []int64, p *progress) ([]ports.SourceFile, error) {
	if len(filers) == 0 {
		return nil, nil
	}
	tickers, listed, err := s.tickers(ctx)
	if err != nil {
		return nil, err
	}
	out := []ports.SourceFile{tickers}
	for _, cik := range filers {
		if !listed[cik] {
			p.skip("a filer with no ticker", zap.Int64("cik", cik))
			continue
		}
		f, err := s.facts(ctx, cik)
		p.done()
		if errors.Is(err, ports.ErrNotFound) {
			p.skip("no companyfacts for a filer", zap.Int64("cik", cik))
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if len(out) == 1 {
		return nil, nil
	}
	return out, nil
}

// holdings fetches the full submission text file of every 13F-HR and
// 13F-HR/A in filings, read as `quarry ingest us_security_fund_holders`
// reads one.
func (s *Source) holdings(ctx context.Context, filings []Filing, p *progress) ([]ports.SourceFile, error) {
	var out []ports.SourceFile
	for _, f := range filings {
		if !slices.Contains(holdingsForms, f.Form) {
			continue
		}
		res, err := s.www.GetFile(ctx, "Archives/"+f.File, wholeSubmission)
		if err != nil {
			return nil, err
		}
		p.done()
		out = append(out, spooled(string(dataset.USFundHolders), f.File[strings.LastIndex(f.File, "/")+1:], res))
	}
	return out, nil
}

// spooled is a file fetched into the run's spool, to be loaded into ds
// under name.
func spooled(ds, name string, res fetch.Response) ports.SourceFile {
	return ports.SourceFile{Dataset: ds, Name: name, URL: res.URL, Path: res.File, Spooled: true, RetrievedAt: res.RetrievedAt}
}

// wholeSubmission refuses a submission text file that does not open and
// close as one SEC-DOCUMENT.
func wholeSubmission(file string) error {
	if !opensAndCloses(file, "<SEC-DOCUMENT>", "</SEC-DOCUMENT>") {
		return errors.New("not a whole submission text file: it does not open and close as one <SEC-DOCUMENT>")
	}
	return nil
}

// tickers fetches company_tickers.json and returns it with the CIKs it
// gives a ticker.
func (s *Source) tickers(ctx context.Context) (ports.SourceFile, map[int64]bool, error) {
	listed := map[int64]bool{}
	res, err := s.www.Get(ctx, TickersPath, func(body []byte) error {
		var rows map[string]struct {
			CIK    int64  `json:"cik_str"`
			Ticker string `json:"ticker"`
		}
		if err := json.Unmarshal(body, &rows); err != nil || len(rows) == 0 {
			return fmt.Errorf("not a whole company_tickers.json: %v", err)
		}
		for _, r := range rows {
			if r.CIK > 0 && r.Ticker != "" {
				listed[r.CIK] = true
			}
		}
		return nil
	})
	if err != nil {
		return ports.SourceFile{}, nil, err
	}
	return spooled(string(dataset.USFinancials), "company_tickers.json", res), listed, nil
}

// facts fetches one filer's companyfacts, checked whole.
func (s *Source) facts(ctx context.Context, cik int64) (ports.SourceFile, error) {
	p := FactsPath(cik)
	res, err := s.data.Get(ctx, p, checkFacts(cik))
	if err != nil {
		return ports.SourceFile{}, err
	}
	return spooled(string(dataset.USFinancials), p[strings.LastIndex(p, "/")+1:], res), nil
}

// Filers returns, in order and once each, the CIKs of the filings of a
// statement form (10-K, 10-Q, 10-K/A).
func Filers(filings []Filing) []int64 {
	var out []int64
	for _, f := range filings {
		if slices.Contains(statementForms, f.Form) && !slices.Contains(out, f.CIK) {
			out = append(out, f.CIK)
		}
	}
	slices.Sort(out)
	return out
}

// checkFacts refuses a body that is not the whole companyfacts document
// of cik.
func checkFacts(cik int64) fetch.Check {
	return func(body []byte) error {
		var doc struct {
			CIK   json.Number `json:"cik"`
			Facts present     `json:"facts"`
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return fmt.Errorf("not a whole companyfacts document: %v", err)
		}
		if doc.CIK.String() != fmt.Sprint(cik) || !doc.Facts {
			return fmt.Errorf("not the companyfacts of CIK %d", cik)
		}
		return nil
	}
}

// present is a JSON member checked only for being there, not kept: the
// decoder scans it whole all the same.
type present bool

// UnmarshalJSON marks the member present unless it is null.
func (p *present) UnmarshalJSON(b []byte) error {
	*p = string(b) != "null"
	return nil
}
