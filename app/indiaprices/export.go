package indiaprices

import (
	"context"
	"fmt"
	"iter"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/domain/table"
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
func (c *Service) ExportDataset() usecase.ExportDataset {
	return usecase.ExportDataset{
		Name:    "india.prices",
		ID:      dataset.IndiaPrices,
		Filters: []string{"symbol", "isin", "series", "start_date", "end_date", "as_of"},
		Held:    c.Probe().Probe,
		Plan: func(f map[string]string) (usecase.ExportPlan, error) {
			q, err := c.Query(Params{Symbol: f["symbol"], ISIN: f["isin"], Series: f["series"],
				StartDate: f["start_date"], EndDate: f["end_date"], AsOf: f["as_of"]})
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (usecase.Export, error) {
				isin, err := c.Resolve(ctx, q)
				if err != nil {
					return usecase.Export{}, err
				}
				return usecase.Export{Source: indiaPriceTable{prices: c, isin: isin, q: q}, AsOf: q.AsOf, Stem: q.FileStem(isin)}, nil
			}, nil
		},
	}
}

// FileStem names a download of the query's rows without its extension:
// the security as asked for, the series and the date range ("all" for an
// open end), such as NSE_ETERNAL_EQ_2025-04-01_all.
func (q Query) FileStem(isin string) string {
	name := q.Symbol
	if name == "" {
		name = isin
	}
	return fmt.Sprintf("NSE_%s_%s_%s_%s", name, q.Series, usecase.OrAll(q.From), usecase.OrAll(q.To))
}

// indiaPriceTable is one security's rows as a table.
type indiaPriceTable struct {
	prices *Service
	isin   string
	q      Query
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
