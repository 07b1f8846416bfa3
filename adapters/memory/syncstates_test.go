package memory_test

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/ports/porttest"
)

func TestSyncStatesContract(t *testing.T) { porttest.RunSyncStates(t, memory.NewSyncStates()) }
