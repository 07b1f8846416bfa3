package e2e

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestMongoContractsCachedChinaPrices runs the ChinaPriceStore contract on
// the MongoDB adapter keeping its buckets in a read cache, behind the
// cache of steps, as the server runs it.
func TestMongoContractsCachedChinaPrices(t *testing.T) {
	porttest.RunChinaPrices(t, func(t *testing.T) ports.ChinaPriceStore {
		cache, err := readcache.New(1<<20, time.Minute, usecase.SystemClock)
		if err != nil {
			t.Fatal(err)
		}
		return chinaprices.NewCache(mongo.NewCachedChinaPrices(mongoDatabase(t), cache), cache)
	})
}
