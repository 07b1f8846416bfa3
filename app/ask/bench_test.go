package ask_test

import (
	"testing"

	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/domain/scope"
)

// BenchmarkAskEval answers every question of both evaluation parts once
// per iteration: Ask's CPU per question is ns/op over their number
// (compared before and after issue 27 in the closing note).
func BenchmarkAskEval(b *testing.B) {
	a, _ := sampleAsk(b)
	var cases []scoredCase
	for _, part := range []string{"dev", "test"} {
		cases = append(cases, loadScored(b, part).Cases...)
	}
	scopes := scope.Strings(scope.SelfServe())
	b.ResetTimer()
	for b.Loop() {
		for _, c := range cases {
			q, err := ask.Parse(ask.Request{Question: c.Question, AsOf: c.AsOf}, evalNow)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := governedAnswer(a, q, scopes, allActive{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/question")
}
