// Package financials holds the rules that turn SEC XBRL facts into
// point-in-time financial statements: the versioned concept map, the
// classification of reporting periods, and the selection of the facts known
// at a moment.
package financials

// MapVersion names the concept map below. Change it whenever a field gains,
// loses or reorders a concept, so that a response says which map shaped it.
const MapVersion = "usgaap-map-2026-07-20.1"

// Statement names a statement collection of the interface.
type Statement string

// The three statements of the interface.
const (
	Income   Statement = "income_statements"
	Balance  Statement = "balance_sheets"
	CashFlow Statement = "cash_flow_statements"
)

// Measure says how a field's facts are measured.
type Measure int

const (
	// Flow: an amount over a period (start and end), in currency units.
	Flow Measure = iota
	// Stock: an amount at an instant (end only), in currency units.
	Stock
	// PerShare: an amount over a period per share, in unit "<currency>/shares".
	PerShare
)

// Field is one number of a statement and the us-gaap concepts it is read
// from, in order of preference: the first concept with a known value for
// the period wins, so a later concept is only a fallback.
type Field struct {
	Name      string
	Statement Statement
	Measure   Measure
	Concepts  []string
}

// Fields is the concept map, version MapVersion. Within a statement the
// fields are in the order of the interface.
var Fields = []Field{
	{"revenue", Income, Flow, []string{"Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "SalesRevenueNet"}},
	{"cost_of_revenue", Income, Flow, []string{"CostOfRevenue", "CostOfGoodsAndServicesSold"}},
	{"gross_profit", Income, Flow, []string{"GrossProfit"}},
	{"operating_income", Income, Flow, []string{"OperatingIncomeLoss"}},
	{"net_income", Income, Flow, []string{"NetIncomeLoss"}},
	{"earnings_per_share_basic", Income, PerShare, []string{"EarningsPerShareBasic"}},
	{"earnings_per_share_diluted", Income, PerShare, []string{"EarningsPerShareDiluted"}},

	{"assets", Balance, Stock, []string{"Assets"}},
	{"current_assets", Balance, Stock, []string{"AssetsCurrent"}},
	{"cash_and_equivalents", Balance, Stock, []string{"CashAndCashEquivalentsAtCarryingValue"}},
	{"inventory", Balance, Stock, []string{"InventoryNet"}},
	{"liabilities", Balance, Stock, []string{"Liabilities"}},
	{"current_liabilities", Balance, Stock, []string{"LiabilitiesCurrent"}},
	{"long_term_debt", Balance, Stock, []string{"LongTermDebtNoncurrent", "LongTermDebt"}},
	{"shareholders_equity", Balance, Stock, []string{"StockholdersEquity"}},

	{"operating_cash_flow", CashFlow, Flow, []string{"NetCashProvidedByUsedInOperatingActivities"}},
	{"investing_cash_flow", CashFlow, Flow, []string{"NetCashProvidedByUsedInInvestingActivities"}},
	{"financing_cash_flow", CashFlow, Flow, []string{"NetCashProvidedByUsedInFinancingActivities"}},
	{"capital_expenditure", CashFlow, Flow, []string{"PaymentsToAcquirePropertyPlantAndEquipment", "PaymentsToAcquireProductiveAssets"}},
	{"dividends_paid", CashFlow, Flow, []string{"PaymentsOfDividends", "PaymentsOfDividendsCommonStock"}},
}

// FieldsOf returns the fields of one statement, in interface order.
func FieldsOf(s Statement) []Field {
	var out []Field
	for _, f := range Fields {
		if f.Statement == s {
			out = append(out, f)
		}
	}
	return out
}

// Mapped reports whether a concept feeds any field; ingestion keeps only
// those facts.
func Mapped(concept string) bool {
	for _, f := range Fields {
		for _, c := range f.Concepts {
			if c == concept {
				return true
			}
		}
	}
	return false
}
