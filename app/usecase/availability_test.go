package usecase_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
)

// TestAvailabilityProbesOnceForConcurrentRequests: requests arriving
// together at a cold server share one probe of a dataset that holds data.
func TestAvailabilityProbesOnceForConcurrentRequests(t *testing.T) {
	var probes atomic.Int32
	a := usecase.NewAvailability([]usecase.DatasetProbe{{Dataset: dataset.ChinaSecurities, Probe: func(context.Context) (bool, error) {
		probes.Add(1)
		time.Sleep(20 * time.Millisecond) // a count on FerretDB takes far longer
		return true, nil
	}}})
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() {
			if err := a.Require(context.Background(), dataset.ChinaSecurities); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := probes.Load(); n != 1 {
		t.Fatalf("200 concurrent requests ran %d probes, want 1", n)
	}
}

// TestAvailabilityProbesAgainWhileEmpty: an empty dataset is probed on
// every request, so data ingested later is served without a restart.
func TestAvailabilityProbesAgainWhileEmpty(t *testing.T) {
	var probes atomic.Int32
	a := usecase.NewAvailability([]usecase.DatasetProbe{{Dataset: dataset.ChinaSecurities, Probe: func(context.Context) (bool, error) {
		return probes.Add(1) > 2, nil
	}}})
	for i, want := range []bool{false, false, true, true} {
		st, err := a.Status(context.Background(), dataset.ChinaSecurities)
		if err != nil || st.Serving() != want {
			t.Fatalf("request %d: serving %v, %v; want %v", i, st.Serving(), err, want)
		}
	}
	if n := probes.Load(); n != 3 {
		t.Fatalf("%d probes, want 3 (none once data was seen)", n)
	}
}

// TestAGovernedDatasetIsSourceRequiredUntilItHoldsData: without its
// source, an empty dataset is source_required and its 503 names what
// configures the source; data loaded by other means makes it available.
func TestAGovernedDatasetIsSourceRequiredUntilItHoldsData(t *testing.T) {
	var has atomic.Bool
	a := usecase.NewAvailability([]usecase.DatasetProbe{{Dataset: dataset.ChinaPrices, Probe: func(context.Context) (bool, error) {
		return has.Load(), nil
	}}}, usecase.Remedy{Dataset: dataset.ChinaPrices, Text: "an operator loads it with `quarry ingest china_prices`"})
	a.Govern(dataset.ChinaPrices, "set QUARRY_TUSHARE_TOKEN")
	err := a.Require(context.Background(), dataset.ChinaPrices)
	var un *usecase.UnavailableError
	if !errors.As(err, &un) || un.Status != dataset.SourceRequiredStatus() || !strings.Contains(err.Error(), "set QUARRY_TUSHARE_TOKEN") {
		t.Fatalf("empty, source not configured: %v", err)
	}
	if !un.Status.ExternalSourceRequired || un.Status.Reason != dataset.GovernedSourceNotConfigured {
		t.Fatalf("status %+v", un.Status)
	}
	has.Store(true)
	if st, err := a.Status(context.Background(), dataset.ChinaPrices); err != nil || st.Availability != dataset.Available {
		t.Fatalf("holding data: %+v, %v", st, err)
	}
}
