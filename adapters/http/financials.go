package http

import (
	"context"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/financials"
)

// statementHeader holds the fields every statement carries.
type statementHeader struct {
	Ticker          string    `json:"ticker"`
	CIK             string    `json:"cik"`
	ReportPeriod    string    `json:"report_period"`
	FiscalPeriod    string    `json:"fiscal_period"`
	FiscalYear      int       `json:"fiscal_year"`
	Period          string    `json:"period"`
	Currency        string    `json:"currency"`
	AccessionNumber string    `json:"accession_number"`
	FilingURL       string    `json:"filing_url"`
	FilingDate      string    `json:"filing_date"`
	FilingDatetime  time.Time `json:"filing_datetime"`
}

type incomeStatement struct {
	statementHeader
	Revenue                 *float64 `json:"revenue"`
	CostOfRevenue           *float64 `json:"cost_of_revenue"`
	GrossProfit             *float64 `json:"gross_profit"`
	OperatingIncome         *float64 `json:"operating_income"`
	NetIncome               *float64 `json:"net_income"`
	EarningsPerShareBasic   *float64 `json:"earnings_per_share_basic"`
	EarningsPerShareDiluted *float64 `json:"earnings_per_share_diluted"`
}

type balanceSheet struct {
	statementHeader
	Assets             *float64 `json:"assets"`
	CurrentAssets      *float64 `json:"current_assets"`
	CashAndEquivalents *float64 `json:"cash_and_equivalents"`
	Inventory          *float64 `json:"inventory"`
	Liabilities        *float64 `json:"liabilities"`
	CurrentLiabilities *float64 `json:"current_liabilities"`
	LongTermDebt       *float64 `json:"long_term_debt"`
	ShareholdersEquity *float64 `json:"shareholders_equity"`
}

type cashFlowStatement struct {
	statementHeader
	OperatingCashFlow  *float64 `json:"operating_cash_flow"`
	InvestingCashFlow  *float64 `json:"investing_cash_flow"`
	FinancingCashFlow  *float64 `json:"financing_cash_flow"`
	CapitalExpenditure *float64 `json:"capital_expenditure"`
	DividendsPaid      *float64 `json:"dividends_paid"`
}

// financialsResponse carries the collections a route asked for; the
// single-statement routes leave the others out.
type financialsResponse struct {
	IncomeStatements   *[]incomeStatement   `json:"income_statements,omitempty"`
	BalanceSheets      *[]balanceSheet      `json:"balance_sheets,omitempty"`
	CashFlowStatements *[]cashFlowStatement `json:"cash_flow_statements,omitempty"`
	Meta               financialsMeta       `json:"meta"`
}

// financialsMeta is Meta with, on a response of several collections, the
// count of each (the single-statement routes leave Counts out: their count
// is Meta.Count).
type financialsMeta struct {
	Meta
	Counts *statementCounts `json:"counts,omitempty"`
}

// statementCounts is the number of statements returned in each collection.
type statementCounts struct {
	IncomeStatements   int `json:"income_statements"`
	BalanceSheets      int `json:"balance_sheets"`
	CashFlowStatements int `json:"cash_flow_statements"`
}

// USFinancialsHandlers returns the handlers of the four statement routes
// and of the company directory they read.
func USFinancialsHandlers(fin *usfinancials.Service) []DataHandler {
	all := []financials.Statement{financials.Income, financials.Balance, financials.CashFlow}
	return []DataHandler{
		statementsHandler(fin, "/us/financials", all...),
		statementsHandler(fin, "/us/financials/income-statements", financials.Income),
		statementsHandler(fin, "/us/financials/balance-sheets", financials.Balance),
		statementsHandler(fin, "/us/financials/cash-flow-statements", financials.CashFlow),
		companiesHandler(fin),
	}
}

func statementsHandler(fin *usfinancials.Service, path string, kinds ...financials.Statement) DataHandler {
	return DataHandler{Method: http.MethodGet, Path: path, Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
		q, err := statementsQuery(fin, r)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (Response, error) {
			st, err := fin.Statements(ctx, q, kinds...)
			if err != nil {
				return Response{}, err
			}
			return JSON(toFinancialsResponse(st, q)), nil
		}, nil
	}}
}

// statementsQuery reads and validates the query string, before any charge.
func statementsQuery(fin *usfinancials.Service, r *http.Request) (usfinancials.Query, error) {
	limit, err := boundedInt(r, "limit", 4, 1, 200)
	if err != nil {
		return usfinancials.Query{}, err
	}
	offset, err := boundedInt(r, "offset", 0, 0, maxOffset)
	if err != nil {
		return usfinancials.Query{}, err
	}
	v := r.URL.Query()
	return fin.Query(usfinancials.Params{
		Ticker: v.Get("ticker"), CIK: v.Get("cik"), Period: v.Get("period"), AsOf: v.Get("as_of"),
		ReportGte: v.Get("report_period_gte"), ReportGt: v.Get("report_period_gt"),
		ReportLte: v.Get("report_period_lte"), ReportLt: v.Get("report_period_lt"),
		Limit: limit, Offset: offset,
	})
}

// maxOffset bounds offset so offset+limit cannot overflow.
const maxOffset = 1 << 30

// toFinancialsResponse shapes the pages. meta counts the longest page,
// gives each collection's count when there are several, and offers a next
// page while any collection has more.
func toFinancialsResponse(st usfinancials.Statements, q usfinancials.Query) financialsResponse {
	var resp financialsResponse
	var counts statementCounts
	count, total := 0, 0
	for kind, page := range st.Pages {
		count, total = max(count, len(page.Rows)), max(total, page.Total)
		switch kind {
		case financials.Income:
			rows := mapRows(st, q, page.Rows, toIncome)
			resp.IncomeStatements, counts.IncomeStatements = &rows, len(rows)
		case financials.Balance:
			rows := mapRows(st, q, page.Rows, toBalance)
			resp.BalanceSheets, counts.BalanceSheets = &rows, len(rows)
		case financials.CashFlow:
			rows := mapRows(st, q, page.Rows, toCashFlow)
			resp.CashFlowStatements, counts.CashFlowStatements = &rows, len(rows)
		}
	}
	resp.Meta.Meta = NewMeta("US", q.Limit, q.Offset, count, total, st.AsOf, financials.MapVersion, financialsProvenance(st.RetrievedAt))
	if len(st.Pages) > 1 {
		resp.Meta.Counts = &counts
	}
	return resp
}

func financialsProvenance(retrieved time.Time) Provenance {
	return Provenance{Source: usfinancials.Source, RetrievedAt: retrieved, Licence: licenceTerms(dataset.USFinancials)}
}

func mapRows[T any](st usfinancials.Statements, q usfinancials.Query, rows []financials.Row, to func(statementHeader, financials.Row) T) []T {
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = to(header(st, q, r), r)
	}
	return out
}

func header(st usfinancials.Statements, q usfinancials.Query, r financials.Row) statementHeader {
	known, _ := financials.KnownFrom(r.Filed)
	return statementHeader{
		Ticker: st.Ticker, CIK: st.CIK, ReportPeriod: r.End, FiscalPeriod: r.FiscalPeriod, FiscalYear: r.FiscalYear,
		Period: string(q.Period), Currency: r.Currency, AccessionNumber: r.Accession,
		FilingURL: financials.FilingURL(st.CIK, r.Accession), FilingDate: r.Filed, FilingDatetime: known,
	}
}

// value returns the field's value, or nil when it was not reported.
func value(r financials.Row, field string) *float64 {
	v, ok := r.Values[field]
	if !ok {
		return nil
	}
	return &v
}

func toIncome(h statementHeader, r financials.Row) incomeStatement {
	return incomeStatement{
		statementHeader: h, Revenue: value(r, "revenue"), CostOfRevenue: value(r, "cost_of_revenue"),
		GrossProfit: value(r, "gross_profit"), OperatingIncome: value(r, "operating_income"), NetIncome: value(r, "net_income"),
		EarningsPerShareBasic: value(r, "earnings_per_share_basic"), EarningsPerShareDiluted: value(r, "earnings_per_share_diluted"),
	}
}

func toBalance(h statementHeader, r financials.Row) balanceSheet {
	return balanceSheet{
		statementHeader: h, Assets: value(r, "assets"), CurrentAssets: value(r, "current_assets"),
		CashAndEquivalents: value(r, "cash_and_equivalents"), Inventory: value(r, "inventory"),
		Liabilities: value(r, "liabilities"), CurrentLiabilities: value(r, "current_liabilities"),
		LongTermDebt: value(r, "long_term_debt"), ShareholdersEquity: value(r, "shareholders_equity"),
	}
}

func toCashFlow(h statementHeader, r financials.Row) cashFlowStatement {
	return cashFlowStatement{
		statementHeader: h, OperatingCashFlow: value(r, "operating_cash_flow"), InvestingCashFlow: value(r, "investing_cash_flow"),
		FinancingCashFlow: value(r, "financing_cash_flow"), CapitalExpenditure: value(r, "capital_expenditure"),
		DividendsPaid: value(r, "dividends_paid"),
	}
}
