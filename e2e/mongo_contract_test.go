package e2e

import (
	"testing"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestMongoContracts runs the port contracts against the MongoDB adapter on
// FerretDB, a fresh database per test.
func TestMongoContracts(t *testing.T) {
	porttest.RunSecurities(t, func(t *testing.T) ports.SecurityStore {
		return mongo.NewSecurities(mongoDatabase(t))
	})
}
