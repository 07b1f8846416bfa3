package mongo_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// The securities contract on the data directory's FerretDB.
func TestSecuritiesContractEmbedded(t *testing.T) {
	porttest.RunSecurities(t, func(t *testing.T) ports.SecurityStore { return mongoadapter.NewSecurities(embeddedDB(t)) })
}

// A directory entry written before it carried the company's name and
// tickers is found by CIK and name, and answered with the name and
// tickers of the company document; writing the company again fills it.
func TestCompanySearchReadsTheEarlierDirectory(t *testing.T) {
	ctx := context.Background()
	db := embeddedDB(t)
	store := mongoadapter.NewFinancials(db)
	retrieved := time.Date(2026, 7, 20, 12, 0, 0, 0, time.UTC)
	apple := financials.Company{CIK: "0000320193", Tickers: []string{"AAPL"}, Name: "Apple Inc.", RetrievedAt: retrieved}
	if err := store.UpsertCompanies(ctx, []financials.Company{apple}); err != nil {
		t.Fatal(err)
	}
	earlier := bson.D{{Key: "_id", Value: apple.CIK}, {Key: "key", Value: "apple inc"}}
	if _, err := db.Collection("us_company_names").ReplaceOne(ctx, bson.D{{Key: "_id", Value: apple.CIK}}, earlier); err != nil {
		t.Fatal(err)
	}
	store = mongoadapter.NewFinancials(db)
	for _, q := range []financials.CompanySearch{{Name: "apple"}, {CIK: "320"}} {
		got, more, err := store.SearchCompanies(ctx, q, 0, 10)
		if err != nil || more || len(got) != 1 || !reflect.DeepEqual(got[0], apple) {
			t.Fatalf("earlier entry searched by %+v = %+v (more %v), %v; want %+v", q, got, more, err, apple)
		}
	}
	renamed := apple
	renamed.Name = "Apple Computer Inc."
	if err := store.UpsertCompanies(ctx, []financials.Company{renamed}); err != nil {
		t.Fatal(err)
	}
	got, _, err := store.SearchCompanies(ctx, financials.CompanySearch{Ticker: "AAP", Name: "computer"}, 0, 10)
	if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], renamed) {
		t.Fatalf("written again, the entry is found by ticker as %+v, %v", got, err)
	}
}
