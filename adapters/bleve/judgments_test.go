package bleve_test

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

func TestJudgmentIndex(t *testing.T) {
	porttest.RunJudgmentIndex(t, func(t *testing.T) ports.JudgmentIndex {
		x, err := bleve.NewJudgments()
		if err != nil {
			t.Fatal(err)
		}
		return x
	})
}
