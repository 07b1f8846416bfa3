package usecase_test

import (
	"context"
	"errors"
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

// TestAvailabilityOfAGovernedDataset walks a dataset only a governed
// source fills through its states: source_required while the source is
// not configured and the store is empty, not_backfilled once configured,
// available once it holds data, whatever the source then.
func TestAvailabilityOfAGovernedDataset(t *testing.T) {
	var configured, held atomic.Bool
	a := usecase.NewAvailability([]usecase.DatasetProbe{{Dataset: dataset.IndiaJudgments, Probe: func(context.Context) (bool, error) {
		return held.Load(), nil
	}}}, usecase.Remedy{Dataset: dataset.IndiaJudgments, Text: "load it"})
	a.GovernUntil(dataset.IndiaJudgments, func(context.Context) (bool, error) { return configured.Load(), nil }, "configure it")
	steps := []struct {
		name             string
		configured, held bool
		want             dataset.Status
		remedy           string
	}{
		{"nothing configured", false, false, dataset.Status{Availability: dataset.SourceRequired, Reason: dataset.GovernedSourceNotConfigured,
			BackfillRequired: true, ExternalSourceRequired: true}, "configure it"},
		{"configured", true, false, dataset.StatusFor(false), "load it"},
		{"loaded", true, true, dataset.StatusFor(true), ""},
		{"source gone", false, true, dataset.StatusFor(true), ""},
	}
	for _, s := range steps {
		configured.Store(s.configured)
		held.Store(s.held)
		st, err := a.Status(context.Background(), dataset.IndiaJudgments)
		if err != nil || st != s.want {
			t.Fatalf("%s: %+v, %v; want %+v", s.name, st, err, s.want)
		}
		err = a.Require(context.Background(), dataset.IndiaJudgments)
		var un *usecase.UnavailableError
		if s.remedy == "" && err != nil || s.remedy != "" && (!errors.As(err, &un) || un.Remedy != s.remedy) {
			t.Fatalf("%s: Require = %v, want remedy %q", s.name, err, s.remedy)
		}
	}
}
