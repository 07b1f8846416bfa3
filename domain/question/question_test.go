package question

import (
	"reflect"
	"testing"
)

func TestParseFigure(t *testing.T) {
	fy := func(y int) []Period { return []Period{{Kind: FiscalYear, Year: y}} }
	for _, c := range []struct {
		q    string
		want Figure
	}{
		{"What was AAPL's revenue in fiscal 2023?", Figure{Companies: []string{"aapl"}, Field: "revenue", Periods: fy(2023), Metric: "revenue"}},
		{"AAPL FY24 net income", Figure{Companies: []string{"aapl"}, Field: "net_income", Periods: fy(2024), Metric: "net income"}},
		{"MSFT FY23 net income?", Figure{Companies: []string{"msft"}, Field: "net_income", Periods: fy(2023), Metric: "net income"}},
		{"NVDA Q1 FY25 revenue", Figure{Companies: []string{"nvda"}, Field: "revenue", Periods: []Period{{Kind: Quarter, Year: 2025, Quarter: 1}}, Metric: "revenue"}},
		{"How much revenue did Apple report for fiscal 2022?", Figure{Companies: []string{"apple"}, Field: "revenue", Periods: fy(2022), Metric: "revenue"}},
		{"Give me Apple Inc.'s top line for FY 2024.", Figure{Companies: []string{"apple inc"}, Field: "revenue", Periods: fy(2024), Metric: "top line"}},
		{"What was Apple's net income for the year ended September 28, 2024?", Figure{Companies: []string{"apple"}, Field: "net_income", Periods: []Period{{Kind: EndDate, End: "2024-09-28", Span: Year}}, Metric: "net income"}},
		{"Microsoft total assets as of June 30, 2024", Figure{Companies: []string{"microsoft"}, Field: "assets", Periods: []Period{{Kind: EndDate, End: "2024-06-30", Span: Instant}}, Metric: "total assets"}},
		{"Apple revenue for the fiscal year ending September 2023", Figure{Companies: []string{"apple"}, Field: "revenue", Periods: []Period{{Kind: EndMonth, End: "2023-09", Span: Year}}, Metric: "revenue"}},
		{"What is Apple's latest net income?", Figure{Companies: []string{"apple"}, Field: "net_income", Periods: []Period{{Kind: Latest}}, Metric: "net income"}},
		{"Apple net income", Figure{Companies: []string{"apple"}, Field: "net_income", Periods: []Period{{Kind: Latest}}, Metric: "net income"}},
		{"Apple revenue 2023", Figure{Companies: []string{"apple"}, Field: "revenue", Periods: []Period{{Kind: CalendarYear, Year: 2023}}, Metric: "revenue"}},
		{"What was Apple's gross margin in fiscal 2024?", Figure{Companies: []string{"apple"}, Field: "gross_profit", Derived: Margin, Periods: fy(2024)}},
		{"How much did Apple's revenue grow in fiscal 2024?", Figure{Companies: []string{"apple"}, Field: "revenue", Derived: Growth, Periods: fy(2024), Metric: "revenue"}},
		{"By how much did Apple's revenue change from fiscal 2022 to fiscal 2023?", Figure{Companies: []string{"apple"}, Field: "revenue", Derived: Growth, Periods: append(fy(2022), fy(2023)...), Metric: "revenue"}},
		{"Which was larger in fiscal 2024, Apple's or Microsoft's net income?", Figure{Companies: []string{"apple", "microsoft"}, Field: "net_income", Periods: fy(2024), Compare: true, Metric: "net income"}},
		{"Compare Apple's revenue in FY2023 and FY2024", Figure{Companies: []string{"apple"}, Field: "revenue", Periods: append(fy(2023), fy(2024)...), Compare: true, Metric: "revenue"}},
		{"What was MSFT's current assets in fiscal 2024?", Figure{Companies: []string{"msft"}, Field: "current_assets", Periods: fy(2024), Metric: "current assets"}},
		{"What was Apple's free cash flow in fiscal 2024?", Figure{Companies: []string{"apple"}, Field: "free_cash_flow", Derived: FreeCashFlow, Periods: fy(2024)}},
		{"ＡＡＰＬ ＦＹ２４ net income", Figure{Companies: []string{"aapl"}, Field: "net_income", Periods: fy(2024), Metric: "net income"}},
		{"How much did Apple earn in fiscal 2023?", Figure{Companies: []string{"apple"}, Field: "net_income", Periods: fy(2023), Metric: "earn"}},
		{"Apple topline fy22", Figure{Companies: []string{"apple"}, Field: "revenue", Periods: fy(2022), Metric: "topline"}},
		{"How much profit did Apple make in fiscal 2022?", Figure{Companies: []string{"apple"}, Field: "net_income", Periods: fy(2022), Metric: "profit"}},
		{"Apple cash generated from operations fiscal 2023", Figure{Companies: []string{"apple"}, Field: "operating_cash_flow", Periods: fy(2023), Metric: "cash generated from operations"}},
		{"How much cash did Apple generate from operations in FY23?", Figure{Companies: []string{"apple"}, Field: "operating_cash_flow", Periods: fy(2023), Metric: "operating cash flow"}},
		{"CIK 320193 total assets fy2022", Figure{Companies: []string{"320193"}, Field: "assets", Periods: fy(2022), Metric: "total assets"}},
		{"CIK 0000789019 total liabilities fiscal 2022", Figure{Companies: []string{"789019"}, Field: "liabilities", Periods: fy(2022), Metric: "total liabilities"}},
		{"cik0000320193 net income FY22", Figure{Companies: []string{"320193"}, Field: "net_income", Periods: fy(2022), Metric: "net income"}},
		{"How fast did Apple's revenue grow in fiscal 2025?", Figure{Companies: []string{"apple"}, Field: "revenue", Derived: Growth, Periods: fy(2025), Metric: "revenue"}},
		{"how quickly did NVIDIA's net income grow in fiscal 2025", Figure{Companies: []string{"nvidia"}, Field: "net_income", Derived: Growth, Periods: fy(2025), Metric: "net income"}},
		{"Apple revenue growth rate fiscal 2023", Figure{Companies: []string{"apple"}, Field: "revenue", Derived: Growth, Periods: fy(2023), Metric: "revenue"}},
	} {
		got, ok := ParseFigure(c.q)
		if !ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v %v\nwant %+v", c.q, got, ok, c.want)
		}
	}
	for _, q := range []string{"What is the boiling point of water?", "Who will win the 2028 presidential election?",
		"What share of NVIDIA's revenue came from customers outside the US in fiscal 2025?",
		"By how much did NVIDIA's revenue grow in fiscal year 2025 according to its MD&A?"} {
		if got, ok := ParseFigure(q); ok {
			t.Errorf("%q: read as %+v, want no figure question", q, got)
		}
	}
}

func TestListingSubject(t *testing.T) {
	for q, want := range map[string]string{
		"When was 贵州茅台 listed?": "贵州茅台", "贵州茅台什么时候上市?": "贵州茅台", "平安银行是什么时候上市的？": "平安银行",
		"When did Kweichow Moutai go public?": "kweichow moutai", "Ping An Bank listing date": "ping an bank",
		"What is the listing date of 万科Ａ?": "万科a", "When was ６００５１９．ＳＨ listed?": "600519.sh", "IPO date of 中芯国际?": "中芯国际",
		"When was SMIC listed on the STAR Market?": "smic", "万科Ａ的上市日期是什么?": "万科a",
		"What is the stock code of 格力电器?": "格力电器", "Which exchange is 招商银行 listed on?": "招商银行", "000858 list date": "000858",
		"listing date of Ping An Bank": "ping an bank", "Which stock exchange is Ping An Bank listed on?": "ping an bank",
		"格力电器的股票代码是什么？": "格力电器", "招商银行在哪个交易所上市?": "招商银行", "五粮液's stock code": "五粮液",
	} {
		if got, ok := ListingSubject(q); !ok || got != want {
			t.Errorf("%q: got %q %v, want %q", q, got, ok, want)
		}
	}
	for name, want := range map[string]string{"Ping An Bank": "SZSE.000001", "PING AN BANK CO., LTD.": "SZSE.000001", "China Vanke": "SZSE.000002", "Kweichow Moutai": "SSE.600519", "smic": "SSE.688981"} {
		if got := EnglishListings(name); len(got) != 1 || got[0] != want {
			t.Errorf("%q: %v, want %s", name, got, want)
		}
	}
}
