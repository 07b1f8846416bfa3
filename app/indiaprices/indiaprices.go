package indiaprices

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
)

// IndiaPricesSource is the provenance source named in responses.
const Source = "NSE capital-market bhavcopy (legacy, UDiFF and full layouts)"

// IndiaPricesVersion is the normalization version of served rows: turnover
// in INR (lakhs converted exactly), rows stored by ISIN, a missing last
// price served as null.
const Version = "in-nse-daily-2026-07-20.1"

// IndiaPrices serves point-in-time NSE daily rows.
type Service struct {
	store ports.IndiaPriceStore
	now   usecase.Clock
}

// NewIndiaPrices wires the India prices use cases.
func New(s ports.IndiaPriceStore, now usecase.Clock) *Service {
	return &Service{store: s, now: now}
}

// IndiaPricesParams are the raw query parameters of GET /india/prices and
// GET /india/prices.csv; Limit and Offset are already bounded by the
// caller (the CSV route has none).
type Params struct {
	Symbol, ISIN, Series, StartDate, EndDate, AsOf string
	Limit, Offset                                  int
}

// IndiaPricesQuery is a validated request for rows.
type Query struct {
	// Symbol or ISIN names the security, exactly one of them.
	Symbol, ISIN, Series string
	From, To             string
	AsOf                 time.Time
	Limit, Offset        int
}

// Query validates the parameters: neither or both of symbol and isin, or
// a start_date after end_date, is ErrInvalidRequest; a malformed value
// ErrValidation.
func (c *Service) Query(p Params) (Query, error) {
	q := Query{Limit: p.Limit, Offset: p.Offset, Series: "EQ"}
	if (p.Symbol == "") == (p.ISIN == "") {
		return q, fmt.Errorf("%w: give exactly one of symbol (an NSE symbol such as RELIANCE) and isin (such as INE002A01018)", usecase.ErrInvalidRequest)
	}
	var err error
	if p.ISIN != "" {
		if q.ISIN, err = nse.ParseISIN(p.ISIN); err != nil {
			return q, fmt.Errorf("%w: isin: %w", usecase.ErrValidation, err)
		}
	} else if q.Symbol, err = nseWord("symbol", p.Symbol, 32, "&-_"); err != nil {
		return q, err
	}
	if p.Series != "" {
		if q.Series, err = nseWord("series", p.Series, 4, ""); err != nil {
			return q, err
		}
	}
	if q.AsOf, err = usecase.ParseAsOf(p.AsOf, c.now()); err != nil {
		return q, err
	}
	if _, ok, err := usecase.ParseDate("start_date", p.StartDate); err != nil {
		return q, err
	} else if ok {
		q.From = p.StartDate
	}
	if _, ok, err := usecase.ParseDate("end_date", p.EndDate); err != nil {
		return q, err
	} else if ok {
		q.To = p.EndDate
	}
	if q.From != "" && q.To != "" && q.From > q.To {
		return q, fmt.Errorf("%w: start_date %s is after end_date %s", usecase.ErrInvalidRequest, q.From, q.To)
	}
	return q, nil
}

// nseWord checks an NSE symbol or series: letters, digits and the
// punctuation given, at most limit characters; it returns it upper-cased.
func nseWord(name, s string, limit int, punct string) (string, error) {
	u := strings.ToUpper(s)
	ok := len(u) <= limit
	for _, r := range u {
		ok = ok && (r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(punct, r))
	}
	if !ok {
		return "", fmt.Errorf("%w: %s %q is not an NSE %s (letters and digits%s, at most %d)", usecase.ErrValidation, name, s, name, punctNote(punct), limit)
	}
	return u, nil
}

func punctNote(punct string) string {
	if punct == "" {
		return ""
	}
	return " and " + strings.Join(strings.Split(punct, ""), " ")
}

// Resolve names the ISIN the query reads. An isin with no row held in the
// series is ports.ErrNotFound. A symbol resolves to the ISIN that carried
// it, in the series, on the latest date on or before end_date (or the
// as_of day, in India time, without one) among the rows known at as_of;
// the whole history of that ISIN is then served, each row with the symbol
// of its own day, so a renamed security keeps its history under either
// symbol. A symbol carried by no row by then is ports.ErrNotFound.
func (c *Service) Resolve(ctx context.Context, q Query) (string, error) {
	if q.ISIN != "" {
		held, err := c.store.Holds(ctx, q.ISIN, q.Series)
		if err != nil {
			return "", err
		}
		if !held {
			return "", fmt.Errorf("%w: no %s rows are held for ISIN %s", ports.ErrNotFound, q.Series, q.ISIN)
		}
		return q.ISIN, nil
	}
	by := q.To
	if by == "" {
		by = q.AsOf.In(nse.India).Format(time.DateOnly)
	}
	isin, err := c.store.ISINOf(ctx, q.Symbol, q.Series, by, q.AsOf)
	if errors.Is(err, ports.ErrNotFound) {
		return "", fmt.Errorf("%w: no %s rows of NSE symbol %s are held on or before %s", ports.ErrNotFound, q.Series, q.Symbol, by)
	}
	return isin, err
}

// IndiaPricesPage is one page of rows and whether another follows.
type Page struct {
	Rows        []nse.Row
	More        bool
	AsOf        time.Time
	RetrievedAt time.Time
}

// Prices returns a page of the security's rows known at q.AsOf, oldest
// first.
func (c *Service) Prices(ctx context.Context, q Query) (Page, error) {
	isin, err := c.Resolve(ctx, q)
	if err != nil {
		return Page{}, err
	}
	page := Page{AsOf: q.AsOf}
	skip := q.Offset
	for r, err := range c.Stream(ctx, isin, q) {
		if err != nil {
			return Page{}, err
		}
		if skip > 0 {
			skip--
			continue
		}
		if len(page.Rows) == q.Limit {
			page.More = true
			break
		}
		page.Rows = append(page.Rows, r)
		if r.KnownAt.After(page.RetrievedAt) {
			page.RetrievedAt = r.KnownAt
		}
	}
	if page.RetrievedAt.IsZero() {
		page.RetrievedAt = q.AsOf
	}
	return page, nil
}

// Stream yields every row of isin the query's range holds, oldest first,
// without holding them: the CSV route writes them as they come.
func (c *Service) Stream(ctx context.Context, isin string, q Query) iter.Seq2[nse.Row, error] {
	return c.store.Rows(ctx, ports.IndiaRowQuery{ISIN: isin, Series: q.Series, From: q.From, To: q.To, AsOf: q.AsOf})
}

// IndiaIngestResult says what an ingestion changed.
type IngestResult struct {
	// Added is how many row versions were stored; Unchanged how many rows
	// agreed with the version in effect at their KnownAt; NoISIN how many
	// full-bhavcopy rows were skipped for want of an ISIN.
	Added, Unchanged, NoISIN int
}

// IngestBatchBytes is the batchBytes of IngestEach for a run of files: it
// bounds the rows one write holds, as rowBytes weighs them. A day of NSE's
// capital-market files is about 3,000 rows, some 760 kB, so a batch holds
// about eleven days and memory stays flat however many days a run reads.
// Each write adds a part to the year bucket of every security it touches
// (spec-gaps B28), so fewer, larger batches write fewer documents; the
// store's write holds a few copies of the batch in other forms (BSON, the
// wire message), which this bounds too.
const IngestBatchBytes = 8 << 20

// IngestEach stores the rows of each file files yields, a batch of whole
// days at a time: the rows gathered are written (see ingestBatch) before a
// file of another day once they weigh batchBytes, so a run holds one batch
// however many days it reads. The files come in date order, a day's files
// together, the day named by each file's first row; listings are the
// run's EQUITY_L entries. It stops at the first error files yields, after
// writing the batches before it and nothing of the one it stops in; since
// rows held already add nothing, running it again once the file is fixed
// completes the run.
func (c *Service) IngestEach(ctx context.Context, files iter.Seq2[[]nse.Row, error], listings map[string]string, batchBytes int) (IngestResult, error) {
	var res IngestResult
	var batch []nse.Row
	weight, day := 0, ""
	for rows, err := range files {
		if err != nil {
			return res, err
		}
		if len(rows) == 0 {
			continue
		}
		if rows[0].Date != day && weight >= batchBytes {
			if err := c.ingestBatch(ctx, batch, listings, &res); err != nil {
				return res, err
			}
			clear(batch) // the written rows' strings are garbage now
			batch, weight = batch[:0], 0
		}
		day = rows[0].Date
		batch = append(batch, rows...)
		for _, r := range rows {
			weight += rowBytes(r)
		}
	}
	return res, c.ingestBatch(ctx, batch, listings, &res)
}

// rowBytes weighs a row as memory holds it.
func rowBytes(r nse.Row) int {
	return int(unsafe.Sizeof(r)) + len(r.Symbol) + len(r.Series) + len(r.ISIN) + len(r.Date) + len(r.Source)
}

// ingestBatch stores rows read from NSE files, day by day, in one write.
// A full-bhavcopy row (no ISIN) takes the ISIN of the legacy or UDiFF row
// of the same symbol, series and day, in the batch or already stored, else
// the ISIN listings (EQUITY_L) give for its symbol; with none it is
// skipped and counted. A row that agrees with the version in effect at its
// KnownAt (nse.Row.Agrees) adds nothing, so ingesting a file twice, or a
// copy retrieved later, changes nothing; a row with other figures is a new
// version, served from its KnownAt on.
func (c *Service) ingestBatch(ctx context.Context, rows []nse.Row, listings map[string]string, res *IngestResult) error {
	byDate := map[string][]nse.Row{}
	for _, r := range rows {
		byDate[r.Date] = append(byDate[r.Date], r)
	}
	var add []nse.Row
	for _, date := range slices.Sorted(maps.Keys(byDate)) {
		held, err := c.store.OnDate(ctx, date)
		if err != nil {
			return err
		}
		add = append(add, c.day(byDate[date], held, listings, res)...)
	}
	if err := c.store.Add(ctx, add); err != nil {
		return err
	}
	res.Added += len(add)
	return nil
}

// day returns the rows of one day that are new, given the versions held.
// Rows with an ISIN and an exact turnover go first, so a full-bhavcopy row
// of the same day finds them.
func (c *Service) day(rows, held []nse.Row, listings map[string]string, res *IngestResult) []nse.Row {
	slices.SortStableFunc(rows, func(a, b nse.Row) int {
		return cmp.Or(cmp.Compare(lakhRank(a), lakhRank(b)), a.KnownAt.Compare(b.KnownAt))
	})
	versions := map[string][]nse.Row{}
	isinOf := map[string]string{}
	note := func(r nse.Row) {
		versions[r.ISIN+"|"+r.Series] = append(versions[r.ISIN+"|"+r.Series], r)
		isinOf[r.Symbol+"|"+r.Series] = r.ISIN
	}
	for _, h := range held {
		note(h)
	}
	var add []nse.Row
	for _, r := range rows {
		if r.ISIN == "" {
			if r.ISIN = cmp.Or(isinOf[r.Symbol+"|"+r.Series], listings[r.Symbol]); r.ISIN == "" {
				res.NoISIN++
				continue
			}
		}
		if cur, ok := inEffectRow(versions[r.ISIN+"|"+r.Series], r.KnownAt); ok && r.Agrees(cur) {
			res.Unchanged++
			continue
		}
		add = append(add, r)
		note(r)
	}
	return add
}

// inEffectRow returns the version with the latest KnownAt not after at.
func inEffectRow(versions []nse.Row, at time.Time) (nse.Row, bool) {
	var cur nse.Row
	found := false
	for _, v := range versions {
		if !v.KnownAt.After(at) && (!found || !v.KnownAt.Before(cur.KnownAt)) {
			cur, found = v, true
		}
	}
	return cur, found
}

// lakhRank orders rows with an exact turnover before rows stated in lakhs.
func lakhRank(r nse.Row) int {
	if r.TurnoverInLakhs {
		return 1
	}
	return 0
}

// Probe reports whether any row is held.
func (c *Service) Probe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.IndiaPrices, Probe: func(ctx context.Context) (bool, error) {
		n, err := c.store.Count(ctx)
		return n > 0, err
	}}
}
