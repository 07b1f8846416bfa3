package mongo_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/quarrydata/quarry/domain/holdings"

	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/ports/porttest"
)

// The funds-holding contract on the data directory's FerretDB, with pages
// of 16 positions so that a lookup merges many of them.
func TestFundHoldingsContractEmbedded(t *testing.T) {
	t.Cleanup(mongoadapter.SetHolderPageSize(16))
	porttest.RunFundHoldings(t, func(t *testing.T) ports.FundHoldingStore { return mongoadapter.NewFundHoldings(embeddedDB(t)) })
}

// The contract again with every rewritten (CUSIP, period) document sent on
// its own: a write sent in many parts answers as one sent at once.
func TestFundHoldingsContractEmbeddedSmallWrites(t *testing.T) {
	t.Cleanup(mongoadapter.SetHolderPageSize(16))
	t.Cleanup(mongoadapter.SetHolderWriteBytes(1))
	porttest.RunFundHoldings(t, func(t *testing.T) ports.FundHoldingStore { return mongoadapter.NewFundHoldings(embeddedDB(t)) })
}

// A (CUSIP, period) document written before they were packed (arrays of
// rows and reports) is read as it was written when a write next rewrites
// it, and written packed.
func TestFundHoldingsReadsTheEarlierGroupLayout(t *testing.T) {
	ctx := context.Background()
	db := embeddedDB(t)
	const cusip, period = "037833100", "2023-12-31"
	old := holdings.Holding{Accession: "0000950123-24-002518", Row: 1, FundCIK: "0001067983", FundName: "BERKSHIRE HATHAWAY INC",
		ReportPeriod: period, FilingDate: "2024-02-14", CUSIP: cusip, Issuer: "APPLE INC", Class: "COM",
		Shares: 905560000, ShareType: "SH", Value: 174347000000, Discretion: "DFND"}
	doc := bson.D{{Key: "_id", Value: cusip + "|" + period}, {Key: "cusip", Value: cusip}, {Key: "report_period", Value: period},
		{Key: "rows", Value: bson.A{bson.D{
			{Key: "accession", Value: old.Accession}, {Key: "row", Value: old.Row}, {Key: "fund_cik", Value: old.FundCIK},
			{Key: "fund_name", Value: old.FundName}, {Key: "report_period", Value: period}, {Key: "filing_date", Value: old.FilingDate},
			{Key: "cusip", Value: cusip}, {Key: "issuer", Value: old.Issuer}, {Key: "class", Value: old.Class},
			{Key: "shares", Value: old.Shares}, {Key: "share_type", Value: old.ShareType}, {Key: "value", Value: old.Value},
			{Key: "put_call", Value: ""}, {Key: "discretion", Value: old.Discretion},
		}}},
		{Key: "reports", Value: bson.A{bson.D{
			{Key: "accession", Value: old.Accession}, {Key: "fund_cik", Value: old.FundCIK},
			{Key: "report_period", Value: period}, {Key: "filing_date", Value: old.FilingDate},
		}}},
	}
	if _, err := db.Collection("us_fund_holdings").InsertOne(ctx, doc); err != nil {
		t.Fatal(err)
	}
	added := holdings.Holding{Accession: "0001104659-24-019755", Row: 1, FundCIK: "0001364742", FundName: "BlackRock Inc.",
		ReportPeriod: period, FilingDate: "2024-02-12", CUSIP: cusip, Issuer: "APPLE INC", Class: "COM",
		Shares: 1000, ShareType: "SH", Value: 190000, Discretion: "SOLE"}
	filing := holdings.Filing{Accession: added.Accession, FormType: "13F-HR", FundCIK: added.FundCIK, FundName: added.FundName,
		ReportPeriod: period, FilingDate: added.FilingDate, Holdings: []holdings.Holding{added}}
	store := mongoadapter.NewFundHoldings(db)
	if err := store.ReplaceThirteenFFilings(ctx, []holdings.Filing{filing}); err != nil {
		t.Fatal(err)
	}
	got, total, err := store.FundHolders(ctx, cusip, holdings.Query{Limit: 10, AsOf: time.Now()})
	if err != nil || total != 2 || !slices.Equal(got, []holdings.Holding{old, added}) {
		t.Fatalf("holders after a write over the earlier layout: %+v (total %d), %v; want %+v and %+v", got, total, err, old, added)
	}
	var raw bson.M
	if err := db.Collection("us_fund_holdings").FindOne(ctx, bson.D{{Key: "_id", Value: cusip + "|" + period}}).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	if _, packed := raw["b"].(bson.Binary); !packed || raw["rows"] != nil {
		t.Fatalf("rewritten, the document is not packed: %v", raw)
	}
}
