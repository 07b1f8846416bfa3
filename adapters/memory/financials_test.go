package memory_test

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

func TestFinancials(t *testing.T) {
	porttest.RunFinancials(t, func(*testing.T) ports.FinancialsStore { return memory.NewFinancials() })
}
