package ask_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/scope"
)

// TestAskCarriesTheLicenceOfEachCitedDataset answers from an internal-only
// dataset and from a public one: the answer carries the licence of each
// dataset it cites, once, and none of a dataset it does not cite.
func TestAskCarriesTheLicenceOfEachCitedDataset(t *testing.T) {
	a, _ := sampleAsk(t)
	for _, c := range []struct {
		question string
		want     dataset.ID
	}{
		{"How much did the close of SSE.600519 change from 2021-12-31 to 2022-07-01?", dataset.ChinaPrices},
		{"What did RELIANCE close at on 31 May 2021?", dataset.IndiaPrices},
		{"What was AAPL's revenue in fiscal 2023?", dataset.USFinancials},
	} {
		got := askCase(t, a, evalCase{Question: c.question})
		d, _ := dataset.Lookup(c.want)
		if got.Text == "" || len(got.Licences) != 1 || got.Licences[0].Dataset != c.want || got.Licences[0].Licence != d.Licence {
			t.Errorf("%q: answer %q with licences %+v, want only %s's %+v", c.question, got.Text, got.Licences, c.want, d.Licence)
		}
	}
	if got := askCase(t, a, evalCase{Question: "What did SSE.600519 close at on 2022-07-02?"}); got.Text != "" || len(got.Licences) != 0 {
		t.Errorf("a day with no bar: %q, licences %+v", got.Text, got.Licences)
	}
}

// TestAskReadsPricesOnlyForAKeyThatMayReadThem asks a price question with
// a key lacking china:read: China prices are left out for the permission,
// and the question is not answered from them.
func TestAskReadsPricesOnlyForAKeyThatMayReadThem(t *testing.T) {
	a, _ := sampleAsk(t)
	q, err := ask.Parse(ask.Request{Question: "What did SSE.600519 close at on 2021-12-31?"}, evalNow)
	if err != nil {
		t.Fatal(err)
	}
	scopes := slices.DeleteFunc(scope.Strings(scope.SelfServe()), func(s string) bool { return s == string(scope.ChinaRead) })
	got, err := governedAnswer(a, q, scopes, allActive{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != "" || !slices.Contains(got.Excluded, ask.Exclusion{Dataset: dataset.ChinaPrices, Reason: ask.ExcludedPermissionMissing}) {
		t.Errorf("without china:read: %q, excluded %+v", got.Text, got.Excluded)
	}
}

// TestAskNeverSaysATokenizedJudge asks for the judges of a judgment one of
// whose judges' names the redactor tokenized: only the other is named.
func TestAskNeverSaysATokenizedJudge(t *testing.T) {
	a, _ := sampleAsk(t)
	got := askCase(t, a, evalCase{Question: "Who were the judges in Civil Appeal No. 5700 of 2021?"})
	if !strings.Contains(got.Text, "J.K. Maheshwari") || strings.Contains(got.Text, "PTY_") || strings.Contains(got.Citations[0].Fields["judges"], "PTY_") {
		t.Errorf("answer %q, fields %+v", got.Text, got.Citations[0].Fields)
	}
}

// TestInitialsEndNoSentence splits a judgment's line holding a state's
// initials: "U.P." ends no sentence.
func TestInitialsEndNoSentence(t *testing.T) {
	text := "The appeal from the U.P. Government was heard. It is allowed."
	var got []string
	for _, sp := range ask.Sentences(text, ask.PrintedLines) {
		got = append(got, string([]rune(text)[sp[0]:sp[1]]))
	}
	if want := []string{"The appeal from the U.P. Government was heard.", "It is allowed."}; !slices.Equal(got, want) {
		t.Errorf("sentences %q, want %q", got, want)
	}
}
