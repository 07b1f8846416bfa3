package question

import (
	"testing"
	"unicode/utf8"
)

// FuzzParse reads any text as a question: no input panics, and what a
// figure question names is well formed.
func FuzzParse(f *testing.F) {
	for _, q := range []string{"AAPL FY24 net income", "What was Apple's gross margin in fiscal 2023?", "Compare Apple and Microsoft revenue for fiscal 2024",
		"When did Kweichow Moutai go public?", "６００５１９．ＳＨ什么时候上市?", "What happened in W.P.(C) 6938/2024?"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if fig, ok := ParseFigure(q); ok {
			if len(fig.Companies) == 0 || len(fig.Companies) > 2 || len(fig.Periods) == 0 || len(fig.Periods) > 2 || fig.Field == "" {
				t.Fatalf("%q: %+v", q, fig)
			}
			for _, p := range fig.Periods {
				if p.Quarter < 0 || p.Quarter > 4 {
					t.Fatalf("%q: quarter %d", q, p.Quarter)
				}
			}
		}
		if s, ok := ListingSubject(q); ok && (s == "" || !utf8.ValidString(s) && utf8.ValidString(q)) {
			t.Fatalf("%q: subject %q", q, s)
		}
		if n, y, ok := CaseNumber(q); ok && len(y) != 4 {
			t.Fatalf("%q: case %q of year %q", q, n, y)
		}
		EnglishListings(q)
		SaysOutcome(q)
	})
}
