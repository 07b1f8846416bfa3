package bleve_test

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestContracts runs the index contracts on indexes held in memory.
func TestContracts(t *testing.T) {
	porttest.RunAll(t, porttest.Stores{
		SectionIndex: func(t *testing.T) ports.SectionIndex {
			x, err := bleve.New()
			if err != nil {
				t.Fatal(err)
			}
			return x
		},
		JudgmentIndex: func(t *testing.T) ports.JudgmentIndex {
			x, err := bleve.NewJudgments()
			if err != nil {
				t.Fatal(err)
			}
			return x
		},
	})
}
