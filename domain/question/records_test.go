package question

import (
	"reflect"
	"testing"
)

func TestDays(t *testing.T) {
	for q, want := range map[string][]string{
		"What did RELIANCE close at on 1 July 2025?":           {"2025-07-01"},
		"close on 1st of July 2025":                            {"2025-07-01"},
		"Moutai close on July 1, 2025 and on 2025-07-04":       {"2025-07-01", "2025-07-04"},
		"from 2021-12-31 to 4 Jan 2022":                        {"2021-12-31", "2022-01-04"},
		"close on 2025-02-30":                                  {},
		"What was Apple's net income for fiscal 2024?":         {},
		"Ｍｏｕｔａｉ close on ２０２１－１２－３１":                           {"2021-12-31"},
		"What was the high of 600519.SH on December 30, 2021?": {"2021-12-30"},
		"RELIANCE close on 01-JUN-2021":                        {"2021-06-01"},
		"贵州茅台2021年12月31日的收盘价":                                  {"2021-12-31"},
	} {
		if got := Days(q); !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Errorf("Days(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestParsePrice(t *testing.T) {
	for _, c := range []struct {
		q    string
		want Price
		ok   bool
	}{
		{"What did RELIANCE close at on 1 July 2025?", Price{Fields: []string{"close"}, Days: []string{"2025-07-01"}}, true},
		{"Kweichow Moutai opening price on 31 December 2021", Price{Fields: []string{"open"}, Days: []string{"2021-12-31"}}, true},
		{"600519.SH high and low on 2022-01-04", Price{Fields: []string{"high", "low"}, Days: []string{"2022-01-04"}}, true},
		{"INFY volume on 2017-12-04", Price{Fields: []string{"volume"}, Days: []string{"2017-12-04"}}, true},
		{"How much did the close of RELIANCE change from 2021-05-31 to 2021-06-01?", Price{Fields: []string{"close"}, Days: []string{"2021-05-31", "2021-06-01"}, Change: true}, true},
		{"贵州茅台2022年6月30日前复权收盘价", Price{Fields: []string{"close"}, Days: []string{"2022-06-30"}, Adjust: "forward"}, true},
		{"RELIANCE previous close on 2021-06-01", Price{Fields: []string{"prev_close"}, Days: []string{"2021-06-01"}}, true},
		{"RELIANCE last traded price on 2021-06-01", Price{Fields: []string{"last"}, Days: []string{"2021-06-01"}}, true},
		// What a day's bar does not hold as such.
		{"RELIANCE average price on 2021-06-01", Price{}, false},
		{"SSE.600519 adjusted close on 2021-12-31", Price{}, false},
		{"RELIANCE turnover on 2021-06-01", Price{}, false},
		// Two days and no change: which day's is not said.
		{"RELIANCE close on 2021-05-31 or 2021-06-01", Price{}, false},
		{"What did RELIANCE close at?", Price{}, false},
		{"Microsoft total assets as of June 30, 2024", Price{}, false},
	} {
		got, ok := ParsePrice(c.q)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParsePrice(%q) = %+v, %v; want %+v, %v", c.q, got, ok, c.want, c.ok)
		}
	}
}

func TestParseHolders(t *testing.T) {
	for _, c := range []struct {
		q    string
		want Holders
		ok   bool
	}{
		{"Who is the top 13F holder of AAPL?", Holders{Top: true}, true},
		{"Which fund is the largest holder of MSFT?", Holders{Top: true}, true},
		{"How many shares of AAPL did Berkshire Hathaway hold?", Holders{Fund: "berkshire hathaway"}, true},
		{"How many AAPL shares does Soros Fund Management hold?", Holders{Fund: "soros fund management"}, true},
		{"How many shares of AAPL did Berkshire Hathaway hold at September 30, 2023?", Holders{Fund: "berkshire hathaway", Period: "2023-09-30"}, true},
		{"Who held Apple shares in Berkshire's 13F for Q4 2023?", Holders{Fund: "berkshire", Period: "2023-12-31"}, true},
		{"Who was the largest holder of AAPL in Q4 2024?", Holders{Top: true, Period: "2024-12-31"}, true},
		{"How much AAPL stock did Berkshire Hathaway own at the end of 2023?", Holders{Fund: "berkshire hathaway", Period: "2023-12-31"}, true},
		{"Who audits Apple?", Holders{}, false},
		{"Who holds the record?", Holders{}, false},
	} {
		got, ok := ParseHolders(c.q)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseHolders(%q) = %+v, %v; want %+v, %v", c.q, got, ok, c.want, c.ok)
		}
	}
}

func TestParseFilingIndex(t *testing.T) {
	for _, c := range []struct {
		q    string
		want FilingIndex
		ok   bool
	}{
		{"How many files are in accession 0000320193-24-000123?", FilingIndex{Accession: "0000320193-24-000123", Files: true}, true},
		{"number of documents in 000032019324000123", FilingIndex{Accession: "000032019324000123", Files: true}, true},
		{"What is the primary document of 0000950170-25-100235?", FilingIndex{Accession: "0000950170-25-100235"}, true},
		{"What does 0000950170-25-100235 say about risk?", FilingIndex{}, false},
		{"How many files are in Apple's 10-K?", FilingIndex{}, false},
	} {
		got, ok := ParseFilingIndex(c.q)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseFilingIndex(%q) = %+v, %v; want %+v, %v", c.q, got, ok, c.want, c.ok)
		}
	}
}

func TestJudgmentField(t *testing.T) {
	for q, want := range map[string]string{
		"Who were the judges in Writ Petition No. 1620 of 2015?":      JudgmentJudges,
		"Who decided W.P.(C) 6938/2024?":                              JudgmentJudges,
		"Which court decided W.P.(C) 6938/2024?":                      JudgmentCourt,
		"When was Civil Appeal No. 6262 of 2010 decided?":             JudgmentDecided,
		"What is the decision date of WP 1620 of 2015?":               JudgmentDecided,
		"Was Civil Appeal No. 6262 of 2010 allowed or dismissed?":     JudgmentOutcome,
		"What was the outcome of the appeal about the municipal tax?": JudgmentOutcome,
		"What did the petitioner pray for in W.P.(C) 6938/2024?":      "",
		"Which directors adopted Rule 10b5-1 trading arrangements?":   "",
	} {
		if got, ok := JudgmentField(q); got != want || ok != (want != "") {
			t.Errorf("JudgmentField(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
}

func TestHanNames(t *testing.T) {
	for q, want := range map[string][]string{
		"贵州茅台2021年12月31日的收盘价是多少?":     {"贵州茅台"},
		"万科A 2021-12-31 收盘价":          {"万科A"},
		"What did RELIANCE close at?": nil,
	} {
		if got := HanNames(q); !reflect.DeepEqual(got, want) {
			t.Errorf("HanNames(%q) = %q, want %q", q, got, want)
		}
	}
}
