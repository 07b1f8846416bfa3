package indiaprices_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
)

// countingStore records the rows of each Add it passes on.
type countingStore struct {
	ports.IndiaPriceStore
	adds [][]nse.Row
}

func (s *countingStore) Add(ctx context.Context, rows []nse.Row) error {
	s.adds = append(s.adds, rows)
	return s.IndiaPriceStore.Add(ctx, rows)
}

// rowsPerDay makes a day weigh about an eighth of a batch.
const rowsPerDay = indiaprices.IngestBatchBytes / 8 / int(unsafe.Sizeof(nse.Row{}))

// nseDay is one day's file of rows, each security traded once.
func nseDay(date string) []nse.Row {
	known := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]nse.Row, rowsPerDay)
	for i := range rows {
		isin := fmt.Sprintf("INE%06dA01", i) + "8"
		rows[i] = nse.Row{Symbol: fmt.Sprintf("S%d", i), Series: "EQ", ISIN: isin, Date: date, Open: 10, High: 11, Low: 9, Close: 10,
			Volume: 1, Turnover: 10, Trades: 1, Source: "day.csv", KnownAt: known}
	}
	return rows
}

// files yields the days' files in order, then err (when not nil).
func files(dates []string, err error) iter.Seq2[[]nse.Row, error] {
	return func(yield func([]nse.Row, error) bool) {
		for _, d := range dates {
			if !yield(nseDay(d), nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

func weekdays(from string, n int) []string {
	d, _ := time.Parse(time.DateOnly, from)
	var out []string
	for ; len(out) < n; d = d.AddDate(0, 0, 1) {
		if d.Weekday() != time.Saturday && d.Weekday() != time.Sunday {
			out = append(out, d.Format(time.DateOnly))
		}
	}
	return out
}

// TestIngestEachWritesBatchesOfWholeDaysBoundedInBytes: a run of 30 days
// writes in several batches, none holding much more than
// IngestBatchBytes of rows (a batch closes once it weighs that, before the
// next day), and no day split across two.
func TestIngestEachWritesBatchesOfWholeDaysBoundedInBytes(t *testing.T) {
	store := &countingStore{IndiaPriceStore: memory.NewIndiaPrices()}
	svc := indiaprices.New(store, time.Now)
	dates := weekdays("2025-12-08", 30)
	res, err := svc.IngestEach(context.Background(), files(dates, nil), nil, indiaprices.IngestBatchBytes)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != len(dates)*rowsPerDay {
		t.Fatalf("added %d, want %d", res.Added, len(dates)*rowsPerDay)
	}
	if len(store.adds) < 4 {
		t.Fatalf("%d writes, want at least four for %d days of an eighth of a batch each", len(store.adds), len(dates))
	}
	batchOf := map[string]int{}
	for i, rows := range store.adds {
		days := map[string]bool{}
		for _, r := range rows {
			if b, ok := batchOf[r.Date]; ok && b != i {
				t.Fatalf("%s is split between writes %d and %d", r.Date, b, i)
			}
			batchOf[r.Date], days[r.Date] = i, true
		}
		if len(days) > 9 {
			t.Errorf("write %d holds %d days, want at most 9 (8 fill a batch)", i, len(days))
		}
	}
}

// TestIngestEachWritesOneBatchUnbounded: with no bound (a sync run, its
// days bounded already), the run is one write, seen whole or not at all.
func TestIngestEachWritesOneBatchUnbounded(t *testing.T) {
	store := &countingStore{IndiaPriceStore: memory.NewIndiaPrices()}
	dates := weekdays("2025-06-02", 20)
	if _, err := indiaprices.New(store, time.Now).IngestEach(context.Background(), files(dates, nil), nil, math.MaxInt); err != nil {
		t.Fatal(err)
	}
	if len(store.adds) != 1 || len(store.adds[0]) != len(dates)*rowsPerDay {
		t.Fatalf("%d writes, want one of every row", len(store.adds))
	}
}

// TestIngestEachStopsAtABadFileAfterTheBatchesBeforeIt: the batches
// before the error are written, nothing of the batch it stops in, and
// running again completes the run without writing a row twice.
func TestIngestEachStopsAtABadFileAfterTheBatchesBeforeIt(t *testing.T) {
	store := &countingStore{IndiaPriceStore: memory.NewIndiaPrices()}
	svc := indiaprices.New(store, time.Now)
	dates := weekdays("2025-03-03", 12)
	bad := errors.New("bad file")
	res, err := svc.IngestEach(context.Background(), files(dates, bad), nil, indiaprices.IngestBatchBytes)
	if !errors.Is(err, bad) {
		t.Fatalf("err = %v, want the file's", err)
	}
	written := 0
	for _, rows := range store.adds {
		written += len(rows)
	}
	if len(store.adds) == 0 || written != res.Added || written >= len(dates)*rowsPerDay {
		t.Fatalf("%d writes of %d rows (result %d): want the batches before the bad file, not the one it stops in", len(store.adds), written, res.Added)
	}
	again, err := svc.IngestEach(context.Background(), files(dates, nil), nil, indiaprices.IngestBatchBytes)
	if err != nil {
		t.Fatal(err)
	}
	if again.Added != len(dates)*rowsPerDay-written || again.Unchanged != written {
		t.Fatalf("second run %+v, want %d added and %d unchanged", again, len(dates)*rowsPerDay-written, written)
	}
}
