package usfinancials

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// FinancialsSource is the provenance source named in responses.
const Source = "SEC EDGAR companyfacts"

// Financials serves point-in-time US financial statements.
type Service struct {
	store ports.FinancialsStore
	now   usecase.Clock
	memo  statementMemo
}

// NewFinancials wires the financial-statement use cases, keeping the
// statements it computes in shared; a nil shared computes them for every
// request.
func New(s ports.FinancialsStore, now usecase.Clock, shared *readcache.Cache) *Service {
	return &Service{store: s, now: now, memo: newStatementMemo(shared)}
}

// StatementsParams are the raw query parameters of the statement routes.
type Params struct {
	Ticker, CIK, Period, AsOf                string
	ReportGte, ReportGt, ReportLte, ReportLt string
	Limit, Offset                            int
}

// StatementsQuery is a validated request for statements.
type Query struct {
	// Ticker or CIK, exactly one set, in canonical form.
	Ticker, CIK string
	Period      financials.Period
	AsOf        time.Time
	// Report-period bounds as ISO dates; empty means unbounded.
	Gte, Gt, Lte, Lt string
	Limit, Offset    int
}

// Query validates the parameters against the current time; see
// ParseStatementsQuery.
func (f *Service) Query(p Params) (Query, error) {
	return ParseQuery(p, f.now())
}

// ParseStatementsQuery validates the parameters: a malformed value is
// ErrValidation, and giving both or neither of ticker and cik is
// ErrInvalidRequest.
func ParseQuery(p Params, now time.Time) (Query, error) {
	q := Query{Limit: p.Limit, Offset: p.Offset}
	var err error
	if q.Period, err = financials.ParsePeriod(p.Period); err != nil {
		return q, fmt.Errorf("%w: %w", usecase.ErrValidation, err)
	}
	if q.AsOf, err = usecase.ParseAsOf(p.AsOf, now); err != nil {
		return q, err
	}
	bounds := []struct {
		name, raw string
		dst       *string
	}{
		{"report_period_gte", p.ReportGte, &q.Gte}, {"report_period_gt", p.ReportGt, &q.Gt},
		{"report_period_lte", p.ReportLte, &q.Lte}, {"report_period_lt", p.ReportLt, &q.Lt},
	}
	for _, b := range bounds {
		if _, ok, err := usecase.ParseDate(b.name, b.raw); err != nil {
			return q, err
		} else if ok {
			*b.dst = b.raw
		}
	}
	return q, q.identify(p.Ticker, p.CIK)
}

// identify checks that exactly one of ticker and cik is given and well formed.
func (q *Query) identify(ticker, cik string) error {
	var err error
	switch {
	case ticker == "" && cik == "":
		return fmt.Errorf("%w: give ticker or cik", usecase.ErrInvalidRequest)
	case ticker != "" && cik != "":
		return fmt.Errorf("%w: give ticker or cik, not both", usecase.ErrInvalidRequest)
	case ticker != "":
		if q.Ticker, err = edgar.ParseTicker(ticker); err != nil {
			return fmt.Errorf("%w: %w", usecase.ErrValidation, err)
		}
	default:
		if q.CIK, err = edgar.ParseCIK(cik); err != nil {
			return fmt.Errorf("%w: %w", usecase.ErrValidation, err)
		}
	}
	return nil
}

// within reports whether a report period passes the query's bounds.
func (q Query) within(end string) bool {
	return (q.Gte == "" || end >= q.Gte) && (q.Gt == "" || end > q.Gt) &&
		(q.Lte == "" || end <= q.Lte) && (q.Lt == "" || end < q.Lt)
}

// StatementPage is one page of one statement collection and how many
// statements match in all.
type Page struct {
	Rows  []financials.Row
	Total int
}

// Statements is the answer to a statements query.
type Statements struct {
	CIK, Ticker string
	AsOf        time.Time
	RetrievedAt time.Time
	Pages       map[financials.Statement]Page
}

// Statements builds the requested statement collections of one company as
// known at the query's as_of, newest report period first, and pages each.
// An as_of on or after the company's latest filing date reads the
// statements stored as known from then (ports.FinancialsStore's
// LatestStatement); an earlier one applies the versions of the statements'
// histories filed by then (StatementHistory). Both are the rows the facts
// give at that as_of. Statements read across a write of the company (their
// filing dates or retrieval times differ) are built from the facts, so that
// one answer never mixes two versions of the facts. An unknown ticker or
// CIK is ports.ErrNotFound.
func (f *Service) Statements(ctx context.Context, q Query, kinds ...financials.Statement) (Statements, error) {
	cik, err := f.cik(ctx, q)
	if err != nil {
		return Statements{}, err
	}
	out := Statements{CIK: cik, AsOf: q.AsOf, Pages: map[financials.Statement]Page{}}
	through := ""
	for i, k := range kinds {
		c, l, err := f.store.LatestStatement(ctx, cik, k, q.Period)
		if err != nil {
			return Statements{}, notFound(cik, err)
		}
		if err := out.from(c, l.Through, i, &through); err != nil {
			return Statements{}, err
		}
		if !l.Covers(q.AsOf) {
			return f.past(ctx, q, cik, kinds)
		}
		if l.Through != through || !c.RetrievedAt.Equal(out.RetrievedAt) {
			return f.fromFacts(ctx, q, cik, kinds)
		}
		out.Pages[k] = q.page(l.Rows)
	}
	return out, nil
}

// past builds the statements as known at an as_of before the company's
// latest filing date from their histories.
func (f *Service) past(ctx context.Context, q Query, cik string, kinds []financials.Statement) (Statements, error) {
	out := Statements{CIK: cik, AsOf: q.AsOf, Pages: map[financials.Statement]Page{}}
	through := ""
	for i, k := range kinds {
		c, h, err := f.store.StatementHistory(ctx, cik, k, q.Period)
		if err != nil {
			return Statements{}, notFound(cik, err)
		}
		if err := out.from(c, h.Through, i, &through); err != nil {
			return Statements{}, err
		}
		if h.Through != through || !c.RetrievedAt.Equal(out.RetrievedAt) {
			return f.fromFacts(ctx, q, cik, kinds)
		}
		out.Pages[k] = q.page(h.At(q.AsOf))
	}
	return out, nil
}

// from takes the answer's ticker, retrieval time and latest filing date
// from the company its i-th statement was read with, the first.
func (s *Statements) from(c financials.Company, filed string, i int, through *string) error {
	if len(c.Tickers) == 0 {
		return fmt.Errorf("company %s is stored without a ticker", c.CIK)
	}
	if i == 0 {
		s.Ticker, s.RetrievedAt, *through = c.Tickers[0], c.RetrievedAt, filed
	}
	return nil
}

// fromFacts builds the statements from the company's facts as known at the
// query's as_of.
func (f *Service) fromFacts(ctx context.Context, q Query, cik string, kinds []financials.Statement) (Statements, error) {
	c, err := f.company(ctx, cik)
	if err != nil {
		return Statements{}, err
	}
	out := Statements{CIK: c.CIK, Ticker: c.Tickers[0], AsOf: q.AsOf, RetrievedAt: c.RetrievedAt, Pages: map[financials.Statement]Page{}}
	known := f.memo.know(c, q.AsOf)
	for _, k := range kinds {
		out.Pages[k] = q.page(known.statement(k, q.Period))
	}
	return out, nil
}

// page keeps the rows within the query's report-period bounds and returns
// the page of them the query asks for.
func (q Query) page(all []financials.Row) Page {
	var rows []financials.Row
	for _, r := range all {
		if q.within(r.End) {
			rows = append(rows, r)
		}
	}
	from, to := min(q.Offset, len(rows)), min(q.Offset+q.Limit, len(rows))
	return Page{Rows: rows[from:to], Total: len(rows)}
}

// cik returns the CIK the query names, by its ticker when it gives one.
func (f *Service) cik(ctx context.Context, q Query) (string, error) {
	if q.Ticker == "" {
		return q.CIK, nil
	}
	cik, err := f.store.CIKForTicker(ctx, q.Ticker)
	if errors.Is(err, ports.ErrNotFound) {
		return "", fmt.Errorf("%w: no company has ticker %s", ports.ErrNotFound, q.Ticker)
	}
	return cik, err
}

// notFound names the CIK in a store's ports.ErrNotFound.
func notFound(cik string, err error) error {
	if errors.Is(err, ports.ErrNotFound) {
		return fmt.Errorf("%w: no company has CIK %s", ports.ErrNotFound, cik)
	}
	return err
}

func (f *Service) company(ctx context.Context, cik string) (financials.Company, error) {
	c, err := f.store.Company(ctx, cik)
	if err != nil {
		return financials.Company{}, notFound(cik, err)
	}
	if len(c.Tickers) == 0 {
		return financials.Company{}, fmt.Errorf("company %s is stored without a ticker", cik)
	}
	return c, nil
}

// Ingest writes companies read from source files (see adapters/companyfacts)
// and returns how many were written. Reading every file before calling it
// means a bad file leaves the store as it was.
func (f *Service) Ingest(ctx context.Context, companies []financials.Company) (int, error) {
	return len(companies), f.store.UpsertCompanies(ctx, companies)
}

// IngestBatch is how many companies one write of IngestEach holds at most:
// enough to make bulk writes pay, few enough that memory holds a handful of
// companies whatever the size of the run.
const IngestBatch = 64

// IngestBatchBytes bounds a write of IngestEach by the memory its companies
// hold (as the read cache weighs them): a real filer's mapped facts weigh
// about 1 MB (Apple's 4,215), so a batch holds about eight of them, or 64
// small ones. The store's write holds a few copies of the batch in other
// forms (BSON, the wire message), so this bounds them too.
const IngestBatchBytes = 8 << 20

// IngestEach writes the companies companies yields, IngestBatch at a time
// or fewer when they weigh IngestBatchBytes, and returns how many it wrote. It stops at the first error the sequence
// yields, after writing the companies yielded before it: a run over
// thousands of files writes every file before a bad one and none after,
// and since writing a company again changes nothing, running it again
// once the file is fixed completes it.
func (f *Service) IngestEach(ctx context.Context, companies iter.Seq2[financials.Company, error]) (int, error) {
	written, weight := 0, 0
	batch := make([]financials.Company, 0, IngestBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := f.store.UpsertCompanies(ctx, batch); err != nil {
			return err
		}
		written += len(batch)
		clear(batch) // the written companies' facts are garbage now
		batch, weight = batch[:0], 0
		return nil
	}
	for c, err := range companies {
		if err != nil {
			return written, errors.Join(err, flush())
		}
		batch, weight = append(batch, c), weight+companyWeight(c)
		if len(batch) == IngestBatch || weight >= IngestBatchBytes {
			if err := flush(); err != nil {
				return written, err
			}
		}
		if err := ctx.Err(); err != nil {
			return written, err
		}
	}
	return written, flush()
}

// Probe reports whether any company is held.
func (f *Service) Probe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.USFinancials, Probe: func(ctx context.Context) (bool, error) {
		n, err := f.store.CountCompanies(ctx)
		return n > 0, err
	}}
}

// CIKForTicker returns the CIK a ticker names.
func (f *Service) CIKForTicker(ctx context.Context, ticker string) (string, error) {
	return f.store.CIKForTicker(ctx, ticker)
}

// CIKsForName returns the CIKs of the companies whose name matches name.
func (f *Service) CIKsForName(ctx context.Context, name string) ([]string, error) {
	return f.store.CIKsForName(ctx, name)
}

// CompanyByCIK returns the company a CIK names, with its facts.
func (f *Service) CompanyByCIK(ctx context.Context, cik string) (financials.Company, error) {
	return f.store.Company(ctx, cik)
}
