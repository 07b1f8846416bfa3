package porttest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
)

// NewIndiaPriceStore returns an empty IndiaPriceStore for one test.
type NewIndiaPriceStore func(t *testing.T) ports.IndiaPriceStore

// eternalISIN is the ISIN of Eternal Ltd, traded as ZOMATO until
// 2025-04-08 and as ETERNAL from 2025-04-09.
const eternalISIN = "INE758T01015"

// eternalRows are the real NSE EQ rows of Eternal Ltd around its rename
// (sec_bhavdata_full, turnover converted from lakhs), known at at.
func eternalRows(at time.Time) []nse.Row {
	rows := []nse.Row{
		{Symbol: "ZOMATO", Date: "2025-04-07", PrevClose: 210.53, Open: 196.00, High: 211.00, Low: 194.80, Last: 211.00, Close: 209.63, Volume: 64932923, Turnover: 13341896000, Trades: 334420},
		{Symbol: "ZOMATO", Date: "2025-04-08", PrevClose: 209.63, Open: 213.19, High: 219.19, Low: 210.81, Last: 214.55, Close: 215.19, Volume: 62002510, Turnover: 13351194000, Trades: 362486},
		{Symbol: "ETERNAL", Date: "2025-04-09", PrevClose: 215.19, Open: 216.00, High: 216.00, Low: 209.86, Last: 211.15, Close: 211.39, Volume: 25359931, Turnover: 5367159000, Trades: 162551},
		{Symbol: "ETERNAL", Date: "2025-04-11", PrevClose: 211.39, Open: 216.00, High: 218.31, Low: 214.10, Last: 216.00, Close: 217.20, Volume: 28917549, Turnover: 6273038000, Trades: 179516},
	}
	for i := range rows {
		rows[i].Series, rows[i].ISIN, rows[i].Source, rows[i].KnownAt = "EQ", eternalISIN, "sec_bhavdata_full.csv", at
	}
	return rows
}

// RunIndiaPrices is the contract of IndiaPriceStore.
func RunIndiaPrices(t *testing.T, newStore NewIndiaPriceStore) {
	ctx := context.Background()
	first := t0.Truncate(time.Millisecond)
	later := first.Add(48 * time.Hour)
	collect := func(t *testing.T, s ports.IndiaPriceStore, q ports.IndiaRowQuery) []nse.Row {
		t.Helper()
		if q.ISIN == "" {
			q.ISIN, q.Series = eternalISIN, "EQ"
		}
		var out []nse.Row
		for r, err := range s.Rows(ctx, q) {
			must(t, "Rows", err)
			out = append(out, r)
		}
		return out
	}
	t.Run("empty store", func(t *testing.T) {
		s := newStore(t)
		n, err := s.Count(ctx)
		must(t, "Count", err)
		if rows := collect(t, s, ports.IndiaRowQuery{AsOf: later}); n != 0 || len(rows) != 0 {
			t.Fatalf("count %d, rows %v", n, rows)
		}
		_, err = s.ISINOf(ctx, "ZOMATO", "EQ", "2025-12-31", later)
		wantErr(t, "ISINOf", err, ports.ErrNotFound)
		if held, err := s.Holds(ctx, eternalISIN, "EQ"); err != nil || held {
			t.Fatalf("Holds = %v, %v", held, err)
		}
	})
	t.Run("rows round-trip in date order, idempotently, in ranges", func(t *testing.T) {
		s := newStore(t)
		rows := eternalRows(first)
		must(t, "Add", s.Add(ctx, []nse.Row{rows[2], rows[0], rows[3], rows[1]}))
		must(t, "Add again", s.Add(ctx, rows))
		if got := collect(t, s, ports.IndiaRowQuery{AsOf: later}); !reflect.DeepEqual(got, rows) {
			t.Fatalf("Rows = %+v\nwant %+v", got, rows)
		}
		got := collect(t, s, ports.IndiaRowQuery{From: "2025-04-08", To: "2025-04-09", AsOf: later})
		if len(got) != 2 || got[0].Date != "2025-04-08" || got[1].Date != "2025-04-09" {
			t.Fatalf("range = %+v", got)
		}
		if got := collect(t, s, ports.IndiaRowQuery{ISIN: eternalISIN, Series: "BE", AsOf: later}); len(got) != 0 {
			t.Fatalf("another series = %+v", got)
		}
		n, err := s.Count(ctx)
		must(t, "Count", err)
		if n != 4 {
			t.Fatalf("count = %d", n)
		}
		day, err := s.OnDate(ctx, "2025-04-09")
		must(t, "OnDate", err)
		if len(day) != 1 || day[0] != rows[2] {
			t.Fatalf("OnDate = %+v", day)
		}
		if held, err := s.Holds(ctx, eternalISIN, "EQ"); err != nil || !held {
			t.Fatalf("Holds = %v, %v", held, err)
		}
	})
	t.Run("a range across years", func(t *testing.T) {
		s := newStore(t)
		// Real NSE EQ rows of Reliance Industries (legacy bhavcopy of the
		// sample, turnover in INR).
		rows := []nse.Row{
			{Symbol: "RELIANCE", Date: "2017-12-01", PrevClose: 921.55, Open: 924.45, High: 931.25, Low: 907.7, Last: 909.5, Close: 910.1, Volume: 5081389, Turnover: 4665846806.05, Trades: 101581},
			{Symbol: "RELIANCE", Date: "2017-12-08", PrevClose: 931.55, Open: 933.85, High: 936.95, Low: 919.05, Last: 921.3, Close: 921, Volume: 5588486, Turnover: 5172651632.2, Trades: 118138},
			{Symbol: "RELIANCE", Date: "2021-05-31", PrevClose: 2094.8, Open: 2102, High: 2191.7, Low: 2085.05, Last: 2153.5, Close: 2160.3, Volume: 27285782, Turnover: 58781421578.65, Trades: 624166},
		}
		for i := range rows {
			rows[i].Series, rows[i].ISIN, rows[i].Source, rows[i].KnownAt = "EQ", "INE002A01018", "bhav.csv", first
		}
		must(t, "Add 2021", s.Add(ctx, rows[2:]))
		must(t, "Add 2017", s.Add(ctx, []nse.Row{rows[1], rows[0]}))
		must(t, "Add all again", s.Add(ctx, rows))
		q := ports.IndiaRowQuery{ISIN: "INE002A01018", Series: "EQ", AsOf: later}
		if got := collect(t, s, q); !reflect.DeepEqual(got, rows) {
			t.Fatalf("Rows = %+v\nwant %+v", got, rows)
		}
		for _, c := range []struct {
			from, to string
			want     []nse.Row
		}{
			{"2017-12-05", "2021-05-31", rows[1:]},
			{"2018-01-01", "", rows[2:]},
			{"", "2020-12-31", rows[:2]},
			{"2018-01-01", "2021-05-30", nil},
		} {
			q.From, q.To = c.from, c.to
			if got := collect(t, s, q); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Rows %s to %s = %+v", c.from, c.to, got)
			}
		}
		if n, err := s.Count(ctx); err != nil || n != 3 {
			t.Fatalf("Count = %d, %v", n, err)
		}
		if got, err := s.ISINOf(ctx, "RELIANCE", "", "2019-06-30", later); err != nil || got != "INE002A01018" {
			t.Fatalf("ISINOf by 2019 = %s, %v", got, err)
		}
		_, err := s.ISINOf(ctx, "RELIANCE", "EQ", "2017-11-30", later)
		wantErr(t, "ISINOf before the first row", err, ports.ErrNotFound)
		day, err := s.OnDate(ctx, "2017-12-08")
		must(t, "OnDate", err)
		if len(day) != 1 || day[0] != rows[1] {
			t.Fatalf("OnDate = %+v", day)
		}
	})
	t.Run("a stream stopped early", func(t *testing.T) {
		s := newStore(t)
		must(t, "Add", s.Add(ctx, eternalRows(first)))
		n := 0
		for _, err := range s.Rows(ctx, ports.IndiaRowQuery{ISIN: eternalISIN, Series: "EQ", AsOf: later}) {
			must(t, "Rows", err)
			if n++; n == 2 {
				break
			}
		}
		if n != 2 {
			t.Fatalf("read %d rows", n)
		}
	})
	t.Run("as_of hides what was not known and keeps first published values", func(t *testing.T) {
		s := newStore(t)
		rows := eternalRows(first)
		must(t, "Add", s.Add(ctx, rows[:3]))
		// A corrected 2025-04-08 (a made-up close) and the next day arrive
		// later.
		fixed := rows[1]
		fixed.Close, fixed.KnownAt, fixed.Source = 215.2, later, "fix.csv"
		next := rows[3]
		next.KnownAt = later
		must(t, "Add later", s.Add(ctx, []nse.Row{fixed, next}))
		before := collect(t, s, ports.IndiaRowQuery{AsOf: later.Add(-time.Millisecond)})
		if len(before) != 3 || before[1] != rows[1] {
			t.Fatalf("before the correction = %+v", before)
		}
		after := collect(t, s, ports.IndiaRowQuery{AsOf: later})
		if len(after) != 4 || after[1] != fixed || after[3] != next {
			t.Fatalf("after the correction = %+v", after)
		}
		if none := collect(t, s, ports.IndiaRowQuery{AsOf: first.Add(-time.Millisecond)}); len(none) != 0 {
			t.Fatalf("before anything was known: %+v", none)
		}
		day, err := s.OnDate(ctx, "2025-04-08")
		must(t, "OnDate", err)
		if len(day) != 2 {
			t.Fatalf("OnDate held %d versions, want 2", len(day))
		}
	})
	t.Run("a symbol resolves to the ISIN that carried it last", func(t *testing.T) {
		s := newStore(t)
		rows := eternalRows(first)
		must(t, "Add", s.Add(ctx, rows))
		for _, c := range []struct {
			symbol, series, by string
			asOf               time.Time
			want               string
		}{
			{"ZOMATO", "EQ", "2025-12-31", later, eternalISIN},
			{"ETERNAL", "EQ", "2025-04-09", later, eternalISIN},
			{"ZOMATO", "", "2025-04-07", later, eternalISIN},
			{"ETERNAL", "EQ", "2025-04-08", later, ""},
			{"ZOMATO", "BE", "2025-12-31", later, ""},
			{"ZOMATO", "EQ", "2025-12-31", first.Add(-time.Millisecond), ""},
		} {
			got, err := s.ISINOf(ctx, c.symbol, c.series, c.by, c.asOf)
			if c.want == "" {
				wantErr(t, "ISINOf "+c.symbol+" by "+c.by, err, ports.ErrNotFound)
				continue
			}
			must(t, "ISINOf", err)
			if got != c.want {
				t.Fatalf("ISINOf(%s, %s) = %s", c.symbol, c.by, got)
			}
		}
	})
	t.Run("a correction known before the row, and a symbol carried across years", func(t *testing.T) {
		s := newStore(t)
		rows := eternalRows(later)
		// A correction known earlier, and a row of the year before.
		early := rows[1]
		early.Close, early.KnownAt = 215.00, first
		old := rows[0]
		old.Date, old.Symbol = "2024-12-31", "ZOMATO"
		must(t, "Add", s.Add(ctx, append([]nse.Row{early, old}, rows...)))
		if got, want := collect(t, s, ports.IndiaRowQuery{AsOf: later}), append([]nse.Row{old}, rows...); !reflect.DeepEqual(got, want) {
			t.Fatalf("Rows = %+v\nwant %+v", got, want)
		}
		if got := collect(t, s, ports.IndiaRowQuery{AsOf: first}); !reflect.DeepEqual(got, []nse.Row{early}) {
			t.Fatalf("Rows before the row = %+v, want the correction alone", got)
		}
		if got, err := s.ISINOf(ctx, "ZOMATO", "EQ", "2025-01-31", later); err != nil || got != eternalISIN {
			t.Fatalf("ISINOf(ZOMATO) in the year before = %s, %v", got, err)
		}
		if got := collect(t, s, ports.IndiaRowQuery{ISIN: eternalISIN, Series: "BE", AsOf: later}); len(got) != 0 {
			t.Fatalf("Rows of a series not held = %v", got)
		}
	})
}
