package durable

import (
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/ports"
)

// documents makes the datasets' stores on one MongoDB-wire database.
type documents struct {
	db *mongodrv.Database
}

var _ bootstrap.DocumentStores = documents{}

func (d documents) ChinaPrices() ports.ChinaPriceStore { return mongo.NewChinaPrices(d.db) }

func (d documents) CachedChinaPrices(c *readcache.Cache) ports.ChinaPriceStore {
	return mongo.NewCachedChinaPrices(d.db, c)
}

func (d documents) Securities() ports.SecurityStore      { return mongo.NewSecurities(d.db) }
func (d documents) FundHoldings() ports.FundHoldingStore { return mongo.NewFundHoldings(d.db) }
func (d documents) Judgments() ports.JudgmentStore       { return mongo.NewJudgments(d.db) }
func (d documents) IndiaPrices() ports.IndiaPriceStore   { return mongo.NewIndiaPrices(d.db) }

func (d documents) CachedIndiaPrices(c *readcache.Cache) ports.IndiaPriceStore {
	return mongo.NewCachedIndiaPrices(d.db, c)
}

func (d documents) Filings() bootstrap.FilingStores   { return mongo.NewFilings(d.db) }
func (d documents) Financials() ports.FinancialsStore { return mongo.NewFinancials(d.db) }
func (d documents) SyncStates() ports.SyncStates      { return mongo.NewSyncStates(d.db) }
