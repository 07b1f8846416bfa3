package ask_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/scope"
)

// inactive says every dataset is activated but the ones it names.
type inactive []dataset.ID

func (n inactive) Status(_ context.Context, id dataset.ID) (dataset.Status, error) {
	return dataset.StatusFor(!slices.Contains(n, id)), nil
}

// scopesWithout is the self-serve scopes but the ones named.
func scopesWithout(drop ...scope.Permission) []string {
	return scope.Strings(slices.DeleteFunc(scope.SelfServe(), func(p scope.Permission) bool { return slices.Contains(drop, p) }))
}

// TestAskReadsJudgmentsOnlyWhenGoverned asks a question only a judgment
// answers, with each credential, request and activation that decides
// whether Ask may read the judgments: India judgments and India search
// are read as one, and need india:read, litigation:read and search:read.
func TestAskReadsJudgmentsOnlyWhenGoverned(t *testing.T) {
	a, texts := sampleAsk(t)
	const question = "What are the two new buzzwords?"
	const kalawati = "inj_rjb53zhkumhjenma"
	cases := map[string]struct {
		scopes   []string
		datasets []string
		juris    []string
		st       ask.Statuses
		reason   string // of both datasets; "" when both are searched
	}{
		"every permission":           {scopes: scopesWithout(), st: allActive{}},
		"named as india_judgments":   {scopes: scopesWithout(), datasets: []string{"india_judgments"}, st: allActive{}},
		"named as india_search":      {scopes: scopesWithout(), datasets: []string{"india_search"}, st: allActive{}},
		"jurisdiction IN":            {scopes: scopesWithout(), juris: []string{"IN"}, st: allActive{}},
		"without search:read":        {scopes: scopesWithout(scope.SearchRead), st: allActive{}, reason: ask.ExcludedPermissionMissing},
		"without litigation:read":    {scopes: scopesWithout(scope.LitigationRead), st: allActive{}, reason: ask.ExcludedPermissionMissing},
		"without india:read":         {scopes: scopesWithout(scope.IndiaRead), st: allActive{}, reason: ask.ExcludedPermissionMissing},
		"jurisdiction US":            {scopes: scopesWithout(), juris: []string{"US"}, st: allActive{}, reason: ask.ExcludedNotRequested},
		"another dataset named":      {scopes: scopesWithout(), datasets: []string{"us_search"}, st: allActive{}, reason: ask.ExcludedNotRequested},
		"search index not activated": {scopes: scopesWithout(), st: inactive{dataset.IndiaSearch}, reason: ask.ExcludedNotActivated},
		"judgments not activated":    {scopes: scopesWithout(), st: inactive{dataset.IndiaJudgments}, reason: ask.ExcludedNotActivated},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			q, err := ask.Parse(ask.Request{Question: question, Datasets: c.datasets, Jurisdictions: c.juris}, evalNow)
			if err != nil {
				t.Fatal(err)
			}
			got, err := governedAnswer(a, q, c.scopes, c.st)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.Statement, "vault is never read") || !strings.Contains(got.Statement, "tokens") {
				t.Errorf("governance statement %q", got.Statement)
			}
			for _, id := range []dataset.ID{dataset.IndiaJudgments, dataset.IndiaSearch} {
				reason := ""
				for _, e := range got.Excluded {
					if e.Dataset == id {
						reason = e.Reason
					}
				}
				if reason != c.reason || (reason == "") != slices.Contains(got.Searched, id) {
					t.Errorf("%s: excluded for %q, searched %v; want %q", id, reason, got.Searched, c.reason)
				}
			}
			if c.reason != "" {
				if got.Reason != ask.ReasonNoSupportedAnswer || len(got.Citations) != 0 {
					t.Errorf("answered %q without the judgments", got.Text)
				}
				return
			}
			if len(got.Citations) != 1 {
				t.Fatalf("answer %q with %d citations", got.Text, len(got.Citations))
			}
			ci := got.Citations[0]
			o := ci.Offsets
			if ci.Dataset != dataset.IndiaJudgments || ci.DocumentID != kalawati || ci.Route != "GET /india/judgments/"+kalawati ||
				o == nil || o.Judgment != kalawati || o.Section != "" || string([]rune(texts[kalawati])[o.Start:o.End]) != ci.Snippet ||
				!strings.HasPrefix(ci.Title, "PTY_") || got.Text != ci.Snippet+" [1]" {
				t.Errorf("answer %q cites %+v (offsets %+v)", got.Text, ci, o)
			}
		})
	}
}

// TestJudgmentSentences splits text laid out as a PDF's printed lines give it: a
// sentence runs on past a line ending mid-sentence, and headings,
// abbreviations and initials do not end one where they should not.
func TestJudgmentSentences(t *testing.T) {
	text := "2015:BHC-OS:12420-DB\nWRIT PETITION NO.1620 OF 2015\nMs.Vibhuti D. Desai for petitioners.\nPC :\n" +
		"This writ petition is pending for admission but the\nAdvocate for the Petitioners has received instructions,\n" +
		"to seek leave. Notification No. 15/2004-ST applies to M/s. X Ltd. in Rs. 5 lakh? Yes!"
	var got []string
	for _, sp := range ask.Sentences(text, ask.PrintedLines) {
		got = append(got, string([]rune(text)[sp[0]:sp[1]]))
	}
	want := []string{
		"2015:BHC-OS:12420-DB", "WRIT PETITION NO.1620 OF 2015", "Ms.Vibhuti D. Desai for petitioners.", "PC :",
		"This writ petition is pending for admission but the\nAdvocate for the Petitioners has received instructions,\nto seek leave.",
		"Notification No. 15/2004-ST applies to M/s. X Ltd. in Rs. 5 lakh?", "Yes!",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sentences:\n got %q\nwant %q", got, want)
	}
}

// TestAskCaseNumberAnswersOnlyWhatItAsks asks about judgments by case
// number: a question asking nothing else gets the outcome sentence, one
// asking for something no sentence covers is refused, and one asking for
// a party's identifier is refused before anything is read.
func TestAskCaseNumberAnswersOnlyWhatItAsks(t *testing.T) {
	a, _ := sampleAsk(t)
	for _, c := range []struct {
		question string
		answered bool
	}{
		{"What was the outcome of Writ Petition No. 1620 of 2015?", true},
		{"Which bank account did the respondent name in WP 1620 of 2015?", false},
		{"What is the petitioner's permanent account number in Writ Petition No. 1620 of 2015?", false},
		{"Give the Aadhaar of the parties in WP 1620 of 2015", false},
		{"What was the mobile number of the respondent in Writ Petition No. 1620 of 2015?", false},
		{"Who is the tallest judge named in W.P. 1620/2015?", false},
	} {
		got := askCase(t, a, evalCase{Question: c.question})
		if (got.Text != "") != c.answered {
			t.Errorf("%q: answered %q, want answered %v", c.question, got.Text, c.answered)
		}
	}
}
