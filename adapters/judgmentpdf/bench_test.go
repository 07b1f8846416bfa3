package judgmentpdf_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/judgmentpdf"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

func sample(b *testing.B) []judgment.Judgment {
	b.Helper()
	js, err := ingest.LoadJudgmentsSample()
	if err != nil {
		b.Fatal(err)
	}
	return js
}

// BenchmarkRenderLongest renders the sample's longest judgment.
func BenchmarkRenderLongest(b *testing.B) {
	js := sample(b)
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

// BenchmarkRenderSample renders the sample's judgments in turn, one per
// iteration, as GET /india/judgments/{id}/pdf did before its documents
// were kept.
func BenchmarkRenderSample(b *testing.B) { renderSample(b, judgmentpdf.New()) }

// BenchmarkRenderSampleCached is BenchmarkRenderSample through the cache
// the service puts in front of the renderer (indiajudgments.RenderCache): each
// judgment is rendered once, then served from memory.
func BenchmarkRenderSampleCached(b *testing.B) {
	shared, err := readcache.New(256<<20, time.Hour, usecase.SystemClock)
	if err != nil {
		b.Fatal(err)
	}
	renderSample(b, indiajudgments.NewRenderCache(judgmentpdf.New(), shared))
}

func renderSample(b *testing.B, r ports.JudgmentRenderer) {
	js := sample(b)
	i := 0
	for b.Loop() {
		if err := r.Render(context.Background(), io.Discard, js[i%len(js)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
