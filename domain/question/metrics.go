package question

import (
	"regexp"
	"slices"
	"strings"
)

// lexicon maps the phrases that name a statement field to the field: the
// field's own name, the XBRL labels and concept names of the concepts it
// is read from (as companyfacts writes them), and the synonyms analysts
// use. Phrases are matched whole-word on the normalized question, the
// longest first.
var lexicon = map[string][]string{
	"revenue": {"revenue", "revenues", "total revenue", "total revenues", "net revenue", "net revenues", "net sales", "total net sales",
		"sales", "top line", "top-line", "turnover", "revenue from contract with customer excluding assessed tax",
		"revenue from contract with customer, excluding assessed tax", "revenuefromcontractwithcustomerexcludingassessedtax", "sales revenue net"},
	"cost_of_revenue": {"cost of revenue", "cost of revenues", "cost of sales", "cost of goods sold", "cogs", "cost of goods and services sold",
		"costofrevenue", "costofgoodsandservicessold", "total cost of sales"},
	"gross_profit":     {"gross profit", "gross income", "grossprofit"},
	"operating_income": {"operating income", "operating profit", "income from operations", "operating earnings", "operating income (loss)", "operating income loss", "operatingincomeloss"},
	"net_income": {"net income", "net profit", "net earnings", "earnings", "bottom line", "net income (loss)", "net income loss",
		"net income (loss) attributable to parent", "net income attributable to parent", "netincomeloss", "profit after tax"},
	"earnings_per_share_basic": {"basic eps", "basic earnings per share", "earnings per share, basic", "earnings per share basic", "eps (basic)", "eps basic"},
	"earnings_per_share_diluted": {"diluted eps", "diluted earnings per share", "earnings per share, diluted", "earnings per share diluted",
		"eps (diluted)", "eps diluted", "earnings per diluted share", "eps", "earnings per share"},
	"assets":               {"assets", "total assets"},
	"current_assets":       {"current assets", "total current assets", "assets, current", "assetscurrent"},
	"cash_and_equivalents": {"cash and cash equivalents", "cash & cash equivalents", "cash"},
	"inventory":            {"inventory", "inventories"},
	"liabilities":          {"liabilities", "total liabilities"},
	"current_liabilities":  {"current liabilities", "total current liabilities", "liabilities, current", "liabilitiescurrent"},
	"long_term_debt":       {"long-term debt", "long term debt", "term debt"},
	"shareholders_equity": {"shareholders' equity", "shareholders equity", "stockholders' equity", "stockholders equity", "shareholder equity",
		"stockholder equity", "total equity", "equity", "book value", "total shareholders' equity", "total stockholders' equity",
		"stockholders' equity attributable to parent", "stockholdersequity", "net worth"},
	"operating_cash_flow": {"operating cash flow", "operating cash flows", "cash flow from operations", "cash flows from operations", "cash from operations",
		"cash from operating activities", "cash flow from operating activities", "cash flows from operating activities",
		"net cash provided by operating activities", "net cash from operating activities", "net cash provided by (used in) operating activities",
		"cfo", "operating cashflow"},
	"investing_cash_flow": {"investing cash flow", "cash flow from investing activities", "net cash used in investing activities"},
	"financing_cash_flow": {"financing cash flow", "cash flow from financing activities", "net cash used in financing activities"},
	"capital_expenditure": {"capital expenditure", "capital expenditures", "capex", "capital spending", "purchases of property, plant and equipment", "payments for acquisition of property, plant and equipment"},
	"dividends_paid":      {"dividends paid", "dividend payments", "payments for dividends"},
}

// phrases are the lexicon's phrases, longest first, each with its field.
var phrases []struct{ text, field string }

// phraseRE matches any phrase of the lexicon, longest first.
var phraseRE *regexp.Regexp

func init() {
	for field, ps := range lexicon {
		for _, p := range ps {
			phrases = append(phrases, struct{ text, field string }{p, field})
		}
	}
	slices.SortFunc(phrases, func(a, b struct{ text, field string }) int {
		if d := len(b.text) - len(a.text); d != 0 {
			return d
		}
		return strings.Compare(a.text, b.text)
	})
	alts := make([]string, len(phrases))
	for i, p := range phrases {
		alts[i] = regexp.QuoteMeta(p.text)
	}
	phraseRE = regexp.MustCompile(`(?:^|[^\pL\pN])(` + strings.Join(alts, "|") + `)(?:$|[^\pL\pN])`)
}

// Field names the field a metric phrase names, and false when it names
// none.
func Field(phrase string) (string, bool) {
	p := Normalize(phrase)
	for _, x := range phrases {
		if x.text == p {
			return x.field, true
		}
	}
	return "", false
}

// metric cuts the first (longest at its place) metric phrase out of s.
func metric(s string) (rest, field, phrase string, ok bool) {
	loc := phraseRE.FindStringSubmatchIndex(s)
	if loc == nil {
		return s, "", "", false
	}
	phrase = s[loc[2]:loc[3]]
	f, _ := Field(phrase)
	return s[:loc[2]] + " ; " + s[loc[3]:], f, phrase, true
}

// Derived figures: the margins name their numerator; growth and free cash
// flow are read apart from the metric.
var (
	margins = []struct {
		re    *regexp.Regexp
		field string
	}{
		{regexp.MustCompile(`\bgross (?:profit )?margin(?: percentage| ratio| %)?`), "gross_profit"},
		{regexp.MustCompile(`\b(?:operating|ebit|operating profit|operating income) margin(?: percentage| ratio| %)?`), "operating_income"},
		{regexp.MustCompile(`\b(?:net (?:profit |income )?|profit )margin(?: percentage| ratio| %)?`), "net_income"},
	}
	growthRE = regexp.MustCompile(`\b(?:grow|grew|growth|grown|yoy|y/y|year[- ]over[- ]year|year on year|change[ds]?|increase[ds]?|decrease[ds]?|decline[ds]?|rise|rose|fall|fell|percentage|percent)\b`)
	fcfRE    = regexp.MustCompile(`\b(?:free cash flow|free cash flows|fcf)\b`)
)

// derived cuts a derived figure's words out of s: a margin (with its
// numerator field), free cash flow, or growth of the metric still to be
// read.
func derived(s string) (string, Derived, string) {
	for _, m := range margins {
		if m.re.MatchString(s) {
			return m.re.ReplaceAllString(s, " ; "), Margin, m.field
		}
	}
	if fcfRE.MatchString(s) {
		return fcfRE.ReplaceAllString(s, " ; "), FreeCashFlow, "free_cash_flow"
	}
	if growthRE.MatchString(s) {
		return growthRE.ReplaceAllString(s, " "), Growth, ""
	}
	return s, Stored, ""
}
