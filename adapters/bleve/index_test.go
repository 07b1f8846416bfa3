package bleve_test

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/bleve"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

func TestSectionIndex(t *testing.T) {
	porttest.RunSectionIndex(t, func(t *testing.T) ports.SectionIndex {
		x, err := bleve.New()
		if err != nil {
			t.Fatal(err)
		}
		return x
	})
}
