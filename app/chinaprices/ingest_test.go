package chinaprices_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"testing"
	"time"
	"unsafe"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// countingStore records, by code, the bars of each update it passes on.
type countingStore struct {
	ports.ChinaPriceStore
	updates map[string][]int
}

func (s *countingStore) UpdateSeries(ctx context.Context, code string, change func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error)) error {
	return s.ChinaPriceStore.UpdateSeries(ctx, code, func(held []ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
		add, steps, err := change(held)
		s.updates[code] = append(s.updates[code], len(add))
		return add, steps, err
	})
}

// codesPerDay makes a day's file (every code's bar of one day, as
// Tushare's daily files hold them) weigh about an eighth of a batch.
const codesPerDay = chinaprices.IngestBatchBytes / 8 / int(unsafe.Sizeof(ashare.Bar{}))

// dailyFiles yields one file of bars per weekday from 2025-03-03, then
// err (when not nil).
func dailyFiles(days int, err error) iter.Seq2[[]ashare.Bar, error] {
	return func(yield func([]ashare.Bar, error) bool) {
		d := time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)
		for n := 0; n < days; d = d.AddDate(0, 0, 1) {
			if d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
				continue
			}
			bars := make([]ashare.Bar, codesPerDay)
			for i := range bars {
				bars[i] = ashare.Bar{Code: fmt.Sprintf("SSE.%06d", i), TradeDate: d.Format(time.DateOnly), Open: 10, High: 10, Low: 10, Close: 10,
					PreClose: 10, Volume: 100, Amount: 1000, Source: "daily.csv", KnownAt: d.Add(10 * time.Hour)}
			}
			if !yield(bars, nil) {
				return
			}
			n++
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

// TestIngestEachStoresBatchesBoundedInBytes: 20 daily files of an eighth
// of a batch each are stored in several batches, each code updated once a
// batch with at most the nine days a batch holds.
func TestIngestEachStoresBatchesBoundedInBytes(t *testing.T) {
	store := &countingStore{ChinaPriceStore: memory.NewChinaPrices(), updates: map[string][]int{}}
	res, err := chinaprices.New(store, time.Now).IngestEach(context.Background(), dailyFiles(20, nil), chinaprices.IngestBatchBytes)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 20*codesPerDay {
		t.Fatalf("added %d, want %d", res.Added, 20*codesPerDay)
	}
	updates := store.updates["SSE.000000"]
	if len(updates) < 3 {
		t.Fatalf("code updated %d times (%v), want once a batch, at least three", len(updates), updates)
	}
	for _, n := range updates {
		if n > 9 {
			t.Fatalf("updates %v: one adds %d days, more than a batch holds", updates, n)
		}
	}
}

// TestIngestEachStopsAtABadFileAfterTheBatchesBeforeIt: the batches
// before the error are stored, nothing of the one it stops in, and
// running again completes the run.
func TestIngestEachStopsAtABadFileAfterTheBatchesBeforeIt(t *testing.T) {
	store := &countingStore{ChinaPriceStore: memory.NewChinaPrices(), updates: map[string][]int{}}
	svc := chinaprices.New(store, time.Now)
	bad := errors.New("bad file")
	res, err := svc.IngestEach(context.Background(), dailyFiles(12, bad), chinaprices.IngestBatchBytes)
	if !errors.Is(err, bad) {
		t.Fatalf("err = %v, want the file's", err)
	}
	if res.Added == 0 || res.Added >= 12*codesPerDay {
		t.Fatalf("added %d of %d: want the batches before the bad file, not the one it stops in", res.Added, 12*codesPerDay)
	}
	again, err := svc.IngestEach(context.Background(), dailyFiles(12, nil), chinaprices.IngestBatchBytes)
	if err != nil || again.Added != 12*codesPerDay-res.Added || again.Unchanged != res.Added {
		t.Fatalf("second run %+v, %v: want %d added, %d unchanged", again, err, 12*codesPerDay-res.Added, res.Added)
	}
}
