package judgmentpdf_test

import (
	"context"
	"io"
	"testing"

	"github.com/quarrydata/quarry/adapters/judgmentpdf"
	"github.com/quarrydata/quarry/bootstrap"
)

// BenchmarkRenderLongest renders the sample's longest judgment.
func BenchmarkRenderLongest(b *testing.B) {
	js, err := bootstrap.LoadJudgmentsSample()
	if err != nil {
		b.Fatal(err)
	}
	longest := js[0]
	for _, j := range js {
		if len(j.Text) > len(longest.Text) {
			longest = j
		}
	}
	r := judgmentpdf.New()
	b.SetBytes(int64(len(longest.Text)))
	for b.Loop() {
		if err := r.Render(context.Background(), io.Discard, longest); err != nil {
			b.Fatal(err)
		}
	}
}
