package ask_test

import (
	"reflect"
	"testing"

	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/domain/scope"
)

// A question asked again is answered from its kept parse and PAN scans
// exactly as the first time, and a question kept does not stand for
// another: a figure, a listing, a text and a personal question, each twice,
// interleaved.
func TestAskAnswersARepeatedQuestionAsTheFirstTime(t *testing.T) {
	a, _ := sampleAsk(t)
	questions := []string{
		"What was Apple's revenue in fiscal 2023?",
		"When did Kweichow Moutai go public?",
		"What are Apple's reportable segments?",
		"What is the PAN of the petitioner?",
		"What was Apple's revenue in fiscal 2022?",
	}
	answer := func(question string) ask.Answer {
		t.Helper()
		q, err := ask.Parse(ask.Request{Question: question}, evalNow)
		if err != nil {
			t.Fatal(err)
		}
		got, err := governedAnswer(a, q, scope.Strings(scope.SelfServe()), allActive{})
		if err != nil {
			t.Fatalf("%q: %v", question, err)
		}
		return got
	}
	first := map[string]ask.Answer{}
	for _, q := range questions {
		first[q] = answer(q)
	}
	if reflect.DeepEqual(first[questions[0]].Text, first[questions[4]].Text) {
		t.Fatalf("fiscal 2023 and 2022 answered alike: %q", first[questions[0]].Text)
	}
	for _, q := range questions {
		if again := answer(q); !reflect.DeepEqual(again, first[q]) {
			t.Errorf("%q asked again:\n got %+v\nwant %+v", q, again, first[q])
		}
	}
}
