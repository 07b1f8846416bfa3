package app

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/domain/table"
	"github.com/quarrydata/quarry/ports"
)

// indiaPriceColumns are the columns of an india.prices export: GET
// /india/prices's row, in its order, typed.
var indiaPriceColumns = []table.Column{
	{Name: "symbol", Kind: table.String}, {Name: "series", Kind: table.String}, {Name: "isin", Kind: table.String},
	{Name: "date", Kind: table.Date},
	{Name: "open", Kind: table.Decimal}, {Name: "high", Kind: table.Decimal}, {Name: "low", Kind: table.Decimal},
	{Name: "close", Kind: table.Decimal}, {Name: "last", Kind: table.Decimal, Nullable: true},
	{Name: "prev_close", Kind: table.Decimal}, {Name: "volume", Kind: table.Int},
	{Name: "turnover", Kind: table.Decimal}, {Name: "trades", Kind: table.Int},
}

// ExportDataset is india.prices: the filters of GET /india/prices without
// paging, validated by Query; the security is resolved once the export
// is charged (an unknown one is a refunded 404), and the rows are those
// of GET /india/prices.csv.
func (c *IndiaPrices) ExportDataset() ExportDataset {
	return ExportDataset{
		Name:    "india.prices",
		ID:      dataset.IndiaPrices,
		Filters: []string{"symbol", "isin", "series", "start_date", "end_date", "as_of"},
		Held:    c.Probe().Probe,
		Plan: func(f map[string]string) (ExportPlan, error) {
			q, err := c.Query(IndiaPricesParams{Symbol: f["symbol"], ISIN: f["isin"], Series: f["series"],
				StartDate: f["start_date"], EndDate: f["end_date"], AsOf: f["as_of"]})
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (Export, error) {
				isin, err := c.Resolve(ctx, q)
				if err != nil {
					return Export{}, err
				}
				return Export{Source: indiaPriceTable{prices: c, isin: isin, q: q}, AsOf: q.AsOf, Stem: q.FileStem(isin)}, nil
			}, nil
		},
	}
}

// FileStem names a download of the query's rows without its extension:
// the security as asked for, the series and the date range ("all" for an
// open end), such as NSE_ETERNAL_EQ_2025-04-01_all.
func (q IndiaPricesQuery) FileStem(isin string) string {
	name := q.Symbol
	if name == "" {
		name = isin
	}
	return fmt.Sprintf("NSE_%s_%s_%s_%s", name, q.Series, orAll(q.From), orAll(q.To))
}

func orAll(bound string) string {
	if bound == "" {
		return "all"
	}
	return bound
}

// indiaPriceTable is one security's rows as a table.
type indiaPriceTable struct {
	prices *IndiaPrices
	isin   string
	q      IndiaPricesQuery
}

func (indiaPriceTable) Columns() []table.Column { return indiaPriceColumns }

// Rows maps the streamed rows into one reused Row; a missing last price
// (0 in the store, null in the JSON route) is a null.
func (t indiaPriceTable) Rows(ctx context.Context) iter.Seq2[table.Row, error] {
	return func(yield func(table.Row, error) bool) {
		row := make(table.Row, len(indiaPriceColumns))
		for r, err := range t.prices.Stream(ctx, t.isin, t.q) {
			if err == nil {
				err = fillIndiaPriceRow(row, r)
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(row, nil) {
				return
			}
		}
	}
}

func fillIndiaPriceRow(row table.Row, r nse.Row) error {
	day, err := table.ParseDay(r.Date)
	if err != nil {
		return fmt.Errorf("india price row %s %s: %w", r.ISIN, r.Date, err)
	}
	row[0], row[1], row[2], row[3] = table.Value{Str: r.Symbol}, table.Value{Str: r.Series}, table.Value{Str: r.ISIN}, table.Value{Day: day}
	row[4], row[5], row[6], row[7] = table.Value{Num: r.Open}, table.Value{Num: r.High}, table.Value{Num: r.Low}, table.Value{Num: r.Close}
	row[8] = table.Value{Num: r.Last, Null: r.Last == 0}
	row[9], row[10] = table.Value{Num: r.PrevClose}, table.Value{Int: r.Volume}
	row[11], row[12] = table.Value{Num: r.Turnover}, table.Value{Int: r.Trades}
	return nil
}

// judgmentColumns are the columns of an india.judgments export: the
// metadata GET /india/judgments/{judgment_id} answers, parties as their
// tokens, never a text or an original name. Lists are joined with "; ",
// a party written "token (role)".
var judgmentColumns = []table.Column{
	{Name: "judgment_id", Kind: table.String}, {Name: "court", Kind: table.String},
	{Name: "bench", Kind: table.String, Nullable: true}, {Name: "case_number", Kind: table.String},
	{Name: "title", Kind: table.String}, {Name: "parties", Kind: table.String}, {Name: "judges", Kind: table.String},
	{Name: "decision_date", Kind: table.Date}, {Name: "citations", Kind: table.String},
	{Name: "language", Kind: table.String}, {Name: "page_count", Kind: table.Int, Nullable: true},
}

// ListSeparator joins a judgment's parties, judges and citations in an
// export's cell.
const ListSeparator = "; "

// ExportDataset is india.judgments (litigation:read besides the route's
// permissions): the filters of POST /india/search without the query and
// paging, validated as it validates them, every matching judgment's
// metadata by decision date then id. Judgments have no as_of: X-As-Of is
// when they were read.
func (u *Judgments) ExportDataset() ExportDataset {
	return ExportDataset{
		Name:        "india.judgments",
		ID:          dataset.IndiaJudgments,
		Permissions: []scope.Permission{scope.LitigationRead},
		Filters:     []string{"court", "decided_from", "decided_to"},
		Held:        u.JudgmentsProbe().Probe,
		Plan: func(f map[string]string) (ExportPlan, error) {
			court, from, to, err := parseJudgmentFilters(f["court"], f["decided_from"], f["decided_to"])
			if err != nil {
				return nil, err
			}
			q := ports.JudgmentListQuery{Court: court, DecidedFrom: dateOrEmpty(from), DecidedTo: dateOrEmpty(to)}
			return func(context.Context) (Export, error) {
				return Export{Source: judgmentTable{store: u.store, q: q}, AsOf: u.now(), Stem: judgmentStem(q)}, nil
			}, nil
		},
	}
}

func dateOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// judgmentStem names a judgments export: the court (its letters and
// digits, "_" between words; "all" for every court) and the date range,
// such as india_judgments_Supreme_Court_of_India_2018-01-01_all.
func judgmentStem(q ports.JudgmentListQuery) string {
	court := strings.Join(strings.FieldsFunc(q.Court, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}), "_")
	return fmt.Sprintf("india_judgments_%s_%s_%s", orAll(court), orAll(q.DecidedFrom), orAll(q.DecidedTo))
}

// judgmentTable is the judgments a listing selects, as a table.
type judgmentTable struct {
	store ports.JudgmentStore
	q     ports.JudgmentListQuery
}

func (judgmentTable) Columns() []table.Column { return judgmentColumns }

func (t judgmentTable) Rows(ctx context.Context) iter.Seq2[table.Row, error] {
	return func(yield func(table.Row, error) bool) {
		row := make(table.Row, len(judgmentColumns))
		for j, err := range t.store.JudgmentList(ctx, t.q) {
			if err == nil {
				err = fillJudgmentRow(row, j)
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(row, nil) {
				return
			}
		}
	}
}

func fillJudgmentRow(row table.Row, j judgment.Judgment) error {
	day, err := table.ParseDay(j.DecisionDate)
	if err != nil {
		return fmt.Errorf("judgment %s: decision %w", j.ID, err)
	}
	parties := make([]string, len(j.Parties))
	for i, p := range j.Parties {
		parties[i] = p.Token + " (" + string(p.Role) + ")"
	}
	row[0], row[1] = table.Value{Str: j.ID}, table.Value{Str: j.Court}
	row[2] = table.Value{Str: j.Bench, Null: j.Bench == ""}
	row[3], row[4] = table.Value{Str: j.CaseNumber}, table.Value{Str: j.Title}
	row[5], row[6] = table.Value{Str: strings.Join(parties, ListSeparator)}, table.Value{Str: strings.Join(j.Judges, ListSeparator)}
	row[7], row[8] = table.Value{Day: day}, table.Value{Str: strings.Join(j.Citations, ListSeparator)}
	row[9] = table.Value{Str: j.Language}
	row[10] = table.Value{Int: int64(j.PageCount), Null: j.PageCount <= 0}
	return nil
}
