package mongo_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	mongoadapter "github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/holdings"
)

// commandLog records the name of every command a client sends, with the
// limit of a find.
type commandLog struct {
	mu   sync.Mutex
	sent []string
}

func (l *commandLog) started(_ context.Context, e *event.CommandStartedEvent) {
	name := e.CommandName
	if limit, ok := e.Command.Lookup("limit").AsInt64OK(); ok && name == "find" {
		name = fmt.Sprintf("find limit %d", limit)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent = append(l.sent, name)
}

func (l *commandLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.sent
	l.sent = nil
	return out
}

// A dataset's availability reads one document of a collection of large
// ones, never a count: FerretDB runs a count as an aggregation that
// decodes every document (a second for 6,000 10-K filings, on the first
// request to the route).
func TestAvailabilityReadsOneDocument(t *testing.T) {
	ctx := context.Background()
	log := &commandLog{}
	db := embeddedDBWith(t, options.Client().SetMonitor(&event.CommandMonitor{Started: log.started}))
	filings, funds := mongoadapter.NewFilings(db), mongoadapter.NewFundHoldings(db)
	f := filing.Filing{Accession: "0000320193-24-000123", CIK: "0000320193", Form: "10-K", Filed: time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)}
	must(t, filings.UpsertFilings(ctx, []filing.Filing{f}, nil))
	must(t, funds.ReplaceThirteenFFilings(ctx, []holdings.Filing{{Accession: "0000950123-24-002518", FormType: "13F-HR",
		FundCIK: "0001067983", ReportPeriod: "2023-12-31", FilingDate: "2024-02-14"}}))
	log.take()
	for name, holds := range map[string]func(context.Context) (bool, error){
		"filings": filings.HoldsFilings, "13F filings": funds.HoldsThirteenFFilings,
	} {
		held, err := holds(ctx)
		if err != nil || !held {
			t.Fatalf("%s: held %v, %v", name, held, err)
		}
		if sent := log.take(); len(sent) != 1 || sent[0] != "find limit 1" {
			t.Fatalf("%s: sent %v, want one find limit 1", name, sent)
		}
	}
}
