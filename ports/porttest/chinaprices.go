package porttest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// NewChinaPriceStore returns an empty ChinaPriceStore for one test.
type NewChinaPriceStore func(t *testing.T) ports.ChinaPriceStore

// moutaiBars are Kweichow Moutai's real bars (Tushare daily, unadjusted)
// from 2022-06-27 to 2022-07-01, around its 2022-06-30 ex-date, known at at.
func moutaiBars(at time.Time) []ashare.Bar {
	rows := []ashare.Bar{
		{TradeDate: "2022-06-27", Open: 2019.94, High: 2049.94, Low: 2000.3, Close: 2010.55, PreClose: 2009.01, Volume: 4011517, Amount: 8124448900},
		{TradeDate: "2022-06-28", Open: 2019.74, High: 2041.0, Low: 2001.0, Close: 2036.0, PreClose: 2010.55, Volume: 2524571, Amount: 5112298787},
		{TradeDate: "2022-06-29", Open: 2028.0, High: 2042.0, Low: 2011.01, Close: 2030.0, PreClose: 2036.0, Volume: 3036012, Amount: 6142508408},
		{TradeDate: "2022-06-30", Open: 2000.0, High: 2077.0, Low: 1999.99, Close: 2045.0, PreClose: 2008.33, Volume: 3898243, Amount: 7984019438},
		{TradeDate: "2022-07-01", Open: 2055.0, High: 2067.77, Low: 2015.21, Close: 2029.05, PreClose: 2045.0, Volume: 2159645, Amount: 4385555299},
	}
	for i := range rows {
		rows[i].Code, rows[i].Source, rows[i].KnownAt = "SSE.600519", "600519.SH.csv", at
	}
	return rows
}

// add is an UpdateSeries change that adds bars and derives the steps from
// everything held.
func add(bars ...ashare.Bar) func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
	return func(held []ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
		return bars, ashare.Steps(append(append([]ashare.Bar(nil), held...), bars...)), nil
	}
}

// RunChinaPrices is the contract of ChinaPriceStore.
func RunChinaPrices(t *testing.T, newStore NewChinaPriceStore) {
	ctx := context.Background()
	first := t0.Truncate(time.Millisecond)
	later := first.Add(48 * time.Hour)
	page := func(t *testing.T, s ports.ChinaPriceStore, q ports.BarQuery) ([]ashare.Bar, bool) {
		t.Helper()
		if q.Code == "" {
			q.Code = "SSE.600519"
		}
		if q.Limit == 0 {
			q.Limit = 100
		}
		bars, more, err := s.Bars(ctx, q)
		must(t, "Bars", err)
		return bars, more
	}
	t.Run("empty store", func(t *testing.T) {
		s := newStore(t)
		n, err := s.CountSeries(ctx)
		must(t, "CountSeries", err)
		if n != 0 {
			t.Fatalf("count = %d", n)
		}
		_, err = s.Steps(ctx, "SSE.600519")
		wantErr(t, "Steps", err, ports.ErrNotFound)
		if bars, more := page(t, s, ports.BarQuery{AsOf: later}); len(bars) != 0 || more {
			t.Fatalf("bars of an empty store: %v", bars)
		}
	})
	t.Run("bars round-trip, in date order, paged, idempotently", func(t *testing.T) {
		s := newStore(t)
		bars := moutaiBars(first)
		must(t, "UpdateSeries", s.UpdateSeries(ctx, "SSE.600519", add(bars[3], bars[0], bars[4], bars[1], bars[2])))
		must(t, "UpdateSeries again", s.UpdateSeries(ctx, "SSE.600519", add(bars...)))
		got, more := page(t, s, ports.BarQuery{AsOf: later})
		if !reflect.DeepEqual(got, bars) || more {
			t.Fatalf("Bars = %+v more %v\nwant %+v", got, more, bars)
		}
		got, more = page(t, s, ports.BarQuery{AsOf: later, From: "2022-06-28", To: "2022-06-30", Offset: 1, Limit: 1})
		if len(got) != 1 || got[0].TradeDate != "2022-06-29" || !more {
			t.Fatalf("page = %+v more %v", got, more)
		}
		got, more = page(t, s, ports.BarQuery{AsOf: later, From: "2022-06-28", To: "2022-06-30", Offset: 2, Limit: 1})
		if len(got) != 1 || got[0].TradeDate != "2022-06-30" || more {
			t.Fatalf("last page = %+v more %v", got, more)
		}
		steps, err := s.Steps(ctx, "SSE.600519")
		must(t, "Steps", err)
		if len(steps) != 1 || steps[0].Date != "2022-06-30" || steps[0].Ratio != 2008.33/2030.0 || !steps[0].KnownAt.Equal(first) {
			t.Fatalf("Steps = %+v", steps)
		}
		n, err := s.CountSeries(ctx)
		must(t, "CountSeries", err)
		if n != 1 {
			t.Fatalf("count = %d", n)
		}
		if _, err := s.Steps(ctx, "SZSE.000001"); err == nil {
			t.Fatal("Steps of a code without bars")
		}
	})
	t.Run("as_of hides what was not known and keeps first published values", func(t *testing.T) {
		s := newStore(t)
		bars := moutaiBars(first)
		must(t, "UpdateSeries", s.UpdateSeries(ctx, "SSE.600519", add(bars[:4]...)))
		// The next day's bar and a corrected 2022-06-29 (a made-up close)
		// arrive later.
		fixed := bars[2]
		fixed.Close, fixed.KnownAt, fixed.Source = 2031, later, "fix.csv"
		next := bars[4]
		next.KnownAt = later
		must(t, "UpdateSeries later", s.UpdateSeries(ctx, "SSE.600519", add(fixed, next)))
		before, _ := page(t, s, ports.BarQuery{AsOf: later.Add(-time.Millisecond)})
		if len(before) != 4 || before[2] != bars[2] {
			t.Fatalf("before the correction = %+v", before)
		}
		after, _ := page(t, s, ports.BarQuery{AsOf: later})
		if len(after) != 5 || after[2] != fixed || after[4] != next {
			t.Fatalf("after the correction = %+v", after)
		}
		if none, _ := page(t, s, ports.BarQuery{AsOf: first.Add(-time.Millisecond)}); len(none) != 0 {
			t.Fatalf("before anything was known: %+v", none)
		}
		var held []ashare.Bar
		must(t, "UpdateSeries read", s.UpdateSeries(ctx, "SSE.600519", func(h []ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
			held = h
			return nil, ashare.Steps(h), nil
		}))
		if len(held) != 6 {
			t.Fatalf("held %d versions, want 6", len(held))
		}
		versions, err := s.Versions(ctx, "SSE.600519")
		must(t, "Versions", err)
		if !reflect.DeepEqual(versions, held) {
			t.Fatalf("Versions = %+v\nwant what UpdateSeries is handed, %+v", versions, held)
		}
		if none, err := s.Versions(ctx, "SZSE.000001"); err != nil || len(none) != 0 {
			t.Fatalf("Versions of a code without bars = %v, %v", none, err)
		}
	})
	t.Run("a failing change writes nothing", func(t *testing.T) {
		s := newStore(t)
		err := s.UpdateSeries(ctx, "SSE.600519", func([]ashare.Bar) ([]ashare.Bar, []ashare.Step, error) {
			return nil, nil, fmt.Errorf("refused")
		})
		if err == nil {
			t.Fatal("the change's error was lost")
		}
		if n, _ := s.CountSeries(ctx); n != 0 {
			t.Fatalf("count = %d after a failed change", n)
		}
	})
	t.Run("concurrent updates of one code lose nothing", func(t *testing.T) {
		s := newStore(t)
		bars := moutaiBars(first)
		var wg sync.WaitGroup
		errs := make(chan error, len(bars))
		for _, b := range bars {
			wg.Go(func() { errs <- s.UpdateSeries(ctx, "SSE.600519", add(b)) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			must(t, "concurrent UpdateSeries", err)
		}
		got, _ := page(t, s, ports.BarQuery{AsOf: later})
		steps, err := s.Steps(ctx, "SSE.600519")
		must(t, "Steps", err)
		if len(got) != len(bars) || len(steps) != 1 {
			t.Fatalf("after concurrent updates: %d bars, steps %+v", len(got), steps)
		}
	})
}
