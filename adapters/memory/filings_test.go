package memory_test

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

func TestFilings(t *testing.T) {
	porttest.RunFilings(t, func(*testing.T) ports.FilingStore { return memory.NewFilings() })
}

func TestSections(t *testing.T) {
	porttest.RunSections(t, func(*testing.T) ports.SectionStore { return memory.NewFilings() })
}
